import { exitCodes, isEntryPoint, UsageError } from '../checker/cli/cli.ts';
import { loadScopeFile, scopeFileOf, scopeNames } from '../checker/cli/scope-file.ts';
import { systemModel } from '../checker/model/system-model.ts';
import { type CommandLine, defineCommand } from './entry.ts';

/**
 * `npm run scopes -- [FILE]...`: checks scope files without exploring them. The files under scopes/
 * are the only source of the built-in scopes, so an edit is checked here in a second, not by a search.
 */
export const command = {
  script: 'scopes',
  summary:
    'Checks that every built-in scope file (scopes/*.yaml), or each FILE given, loads and builds a model; explores nothing.',
  options: {},
  positionals: {
    usage: '[FILE]...',
    description: 'scope files to check (default: every file under scopes/)',
  },
} as const;

function checkOne(path: string, shown: string): string {
  const scope = loadScopeFile(path, shown);
  try {
    const model = systemModel(scope);
    return `scopes: ${shown}: ${scope.name}: ${scope.namespaces.length} namespaces, ${scope.principals.length} users, ${scope.configurations.length} configurations, ${model.initialStates().length} initial state(s)`;
  } catch (error) {
    throw new UsageError(
      `scopes: ${shown} is a valid scope file but the model cannot be built from it: ${(error as Error).message}`,
    );
  }
}

if (isEntryPoint(import.meta.url))
  await defineCommand(command, ({ positionals }: CommandLine<typeof command.options>) => {
    const files =
      positionals.length > 0
        ? positionals.map((path) => ({ path, shown: path }))
        : scopeNames().map((name) => ({ path: scopeFileOf(name), shown: `scopes/${name}.yaml` }));
    for (const { path, shown } of files) console.log(checkOne(path, shown));
    return exitCodes.ok;
  });
