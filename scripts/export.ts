import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { exitCodes, UsageError } from '../checker/cli/cli.ts';
import { writeFileAtomic } from '../checker/cli/fs-atomic.ts';
import { modelOf, promelaModel } from '../checker/judging/promela.ts';
import { quintModuleName, quintTypesModule } from '../checker/scenario/itf-types.ts';
import { baseVariantName } from '../variants/variants.ts';
import { type CommandLine, defineCommand, scopeOption, variantOption } from './entry.ts';

/**
 * `npm run export -- --promela --scope NAME [--variant V] [--out FILE]`: writes the system model as a
 * Promela model for SPIN, generated from the machines' complete outcome tables (checker/judging/promela.ts).
 * `npm run export -- --quint-types --scope NAME [--out FILE]`: writes the Quint module of the scope's
 * state type, which its ITF traces typecheck against (checker/scenario/itf-types.ts).
 */
const command = {
  script: 'export',
  summary:
    "Writes the system model for another engine: --promela, SPIN's input language; or --quint-types, the Quint types of its ITF traces.",
  options: {
    promela: { type: 'boolean', description: 'write Promela (with embedded C tables), for spin -a' },
    'quint-types': {
      type: 'boolean',
      description:
        'write the Quint module of the state type that the ITF traces of the scope hold, for quint typecheck',
    },
    scope: scopeOption(),
    variant: variantOption(),
    out: {
      type: 'string',
      value: 'FILE',
      description:
        'write here (default: generated/runs/<variant>-<scope>/<scope>.pml, or nsmodel_<scope>.qnt, which git ignores)',
    },
  },
} as const;

async function main({ values }: CommandLine<typeof command.options>): Promise<number> {
  const promelaAsked = values.promela === true;
  const quintAsked = values['quint-types'] === true;
  if (promelaAsked === quintAsked)
    throw new UsageError(
      promelaAsked
        ? 'name one format: --promela or --quint-types'
        : 'name the format: --promela or --quint-types',
    );
  const variant = values.variant ?? baseVariantName;
  const model = modelOf(variant, values.scope ?? 'quick');
  if (quintAsked) {
    const name = quintModuleName(model.scope.name);
    const out = values.out ?? join('generated', 'runs', `${variant}-${model.scope.name}`, `${name}.qnt`);
    mkdirSync(dirname(out), { recursive: true });
    await writeFileAtomic(
      out,
      quintTypesModule({
        name: model.scope.name,
        namespaces: model.scope.namespaces.map((n) => n.name),
        initializers: model.initializers.map((i) => i.name),
      }),
    );
    console.log(`wrote ${out}: module ${name}, the state type of scope ${model.scope.name}'s ITF traces`);
    return exitCodes.ok;
  }
  const started = performance.now();
  const promela = promelaModel(model, { variant });
  const out =
    values.out ?? join('generated', 'runs', `${variant}-${model.scope.name}`, `${model.scope.name}.pml`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, promela.text);
  const { tables } = promela;
  console.log(
    `wrote ${out}: ${promela.text.length.toLocaleString('en')} bytes in ${((performance.now() - started) / 1000).toFixed(1)} s; ${tables.runs.toLocaleString('en')} action runs to fill the tables; namespace states per slot ${tables.slotIds.map((s) => s.length).join('/')}, ${tables.globals.length} global rows`,
  );
  return exitCodes.ok;
}

await defineCommand(command, main);
