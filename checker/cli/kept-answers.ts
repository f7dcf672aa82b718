import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { writeWhole } from './project-cache.mjs';

/** What a file of kept answers holds: the key it was written under, and each answer by its id. */
interface KeptFile<V> {
  key: string;
  entries: Map<string, V>;
}

/**
 * Answers kept between runs in one file of the project's cache (the scenarios' parsed YAML, the stamps'
 * TypeScript answers), each by the digest of what it was computed from. An answer also depends on `key`
 * (the versions and sources that compute it): a file written under another key, or that cannot be read,
 * holds nothing; one that cannot be written is left as it was. Past `limit` answers, a save keeps only
 * those its process used, so the answers of texts no run reads any more go.
 */
export class KeptAnswers<V> {
  private stored = new Map<string, V>();
  /** The file's modification time when it was read: another process may have added answers since. */
  private readAt: number | undefined;
  /** The answers this process read or computed: what stays when the file grows past `limit`. */
  private readonly used = new Map<string, V>();
  private added = false;

  constructor(
    private readonly path: string,
    private readonly key: string,
    private readonly limit: number,
  ) {
    this.read();
  }

  private read(): void {
    try {
      const modified = statSync(this.path).mtimeMs;
      if (modified === this.readAt) return;
      this.readAt = modified;
      const file = deserialize(readFileSync(this.path)) as Partial<KeptFile<V>>;
      if (file.key === this.key && file.entries instanceof Map) this.stored = file.entries;
    } catch {
      // No file yet, or one cut short: every answer is computed.
    }
  }

  /** The answer kept for `id`, by this process or, read again when another wrote the file since, by a run. */
  get(id: string): V | undefined {
    let answer = this.used.get(id) ?? this.stored.get(id);
    if (answer === undefined) {
      this.read();
      answer = this.stored.get(id);
    }
    if (answer !== undefined) this.used.set(id, answer);
    return answer;
  }

  /** Keeps `answer` for `id`, for this process and, once saved, the next runs. */
  set(id: string, answer: V): void {
    this.used.set(id, answer);
    this.added = true;
  }

  /** Writes the file when this process computed an answer; past `limit` answers, only those it used stay. */
  save(): void {
    if (!this.added) return;
    const merged = new Map([...this.stored, ...this.used]);
    const entries = merged.size > this.limit ? new Map(this.used) : merged;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      writeWhole(this.path, serialize({ key: this.key, entries } satisfies KeptFile<V>));
      this.stored = entries;
      this.readAt = statSync(this.path).mtimeMs;
      this.added = false;
    } catch {
      // The next run computes them again.
    }
  }
}
