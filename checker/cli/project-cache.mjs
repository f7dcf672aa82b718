// @ts-check
/**
 * What the project keeps between runs (verify's bundle, the scenarios' parsed YAML): npm's usual cache
 * folder, files named by the project folder they serve, each written whole. Plain JavaScript, as the
 * launcher loads it before any loader (checker/cli/bundled.mjs).
 */
import { createHash } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The SHA-256 of a file's or a text's content, in hex: what every cache keys its entries by.
 * @param {string | Uint8Array} content
 */
export const contentDigest = (content) => createHash('sha256').update(content).digest('hex');

/**
 * The folder under the project's node_modules where its caches live, never tracked.
 * @param {string} root the project folder
 */
export const projectCacheFolder = (root) => join(root, 'node_modules', '.cache', 'nsmodel');

/**
 * A short tag of the project folder: copies of the project (StrykerJS's sandboxes, worktrees) may share one
 * node_modules and so one cache folder, and each keeps its own files by it.
 * @param {string} root the project folder
 */
export const projectTag = (root) => contentDigest(resolve(root)).slice(0, 12);

/**
 * Writes a file by a rename of a temporary one beside it: a reader sees the old content or the new, never
 * half of it.
 * @param {string} path
 * @param {string | Uint8Array} content
 */
export function writeWhole(path, content) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
}
