import { posix } from 'node:path';

/**
 * Where the JSON Schemas of the files the project writes live (`schemas/`, written by `npm run schemas`
 * from the zod types of checker/report/output-schemas.ts), and the `$schema` each written file carries.
 */
export const schemasFolder = 'schemas';

/** Every kind of JSON the project writes, by the name of its schema file. */
export const outputSchemaNames = [
  'report',
  'mutants',
  'alternatives',
  'stamp',
  'written',
  'bench',
  'crosscheck',
  'swarm',
  'itf',
] as const;
export type OutputSchemaName = (typeof outputSchemaNames)[number];

/** The schema's path, relative to the project root. */
export const schemaPath = (name: OutputSchemaName): string => `${schemasFolder}/${name}.schema.json`;

/**
 * The `$schema` of a JSON file written at `file` (POSIX, relative to the project root): the schema's path
 * relative to the file's folder, so an editor or validator beside the file finds it. Output printed on
 * stdout (`--json`) names it relative to the project root, the folder the commands run in.
 */
export function schemaRef(name: OutputSchemaName, file?: string): string {
  if (file === undefined) return schemaPath(name);
  return posix.relative(posix.dirname(file), schemaPath(name));
}
