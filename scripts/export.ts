import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  type CommandSpec,
  exitCodes,
  type ParsedCommandLine,
  stringOption,
  UsageError,
} from '../checker/cli.ts';
import { modelOf, promelaModel } from '../checker/promela.ts';
import { scopeNames } from '../checker/scope-file.ts';
import { baseVariantName } from '../machines/variants.ts';
import { runEntry } from './entry.ts';

/**
 * `npm run export -- --promela --scope NAME [--variant V] [--out FILE]`: writes the system model as a
 * Promela model for SPIN, generated from the machines' complete outcome tables (checker/promela.ts).
 */
const spec: CommandSpec = {
  name: 'npm run export --',
  summary: "Writes the system model for another engine: --promela, SPIN's input language.",
  options: {
    promela: { type: 'boolean', description: 'write Promela (with embedded C tables), for spin -a' },
    scope: {
      type: 'string',
      value: 'NAME|FILE',
      description: `a built-in scope (${scopeNames().join(', ')}) or a scope file (default: quick)`,
    },
    variant: {
      type: 'string',
      value: 'NAME',
      description: `${baseVariantName} (default) or a seeded fault of machines/variants.ts`,
    },
    out: {
      type: 'string',
      value: 'FILE',
      description: 'write here (default: generated/runs/<variant>-<scope>/<scope>.pml, which git ignores)',
    },
  },
  exitCodes: [exitCodes.ok, exitCodes.internal, exitCodes.usage],
};

async function main({ values }: ParsedCommandLine): Promise<number> {
  if (values.promela !== true) throw new UsageError('name the format: --promela (the only one so far)');
  const variant = stringOption(values, 'variant') ?? baseVariantName;
  const model = modelOf(variant, stringOption(values, 'scope') ?? 'quick');
  const started = performance.now();
  const promela = promelaModel(model, { variant });
  const out =
    stringOption(values, 'out') ??
    join('generated', 'runs', `${variant}-${model.scope.name}`, `${model.scope.name}.pml`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, promela.text);
  const { tables } = promela;
  console.log(
    `wrote ${out}: ${promela.text.length.toLocaleString('en')} bytes in ${((performance.now() - started) / 1000).toFixed(1)} s; ${tables.runs.toLocaleString('en')} action runs to fill the tables; namespace states per slot ${tables.slotIds.map((s) => s.length).join('/')}, ${tables.globals.length} global rows`,
  );
  return exitCodes.ok;
}

await runEntry(spec, 'export', main);
