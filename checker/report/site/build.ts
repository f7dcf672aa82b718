import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, posix } from 'node:path';
import { writeFileAtomic } from '../../cli/fs-atomic.ts';
import type { Generator } from '../generator.ts';
import { mermaidBundleName, siteHtml } from './html.ts';
import { loadSiteInput } from './inputs.ts';

/** The Mermaid browser bundle the page loads from beside itself, so it works from disk with no network. */
export function mermaidBundlePath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('mermaid/package.json')), 'dist', mermaidBundleName);
}

/** `<reportDir>/site`: where the page of a report goes. */
export function siteFolder(reportDir: string): string {
  return posix.join(reportDir, 'site');
}

/**
 * Writes `<reportDir>/site/index.html` and the Mermaid bundle beside it, from the report, diagrams,
 * mutants and ITF counterexamples already under `rootDir`. Returns the written paths, relative to `rootDir`.
 */
export async function buildSite(rootDir: string, reportDir: string): Promise<string[]> {
  const input = await loadSiteInput(rootDir, reportDir);
  const folder = siteFolder(reportDir);
  const page = posix.join(folder, 'index.html');
  const bundle = posix.join(folder, mermaidBundleName);
  await writeFileAtomic(join(rootDir, page), siteHtml(input, reportDir));
  await writeFileAtomic(join(rootDir, bundle), await readFile(mermaidBundlePath()));
  return [bundle, page];
}

/** The committed page of the canonical report; runs after the report, diagrams and mutants generators. */
export const siteGenerator: Generator = {
  name: 'site',
  owns: [
    posix.join(siteFolder('generated'), 'index.html'),
    posix.join(siteFolder('generated'), mermaidBundleName),
  ],
  generate: (rootDir) => buildSite(rootDir, 'generated'),
};
