import { join } from 'node:path';
import type { CommandSpec } from '../checker/cli.ts';
import { exitCodes } from '../checker/cli.ts';
import { writeFileAtomic } from '../checker/fs-atomic.ts';
import { scopesFolder } from '../checker/scope-file.ts';
import { scopeToYaml } from '../checker/scope-yaml.ts';
import { scopes } from '../machines/scopes.ts';
import { runEntry } from './entry.ts';

/**
 * `npm run scopes`: writes scopes/NAME.yaml for every scope of machines/scopes.ts, so the files every
 * command reads say what the TypeScript says (checker/scope-yaml.test.ts proves they load back equal).
 */
const spec: CommandSpec = {
  name: 'npm run scopes --',
  summary: 'Writes scopes/NAME.yaml for every built-in scope of machines/scopes.ts.',
  options: {},
  exitCodes: [exitCodes.ok, exitCodes.internal, exitCodes.usage],
};

void runEntry(spec, 'scopes', async () => {
  for (const scope of Object.values(scopes)) {
    const file = join(scopesFolder, `${scope.name}.yaml`);
    await writeFileAtomic(file, scopeToYaml(scope));
    console.log(`scopes: wrote scopes/${scope.name}.yaml`);
  }
  return exitCodes.ok;
});
