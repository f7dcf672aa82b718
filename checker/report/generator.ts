import type { StampSpec } from './stamp.ts';

/**
 * Everything the project generates from the machines. `npm run check:generated` runs each quick
 * generator into an empty folder and compares the result with the tree, and judges each long one by
 * its stamp (checker/report/stamp.ts); `-- --full` runs those too. A new kind of output needs only an entry
 * in `generators` below.
 */
export interface Generator {
  name: string;
  /**
   * Folders or files (relative to the root) that hold only this generator's output: a file found
   * there that the generator did not write is reported as unexpected.
   */
  owns?: readonly string[];
  /** Writes under `rootDir` (the real tree or a scratch copy); returns the paths written, relative to it. */
  generate(rootDir: string): Promise<string[]>;
  /** Masks what legitimately differs between runs (e.g. a run time) in both copies before they are compared. */
  normalize?(path: string, text: string): string;
  /**
   * For `check:generated`: writes what can be compared byte for byte, and judges the rest (files whose
   * bytes depend on the machine, such as SVGs) by `judge`: null when the committed file is fresh, else why not.
   */
  generateForCheck?(rootDir: string): Promise<{ written: string[]; judged: string[] }>;
  judge?(path: string, committed: string): string | null;
  /**
   * A long generator (a minute or more): its outputs carry a stamp of their sources, written with them,
   * and the quick `check:generated` judges them by it instead of running the generator again.
   */
  stamp?: StampSpec;
  /** Outputs whose bytes depend on the machine (screenshots): judged by the stamp even by `--full`. */
  stampOnly?: boolean;
}
