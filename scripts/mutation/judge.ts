import { scopeByName } from '../../checker/cli/scope-file.ts';
import { checkAsync } from '../../checker/judging/check.ts';
import { LivenessCollector } from '../../checker/judging/liveness-fly.ts';
import { goldenDifferences, goldenOf, manifestVerdicts } from '../../checker/judging/manifest.ts';
import { systemModel } from '../../checker/model/system-model.ts';
import { buildReport, committedScenarios, verifyFailures } from '../../checker/report/report.ts';
import { scenarioFilesUnder } from '../../checker/scenario/catalog.ts';
import { replayFile, type ScenarioReport } from '../../checker/scenario/replay.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { baseVariantName, machinesFor, scopeFor } from '../../variants/variants.ts';

/**
 * The verdict `npm run mutation` judges each mutant by, in one process: what
 * `verify --scope NAME --stop-on-first` and `replay scenarios` decide, without their reports, so a
 * mutant costs the search and the replays but no process start. Each returns the reasons the run
 * fails (empty: it passes), in the words verify and replay print.
 */

/**
 * verify's verdict on a named scope: safety (stopping at the first violation), a search cut short,
 * deadlock, liveness, vacuity and coverage, the committed scenarios' invariants, the golden figures.
 */
export async function verifyVerdict(scopeName: string, variant = baseVariantName): Promise<string[]> {
  const given = scopeByName(scopeName);
  const machines = machinesFor(variant, given);
  if (!machines) throw new Error(`variant ${variant} has no machines`);
  const model = systemModel(scopeFor(variant, given), machines);
  if (model.scope.symmetry)
    throw new Error(
      `scope ${scopeName} declares symmetry, and this judge searches every state as a scope without it; judge mutants on a scope without it`,
    );
  const recorder = new LivenessCollector(model, livenessProperties);
  const result = await checkAsync(model, safetyProperties, {
    recorder,
    stopWhenAllViolated: true,
    stopOnFirst: true,
  });
  const liveness = recorder.judge();
  const scenarios =
    variant === baseVariantName && result.complete ? committedScenarios(safetyProperties) : undefined;
  const pinned = goldenOf(scopeName);
  const moved =
    pinned && variant === baseVariantName && result.complete
      ? goldenDifferences(pinned, {
          states: result.states,
          transitions: result.transitions,
          depth: result.depth,
          properties: manifestVerdicts(result),
        })
      : [];
  const report = buildReport(result, { model, variant, outDir: 'generated/runs/mutation', liveness });
  const failures = verifyFailures(report, result, { liveness, ...(scenarios ? { scenarios } : {}), moved });
  return [...failures.map((f) => `${f.class}: ${f.what}`)];
}

/** replay's verdict on every scenario under `folder` (sub-folders too, as `npm run replay -- scenarios`). */
export function replayVerdict(folder: string): string[] {
  const reports: ScenarioReport[] = scenarioFilesUnder(folder).map((file) => replayFile(file));
  return reports
    .filter((r) => r.status !== 'passed')
    .map((r) => `${r.file}: ${r.status}${r.error ? ` (${r.error})` : ` (${r.mismatches} mismatches)`}`);
}
