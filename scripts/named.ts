import { UsageError } from '../checker/cli/cli.ts';
import { closest } from '../checker/cli/request-line.ts';

/** The entries a command line names (all when it names none); an unknown name is a usage error with a guess. */
export function selectNamed<T extends { name: string }>(
  what: string,
  all: readonly T[],
  names: readonly string[],
): T[] {
  const known = all.map((a) => a.name);
  const unknown = names.find((name) => !known.includes(name));
  if (unknown !== undefined) {
    const guess = closest(unknown, known);
    throw new UsageError(
      `unknown ${what} ${JSON.stringify(unknown)}; ${guess ? `did you mean ${guess}? ` : ''}known: ${known.join(', ')}`,
    );
  }
  return names.length > 0 ? all.filter((a) => names.includes(a.name)) : [...all];
}
