import { traceabilityGenerator } from '../judging/traceability.ts';
import { alternativesGenerator } from './alternatives.ts';
import { diagramsFolder, fixtureDiagramsFolder, machinesDocPath } from './diagram.ts';
import { mutantsGenerator } from './mutants.ts';
import { schemasGenerator } from './output-schemas.ts';
import { diagramSets, generateDiagrams, rendererFingerprint, svgJobs, svgProblem } from './render.ts';
import { reportGenerator } from './report.ts';
import { scenariosDocGenerator } from './scenario-docs.ts';
import { siteGenerator } from './site/build.ts';
import { screenshotsGenerator } from './site/screenshots.ts';
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

const diagrams: Generator = {
  name: 'diagrams',
  owns: [diagramsFolder, machinesDocPath, fixtureDiagramsFolder],
  generate: (rootDir) => generateDiagrams(rootDir, diagramSets),
  // SVG bytes depend on the Chromium and fonts that drew them: judge each by the source its stamp names.
  async generateForCheck(rootDir) {
    const all = await generateDiagrams(rootDir, diagramSets, { skipSvgs: true });
    const judged = svgJobs(diagramSets).map((job) => job.path);
    return { written: all.filter((path) => !judged.includes(path)), judged };
  },
  judge(path, committed) {
    const job = svgJobs(diagramSets).find((candidate) => candidate.path === path);
    return job ? svgProblem(job, committed, rendererFingerprint()) : 'not drawn by any diagram';
  },
};

/** Every generator, in the order `npm run check:generated` runs them. */
export const generators: Generator[] = [
  diagrams,
  schemasGenerator,
  traceabilityGenerator,
  reportGenerator,
  scenariosDocGenerator,
  mutantsGenerator,
  alternativesGenerator,
  // The page is made of what the generators above wrote, and the screenshots of the page.
  siteGenerator,
  screenshotsGenerator,
];
