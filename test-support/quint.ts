import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expressionToString, type QuintEx } from '@informalsystems/quint';
import { type ItfValue, ofItfValue } from '@informalsystems/quint/dist/src/itf.js';

/**
 * Judging ITF traces with Quint itself: each state is read by Quint's own ITF loader (`ofItfValue`,
 * what `quint` uses to load a trace), printed as a Quint expression, and bound to a value annotated
 * with the generated type, so `quint typecheck` decides whether the trace has that type. Nothing here
 * comes from the code that writes the trace or the types.
 */

const quintBin = join('node_modules', '.bin', 'quint');

/** Runs `quint typecheck FILE`; the exit code and everything it printed. */
export async function quintTypecheck(file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(quintBin, ['typecheck', file], {
      timeout: 120_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/**
 * As a Quint model writes the values: a variant by its constructor (`Some(x)`, `None`; quint 0.33's
 * typechecker fails on `variant("Some", x)` for two instances of one generic sum type in a record),
 * and a string with `"` or a line break, which a Quint literal cannot hold, with `'` (its type is str
 * whatever it holds).
 */
function printable(ex: QuintEx): QuintEx {
  if (ex.kind === 'str') return { ...ex, value: ex.value.replace(/["\n\r\\]/g, "'") };
  if (ex.kind !== 'app') return ex;
  const [label, value] = ex.args;
  if (ex.opcode === 'variant' && label?.kind === 'str') {
    const unit = value?.kind === 'app' && value.opcode === 'Tup' && value.args.length === 0;
    return unit
      ? { id: ex.id, kind: 'name', name: label.value }
      : { ...ex, opcode: label.value, args: [printable(value)] };
  }
  return { ...ex, args: ex.args.map(printable) };
}

let nextId = 0n;
const quintText = (value: unknown): string =>
  expressionToString(printable(ofItfValue(value as ItfValue, () => nextId++)));

interface Trace {
  params?: string[];
  vars: string[];
  states: Record<string, unknown>[];
}

/**
 * A Quint module that imports the types module and binds, per state of the trace, its variables as a
 * `State`, its `mbt::actionTaken` as a `str`, its `mbt::nondetPicks` as `NondetPicks`, and the
 * parameters of state 0 as `Params`.
 */
export function traceModule(trace: Trace, name: string, typesModule: string, typesFile: string): string {
  const lines = [`module ${name} {`, `  import ${typesModule}.* from "${typesFile}"`];
  const params = trace.params ?? [];
  if (params.length > 0)
    lines.push(
      `  val params: Params = ${quintText(Object.fromEntries(params.map((p) => [p, trace.states[0][p]])))}`,
    );
  trace.states.forEach((state, i) => {
    const vars = trace.vars.filter((v) => !v.startsWith('mbt::'));
    lines.push(`  val state${i}: State = ${quintText(Object.fromEntries(vars.map((v) => [v, state[v]])))}`);
    if (trace.vars.includes('mbt::actionTaken'))
      lines.push(`  val action${i}: str = ${quintText(state['mbt::actionTaken'])}`);
    if (trace.vars.includes('mbt::nondetPicks'))
      lines.push(`  val picks${i}: NondetPicks = ${quintText(state['mbt::nondetPicks'])}`);
  });
  lines.push('}', '');
  return lines.join('\n');
}
