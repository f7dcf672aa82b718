import { readFileSync } from 'node:fs';
import { parseScope } from '../checker/cli/scope-file.ts';
import type { Scope } from '../machines/scope.ts';

/** The two-tenant symmetry fixture, as declared. */
export const twoTenantsFixture = 'checker/fixtures/symmetry/two-tenants.yaml';

/** The fixture where each tenant may also create the other's namespace: who created which varies between states. */
export function twoTenantsCrossed(): Scope {
  const text = readFileSync(twoTenantsFixture, 'utf8')
    .replace(
      'namespaces: [team-a]\n    requests: [create-namespace,',
      'namespaces: [team-a, team-c]\n    requests: [create-namespace,',
    )
    .replace(
      'namespaces: [team-c]\n    requests: [create-namespace,',
      'namespaces: [team-c, team-a]\n    requests: [create-namespace,',
    );
  if (!text.includes('namespaces: [team-c, team-a]'))
    throw new Error(`${twoTenantsFixture} changed: no crossed creates`);
  return parseScope(text, twoTenantsFixture);
}
