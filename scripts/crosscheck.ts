import { join } from 'node:path';
import { exitCodes, isEntryPoint, UsageError } from '../checker/cli/cli.ts';
import { writeFileAtomic } from '../checker/cli/fs-atomic.ts';
import { faultScopeFileOf, resolveScope } from '../checker/cli/scope-file.ts';
import {
  type CrossCheck,
  crossCheck,
  crossCheckLine,
  SearchIncomplete,
} from '../checker/judging/crosscheck.ts';
import { modelOf } from '../checker/judging/promela.ts';
import { ExportUnsupported } from '../checker/judging/promela-tables.ts';
import { PanFailed, spinAvailable } from '../checker/judging/spin.ts';
import { baseVariantName, mutants, variantByName } from '../variants/variants.ts';
import { type CommandLine, count, defineCommand, scopeOption, variantOption } from './entry.ts';

/**
 * `npm run crosscheck -- --scope NAME [--variant V ... | --mutants [--except V ...]]`: exports the model to Promela, runs
 * SPIN on it and compares with verify's search (checker/judging/crosscheck.ts).
 */
export const command = {
  script: 'crosscheck',
  summary:
    "Searches the model with SPIN (spin -a, gcc, pan) on the exported Promela and compares SPIN's figures with verify's.",
  options: {
    scope: scopeOption(),
    variant: { ...variantOption(), multiple: true },
    mutants: {
      type: 'boolean',
      description:
        'the model and then every seeded fault, each cross-checked (a fault with a scope of its own, scopes/faults/, on that scope)',
    },
    except: {
      type: 'string',
      value: 'NAME',
      multiple: true,
      description:
        'with --mutants: leave out this seeded fault (printed as not cross-checked in this run; docs/spin.md says which faults do not fit)',
    },
    'safety-only': {
      type: 'boolean',
      description: 'leave out the liveness verdicts (one pan -a run per property and namespace)',
    },
    json: { type: 'boolean', description: 'one JSON object per cross-check instead of the table' },
    trails: {
      type: 'string',
      value: 'DIR',
      description:
        'write each SPIN counterexample (a safety trace or a liveness lasso) as DIR/<variant>/<property>.itf.json (replay one with npm run replay -- --trace FILE)',
    },
  },
  exits: [exitCodes.crossCheckDiffers],
  notes: [
    'Compared: distinct states, transitions, depth and deadlocks (pan: -DNOREDUCE -DBFS, full state storage, -c0 -e), up to three deadlock trails replayed on the model, and every safety property: violated by both or by neither; each SPIN counterexample is converted to ITF and replayed on the model it names, where it must break its property (docs/spin.md says what SPIN judges and what the tables precompute).',
    "Liveness: one never claim per property and namespace, its weak fairness served by a counter over the conditions (pan -a, on a build with the last step's fairness classes in the state); each accepting cycle is converted to an ITF lasso (loop) and replayed on the model, which must confirm it (replay exit 13).",
  ],
} as const;

function printCheck(check: CrossCheck): void {
  const verdict = check.agrees ? 'agrees' : 'DIFFERS';
  console.log(`${check.variant} on ${check.scope}: SPIN ${verdict} with verify`);
  for (const c of check.comparisons)
    console.log(
      `  ${c.what.padEnd(42)} verify ${count(c.verify).padStart(12)}  spin ${count(c.spin).padStart(12)}  ${c.agrees ? 'equal' : 'DIFFERENT'}`,
    );
  if (!check.spin.complete) console.log(`  the SPIN search did not complete: ${check.spin.incomplete}`);
  for (const v of check.verdicts) {
    if (v.verify !== 'violated' && v.spin !== 'violated') continue;
    const trail = v.trail
      ? `SPIN trail ${v.trail.steps} steps${v.verifySteps !== undefined ? ` (verify ${v.verifySteps})` : ''}, ${v.trail.problem === '' ? 'replayed as ITF: violated on the model (replay exit 12)' : `NOT CONFIRMED: ${v.trail.problem}`}`
      : 'no SPIN trail';
    console.log(
      `  ${v.property.padEnd(42)} verify ${v.verify.padEnd(8)} spin ${v.spin.padEnd(8)} ${v.agrees ? 'equal' : 'DIFFERENT'}; ${trail}`,
    );
  }
  if (check.liveness) {
    for (const v of check.liveness.verdicts)
      console.log(
        `  ${v.property.padEnd(42)} verify ${v.verify.padEnd(8)} spin ${v.spin.padEnd(8)} ${v.agrees ? 'equal' : 'DIFFERENT'}${v.namespace ? ` (accepting cycle on ${v.namespace})` : ''}${v.lasso ? `; SPIN lasso ${v.lasso.steps} steps, cycle from ${v.lasso.loop}, ${v.lasso.problem === '' ? 'replayed as ITF: confirmed on the model (replay exit 13)' : `NOT CONFIRMED: ${v.lasso.problem}`}` : ''}`,
      );
    const l = check.liveness;
    console.log(
      `  liveness: ${l.runs} pan -a runs, ${count(l.states)} product states; export ${l.seconds.export.toFixed(1)} s, verify ${l.seconds.verify.toFixed(1)} s, spin ${l.seconds.spin.toFixed(1)} s`,
    );
  }
  for (const t of check.trails)
    console.log(
      `  trail ${t.file}: ${t.steps} steps, ${t.problem === '' ? 'a run of the model ending in a deadlock there' : `NOT CONFIRMED: ${t.problem}`}`,
    );
  console.log(
    `  times: export ${check.export.seconds.toFixed(1)} s (${count(check.export.bytes)} bytes), verify search ${check.verify.seconds.toFixed(1)} s, spin -a ${check.spin.generateSeconds.toFixed(1)} s, gcc ${check.spin.compileSeconds.toFixed(1)} s, pan ${check.spin.seconds.toFixed(2)} s`,
  );
  for (const line of check.notCompared) console.log(`  not compared: ${line}`);
}

