import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { contentDigest as digest, writeWhole } from '../cli/project-cache.mjs';
import { type LineTree, yamlParseOptions } from '../cli/yaml-document.ts';

/** What a scenario's YAML text parsed to: the value it holds and the lines of its nodes. */
export interface ParsedText {
  value: unknown;
  lines: LineTree;
}

/** What the cache file holds: the key it was written under, and each text's parse by the text's digest. */
interface CacheFile {
  key: string;
  entries: Map<string, Uint8Array>;
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
  private readonly key: string;
  private readonly stored: Map<string, Uint8Array>;
  private readonly used = new Map<string, Uint8Array>();
  private added = false;

  constructor(private readonly path: string) {
    this.key = cacheKey();
    this.stored = this.read();
  }

  private read(): Map<string, Uint8Array> {
    try {
      const file = deserialize(readFileSync(this.path)) as CacheFile;
      return file.key === this.key && file.entries instanceof Map ? file.entries : new Map();
    } catch {
      // No cache yet, or one cut short: every text is parsed.
      return new Map();
    }
  }

  /** The parse of `text` stored by an earlier run, as fresh objects; undefined when there is none. */
  lookup(text: string): ParsedText | undefined {
    const id = digest(text);
    const entry = this.stored.get(id) ?? this.used.get(id);
    if (entry === undefined) return undefined;
    this.used.set(id, entry);
    return deserialize(entry) as ParsedText;
  }

  /** Keeps the parse of `text` for the next run. */
  remember(text: string, parsed: ParsedText): void {
    this.used.set(digest(text), serialize(parsed));
    this.added = true;
  }

  /**
   * Writes the file when this run parsed a text it did not hold. A run that read only some files (a test)
   * keeps the others' parses; the texts no run reads any more (edited files' old texts) are dropped once
   * the file holds more than `keptTexts`. A cache that cannot be written (a read-only folder) is left as it was.
   */
  save(): void {
    if (!this.added) return;
    const merged = new Map([...this.stored, ...this.used]);
    const file: CacheFile = { key: this.key, entries: merged.size > keptTexts ? this.used : merged };
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      writeWhole(this.path, serialize(file));
    } catch {
      // The next run parses again.
    }
  }
}
