import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { KeptAnswers } from '../cli/kept-answers.ts';
import { contentDigest as digest } from '../cli/project-cache.mjs';
import { type LineTree, yamlParseOptions } from '../cli/yaml-document.ts';

/** What a scenario's YAML text parsed to: the value it holds and the lines of its nodes. */
export interface ParsedText {
  value: unknown;
  lines: LineTree;
}

/** The texts the file holds at most before those this run did not read are dropped: 64 committed files, edited a few times. */
const keptTexts = 256;

/**
 * What a parse depends on besides the text: the YAML package's version, the parse options, and the
 * sources that parse and keep it (this file and checker/cli/yaml-document.ts), so an edit to either
 * never serves an old parse.
 */
function cacheKey(): string {
  const require = createRequire(import.meta.url);
  const yamlVersion = (require('yaml/package.json') as { version: string }).version;
  const here = fileURLToPath(import.meta.url);
  const sources = [here, join(dirname(here), '..', 'cli', 'yaml-document.ts')].map((path) =>
    digest(readFileSync(path)),
  );
  return digest([yamlVersion, JSON.stringify(yamlParseOptions), ...sources].join('\n'));
}

/**
 * The committed scenarios' parsed YAML kept between runs of `verify`, by each file's content: parsing
 * the 64 files is about a fifth of their replay, and they seldom change. A text is served only when its
 * digest and the key (YAML's version, the options, the parsing sources) are the ones it was stored under;
 * a file that fails to parse, or holds aliases or tags, is never stored and is parsed every time.
 */
export class ParsedTextCache {
  /** Each text's parse, serialized (so each lookup gives fresh objects), by the text's digest. */
  private readonly kept: KeptAnswers<Uint8Array>;

  constructor(path: string) {
    this.kept = new KeptAnswers(path, cacheKey(), keptTexts);
  }

  /** The parse of `text` stored by an earlier run, as fresh objects; undefined when there is none. */
  lookup(text: string): ParsedText | undefined {
    const entry = this.kept.get(digest(text));
    return entry === undefined ? undefined : (deserialize(entry) as ParsedText);
  }

  /** Keeps the parse of `text` for the next run. */
  remember(text: string, parsed: ParsedText): void {
    this.kept.set(digest(text), serialize(parsed));
  }

  /**
   * Writes the file when this run parsed a text it did not hold. A run that read only some files (a test)
   * keeps the others' parses; the texts no run reads any more (edited files' old texts) are dropped once
   * the file holds more than `keptTexts`. A cache that cannot be written (a read-only folder) is left as it was.
   */
  save(): void {
    this.kept.save();
  }
}
