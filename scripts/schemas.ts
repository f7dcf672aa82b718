import { isEntryPoint } from '../checker/cli/cli.ts';
import { writeSchemas } from '../checker/report/output-schemas.ts';
import { defineWritingCommand } from './entry.ts';

/**
 * `npm run schemas`: writes the JSON Schema of every JSON file the project writes (report.json,
 * mutants.json, alternatives.json, the stamps, bench and crosscheck --json, ...) under schemas/, from
 * the zod types their writers build (checker/report/output-schemas.ts). `check:generated` finds them stale.
 */
export const command = {
  script: 'schemas',
  summary:
    'Writes schemas/*.schema.json, the JSON Schema of every JSON file the project writes, from their zod types.',
  options: {},
  notes: ['Each written JSON file names its schema in its $schema field.'],
} as const;

if (isEntryPoint(import.meta.url)) await defineWritingCommand(command, writeSchemas);