async function main({ values }: CommandLine<typeof command.options>): Promise<number> {
  const scope = values.scope ?? 'quick';
  const variants = values.variant ?? [];
  const except = values.except ?? [];
  if (variants.length > 0 && values.mutants === true)
    throw new UsageError('--variant and --mutants both name what to check; give one');
  if (except.length > 0 && values.mutants !== true)
    throw new UsageError(
      '--except leaves seeded faults out of --mutants; give --mutants, or list the --variant to check',
    );
  const faults = mutants.map((m) => m.name);
  for (const name of except)
    if (!faults.includes(name))
      throw new UsageError(
        `--except: ${JSON.stringify(name)} is not a seeded fault; use one of ${faults.join(', ')}`,
      );
  if (!spinAvailable())
    throw new UsageError('spin and gcc are needed (Debian: apt-get install spin gcc); nothing was compared');
  const names =
    values.mutants === true
      ? [baseVariantName, ...faults.filter((name) => !except.includes(name))]
      : variants.length > 0
        ? variants
        : [baseVariantName];
  const trailsDir = values.trails;
  let agree = true;
  const ownScopes: string[] = [];
  for (const name of names) {
    // A fault with a scope of its own is searched on it in a sweep, and by --variant when no --scope is given.
    const own = variantByName(name)?.sweepScope;
    const scopeOf =
      own !== undefined && (values.mutants === true || values.scope === undefined)
        ? faultScopeFileOf(own)
        : scope;
    const given = resolveScope(scopeOf).scope;
    if (scopeOf !== scope) ownScopes.push(`${name} on its own scope ${given.name}`);
    let check: CrossCheck;
    try {
      check = crossCheck(modelOf(name, scopeOf), name, [], given, {
        liveness: values['safety-only'] !== true,
      });
    } catch (error) {
      if (
        !(
          error instanceof SearchIncomplete ||
          error instanceof PanFailed ||
          error instanceof ExportUnsupported
        )
      )
        throw error;
      // Not compared is never agreement; the other models are still cross-checked.
      agree = false;
      // With --json, stdout stays one JSON object per line. A pan that ended without its summary is
      // shown with how it ended and the end of its output, every line, so its cause can be read.
      (values.json === true ? console.error : console.log)(
        `${name} on ${given.name}: NOT CROSS-CHECKED: ${error.message.split('\n').join('\n    ')}`,
      );
      continue;
    }
    agree &&= check.agrees;
    if (trailsDir !== undefined)
      for (const v of check.verdicts)
        if (v.trail && v.trail.itf !== '')
          await writeFileAtomic(join(trailsDir, name, `${v.property}.itf.json`), v.trail.itf);
    if (trailsDir !== undefined)
      for (const v of check.liveness?.verdicts ?? [])
        if (v.lasso && v.lasso.itf !== '')
          await writeFileAtomic(join(trailsDir, name, `${v.property}.itf.json`), v.lasso.itf);
    if (values.json === true) console.log(JSON.stringify(crossCheckLine(check)));
    else printCheck(check);
  }
  // What was left out is said in the last lines, never folded into the agreement.
  for (const name of except)
    (values.json === true ? console.error : console.log)(
      `${name} on ${scope}: not cross-checked in this run (--except)`,
    );
  if (values.json !== true)
    console.log(
      agree
        ? `SPIN agrees with verify on ${names.length} model(s) of ${scope}${ownScopes.length > 0 ? ` (${ownScopes.join(', ')})` : ''}${except.length > 0 ? ` (${except.length} seeded fault(s) left out by --except)` : ''}: states, transitions, depth, deadlocks and every ${values['safety-only'] === true ? 'safety' : 'safety and liveness'} verdict`
        : 'SPIN and verify disagree, or a model was not cross-checked (see DIFFERENT, NOT CONFIRMED or NOT CROSS-CHECKED above)',
    );
  return agree ? exitCodes.ok : exitCodes.crossCheckDiffers;
}

if (isEntryPoint(import.meta.url)) await defineCommand(command, main);
