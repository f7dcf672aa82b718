import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root, found from this file (no URL object: a test under a DOM environment swaps URL for its own). */
export const projectRoot = `${join(dirname(fileURLToPath(import.meta.url)), '..', '..')}/`;

/** The scenario files (*.yaml, *.yml) of a folder and its sub-folders (scenarios/upstream/), sorted by path. */
export function scenarioFilesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return scenarioFilesUnder(path);
      return entry.name.endsWith('.yaml') || entry.name.endsWith('.yml') ? [path] : [];
    });
}

export interface Requirement {
  id: string;
  /** The catalog's section heading, e.g. `LC — lifecycle and finalizers (001)`. */
  section: string;
  /** The rule's text, without markup, on one line. */
  text: string;
}

const entryPattern = /^- \*\*([A-Z]+-\d+)\*\*\s+(.*)$/;
const sectionPattern = /^## (.*)$/;

/** Every requirement ID of `docs/requirements.md`, in catalog order. */
export function loadRequirements(path = `${projectRoot}docs/requirements.md`): Requirement[] {
  const requirements: Requirement[] = [];
  let section = '';
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const heading = sectionPattern.exec(line);
    if (heading) section = heading[1];
    const entry = entryPattern.exec(line);
    if (entry)
      requirements.push({ id: entry[1], section, text: entry[2].replace(/\*Open:\*.*$/, '').trim() });
  }
  return requirements;
}

const decisionPattern = /^## (D-\d+) (.*)$/;

/** Every decision id of `docs/decisions.md` with its title. */
export function loadDecisions(path = `${projectRoot}docs/decisions.md`): Map<string, string> {
  const decisions = new Map<string, string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = decisionPattern.exec(line);
    if (match) decisions.set(match[1], match[2]);
  }
  return decisions;
}
