import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../cli/fs-atomic.ts';
import { writtenManifestSchema } from '../cli/output-folder.ts';
import { type OutputSchemaName, outputSchemaNames, schemaPath, schemasFolder } from '../cli/schema-ref.ts';
import { benchLineSchema } from '../judging/bench-format.ts';
import { crossCheckLineSchema } from '../judging/crosscheck.ts';
import { swarmSliceSchema } from '../judging/swarm.ts';
import { itfTraceSchema } from '../scenario/itf.ts';
import { alternativesFileSchema } from './alternatives.ts';
import type { Generator } from './generator.ts';
import { mutantsFileSchema } from './mutants.ts';
import { reportFileSchema } from './report.ts';
import { stampFileSchema } from './stamp.ts';

/**
 * The JSON Schema of every JSON file the project writes, generated from the zod type its writer builds
 * (zod's toJSONSchema, draft 2020-12), so a CI that reads report.json or mutants.json need not guess
 * its shape. `npm run schemas` writes them under schemas/; `check:generated` finds them stale when a
 * type changed without them. Every written file names its schema in `$schema` (checker/cli/schema-ref.ts).
 */
export const outputSchemas: Readonly<Record<OutputSchemaName, z.ZodType>> = {
  report: reportFileSchema,
  mutants: mutantsFileSchema,
  alternatives: alternativesFileSchema,
  stamp: stampFileSchema,
  written: writtenManifestSchema,
  bench: benchLineSchema,
  crosscheck: crossCheckLineSchema,
  swarm: swarmSliceSchema,
  // ITF's own readers (Quint, Apalache) fix its top-level keys, so a trace carries no $schema of ours.
  itf: itfTraceSchema.meta({
    title: 'nsmodel ITF trace',
    description:
      "A counterexample or lasso as verify writes it: Apalache's ADR-015 Informal Trace Format, with each state's #meta.action and the mbt:: variables.",
  }),
};

/** The schema file's text: JSON Schema 2020-12 of what the writer emits, its title and description first. */
export function jsonSchemaText(name: OutputSchemaName): string {
  const generated = z.toJSONSchema(outputSchemas[name], {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'throw',
  });
  const { $schema, title, description, ...rest } = generated;
  return `${JSON.stringify({ $schema, title, description, ...rest }, null, 2)}\n`;
}

/** Writes every schema under `rootDir`; returns the paths written, relative to it. */
export async function writeSchemas(rootDir: string): Promise<string[]> {
  const written: string[] = [];
  for (const name of outputSchemaNames) {
    await writeFileAtomic(join(rootDir, schemaPath(name)), jsonSchemaText(name));
    written.push(schemaPath(name));
  }
  return written;
}

/** `npm run schemas`; `check:generated` writes them into a scratch folder and compares the bytes. */
export const schemasGenerator: Generator = {
  name: 'schemas',
  owns: [schemasFolder],
  generate: writeSchemas,
};
