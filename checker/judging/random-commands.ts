import fc from 'fast-check';
import type { RequestCommand } from '../../machines/commands.ts';
import { expandTemplate } from '../../machines/requests.ts';
import type { ObjectSlot, PrincipalSpec, RequestTemplate, Scope } from '../../machines/scope.ts';

/**
 * The scope's request commands as fast-check arbitraries, composed from small named pieces: which
 * principal sends, which kind of request (one of its templates), which namespace, which object. Every
 * command drawn is one `expandTemplate` builds for the exhaustive search and replay, so a random run
 * sends exactly the requests the search explores, never one the scope does not grant.
 */

/** A principal's templates with the commands each stands for, templates that address nothing left out. */
interface Sendable {
  principal: PrincipalSpec;
  templates: { template: RequestTemplate; commands: RequestCommand[] }[];
}

function sendable(scope: Scope, objects: readonly ObjectSlot[]): Sendable[] {
  return scope.principals
    .map((principal) => ({
      principal,
      templates: principal.requests
        .map((template) => ({ template, commands: expandTemplate(scope, objects, template, principal) }))
        .filter((t) => t.commands.length > 0),
    }))
    .filter((p) => p.templates.length > 0);
}

/** Which principal sends. */
const principalArb = (senders: readonly Sendable[]): fc.Arbitrary<Sendable> => fc.constantFrom(...senders);

/** Which kind of request: one of the principal's templates. */
const kindArb = (sender: Sendable): fc.Arbitrary<RequestCommand[]> =>
  fc.constantFrom(...sender.templates).map((t) => t.commands);

/** Which namespace (-1: cluster-wide): one the template addresses. */
const namespaceArb = (commands: readonly RequestCommand[]): fc.Arbitrary<number> =>
  fc.constantFrom(...new Set(commands.map((c) => c.data.namespace)));

/** Which object (content slot, resource or initializer name): one of the template's commands into that namespace. */
const objectArb = (commands: readonly RequestCommand[], namespace: number): fc.Arbitrary<RequestCommand> =>
  fc.constantFrom(...commands.filter((c) => c.data.namespace === namespace));

/** A request command of the scope; none when no principal of the scope sends any. */
export function requestCommandArb(
  scope: Scope,
  objects: readonly ObjectSlot[],
): fc.Arbitrary<RequestCommand> | null {
  const senders = sendable(scope, objects);
  if (senders.length === 0) return null;
  return principalArb(senders)
    .chain(kindArb)
    .chain((commands) => namespaceArb(commands).chain((namespace) => objectArb(commands, namespace)));
}
