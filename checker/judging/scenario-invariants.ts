import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InvariantProperty, Property } from '../../properties/types.ts';
import { baseVariantName } from '../../variants/variants.ts';
import { projectCacheFolder, projectTag } from '../cli/project-cache.mjs';
import { ScenarioFileError } from '../scenario/load.ts';
import { ParsedTextCache } from '../scenario/parsed-cache.ts';
import { prepareScenario, replayCompiled } from '../scenario/replay.ts';

/**
 * Scenarios as property checks: every invariant is judged on each state a committed scenario's replay
 * reaches, so a scenario whose responses all match still fails when it walks through a bad state.
 */
export interface ScenarioInvariantViolation {
  file: string;
  /** The scenario line of the step that reached the state; 0 for the initial state. */
  line: number;
  step: string;
  propertyId: string;
  message: string;
}

export interface ScenarioInvariantRun {
  /** Scenarios replayed on the machines as written. */
  replayed: number;
  /** Scenarios of a seeded fault or design variant, or malformed: they show other machines. */
  skipped: number;
  /** States judged, over every replay. */
  states: number;
  violations: ScenarioInvariantViolation[];
}

/** The committed scenarios: `*.yaml` directly in the folder, in name order (as `npm run replay` reads it). */
export function committedScenarioFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.yaml') || name.endsWith('.yml'))
    .sort()
    .map((name) => join(folder, name));
}

/** Where the scenarios' parsed YAML is kept between runs: the project's cache folder, by its folder's tag. */
const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const parsedTextsPath = join(projectCacheFolder(projectRoot), `scenario-yaml-${projectTag(projectRoot)}.bin`);

export function checkScenarioInvariants(
  files: readonly string[],
  properties: readonly Property[],
): ScenarioInvariantRun {
  const invariants = properties.filter((p): p is InvariantProperty => p.kind === 'invariant');
  const run: ScenarioInvariantRun = { replayed: 0, skipped: 0, states: 0, violations: [] };
  const parsedTexts = new ParsedTextCache(parsedTextsPath);
  for (const file of files) {
    const compiled = prepareScenario(file, undefined, undefined, parsedTexts);
    if (compiled instanceof ScenarioFileError || compiled.variant !== baseVariantName) {
      run.skipped++;
      continue;
    }
    run.replayed++;
    // One report per property and scenario: the first state that breaks it.
    const reported = new Set<string>();
    replayCompiled(compiled, (model, state, step) => {
      run.states++;
      for (const p of invariants) {
        if (reported.has(p.id)) continue;
        const verdict = p.predicate(model, state);
        if (verdict === true) continue;
        reported.add(p.id);
        run.violations.push({
          file,
          line: step?.line ?? 0,
          step: step?.text ?? '(initial state)',
          propertyId: p.id,
          message: verdict,
        });
      }
    });
  }
  parsedTexts.save();
  return run;
}

/** One line per violation, naming the file, line, step and property. */
export function scenarioViolationLine(v: ScenarioInvariantViolation): string {
  return `${v.file}:${v.line}: "${v.step}" reaches a state where ${v.propertyId} is violated: ${v.message}`;
}
