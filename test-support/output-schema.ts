import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { type OutputSchemaName, schemaPath } from '../checker/cli/schema-ref.ts';

/**
 * Written JSON judged by its committed schema (schemas/*.schema.json) with Ajv, a validator that shares no
 * code with the zod types the schemas are generated from.
 */

const ajv = new Ajv2020({ strict: true, allErrors: true });
const compiled = new Map<OutputSchemaName, ValidateFunction>();

/** The committed schema `name` as JSON. */
export const committedSchema = (name: OutputSchemaName): object =>
  JSON.parse(readFileSync(resolve(schemaPath(name)), 'utf8')) as object;

/** `data` validates against the committed schema `name`; Ajv's errors are the failure message. */
export function expectValidOutput(name: OutputSchemaName, data: unknown): void {
  let check = compiled.get(name);
  if (!check) {
    check = ajv.compile(committedSchema(name));
    compiled.set(name, check);
  }
  expect(check(data), `${name}: ${ajv.errorsText(check.errors)}`).toBe(true);
}

/** The file's `$schema` leads from `file` (absolute, or relative to the project root) to the committed schema. */
export function expectNamesItsSchema(
  name: OutputSchemaName,
  json: { $schema?: unknown },
  file: string,
): void {
  expect(typeof json.$schema, `${file} has no $schema`).toBe('string');
  expect(resolve(dirname(resolve(file)), json.$schema as string)).toBe(resolve(schemaPath(name)));
}
