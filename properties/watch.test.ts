import { describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { systemModel } from '../checker/model/system-model.ts';
import { initializerAccount } from '../machines/scope.ts';
import type { ApiRequest, SystemState } from '../machines/system.ts';
import { configMapList } from '../test-support/list-request.ts';
import { stepVerdict } from '../test-support/step-verdict.ts';
import { watchBeforeReady } from './watch.ts';

/**
 * IN-6 for watches (D-47): a watch, or the list it starts with, of content in a namespace not yet
 * initialized is refused to a principal not meant to hold initialize, even while nothing is stored
 * there. The verdicts are asked of the model's own answers and of a 200 put in their place.
 */
const scope = scopeByName('quick');
const model = systemModel(scope);
const [initial] = model.initialStates();
const teamA = scope.namespaces.findIndex((ns) => ns.name === 'team-a');
const teamB = scope.namespaces.findIndex((ns) => ns.name === 'team-b');
const alice = { name: 'alice', groups: ['teams@corp.com', 'system:authenticated'] };
const carol = { name: 'carol', groups: ['system:masters', 'system:authenticated'] };
const initializer = { name: initializerAccount, groups: ['system:serviceaccounts', 'system:authenticated'] };

const watch = (principal: ApiRequest['principal'], namespace: number, watching = true) =>
  configMapList(principal, namespace, watching);
const createTeamA: ApiRequest = {
  principal: alice,
  verb: 'create',
  target: 'namespace',
  namespace: teamA,
  object: -1,
};
const emptyStart = { code: 200, reason: 'OK', message: '' };

const initializing = model.handle(initial, createTeamA).state;

/** The witness on r sent in s, answered as the model does. */
const witnessed = (s: SystemState, r: ApiRequest) => {
  const test = watchBeforeReady.witness;
  if (test.on !== 'step') throw new Error('watch-before-ready has a step witness');
  const served = model.handle(s, r);
  const event = {
    actor: r.principal.name,
    actorKind: 'principal' as const,
    label: model.describeRequest(s, r),
    request: { ...r, callerMayInitialize: false, changesInitializers: false },
    namespace: r.namespace,
    transitions: [],
    response: served.response,
  };
  return test.test(model, s, event, served.state);
};

describe('watch-before-ready (IN-6, NS-7, D-47)', () => {
  it('holds where the model refuses the watch of an initializing namespace', () => {
    expect(model.view(initializing, teamA).value).toBe('initializing');
    expect(model.view(initializing, teamA).content).toBe(0);
    expect(model.handle(initializing, watch(alice, teamA)).response.code).toBe(403);
    expect(stepVerdict(model, watchBeforeReady, initializing, watch(alice, teamA))).toBe(true);
  });

  it('fails on a watch or list answered 200 with nothing in it yet', () => {
    const instead = { response: emptyStart, after: initializing };
    expect(stepVerdict(model, watchBeforeReady, initializing, watch(alice, teamA), instead)).toBe(
      'alice opened a watch of configmaps in team-a (200) before it was initialized',
    );
    expect(stepVerdict(model, watchBeforeReady, initializing, watch(alice, teamA, false), instead)).toBe(
      'alice listed configmaps in team-a (200) before it was initialized',
    );
  });

  it('leaves alone principals meant to hold initialize, initialized namespaces and watches across all', () => {
    const instead = { response: emptyStart, after: initializing };
    for (const principal of [carol, initializer])
      expect(stepVerdict(model, watchBeforeReady, initializing, watch(principal, teamA), instead)).toBe(true);
    expect(model.view(initializing, teamB).initialized).toBe(true);
    expect(stepVerdict(model, watchBeforeReady, initializing, watch(alice, teamB), instead)).toBe(true);
    expect(stepVerdict(model, watchBeforeReady, initializing, watch(alice, -1), instead)).toBe(true);
  });

  it('has a witness on the refused watch of an initializing namespace, none before it exists', () => {
    expect(witnessed(initializing, watch(alice, teamA))).toBe(true);
    expect(model.view(initial, teamA).value).toBe('absent');
    expect(witnessed(initial, watch(alice, teamA))).toBe(false);
    expect(witnessed(initializing, watch(carol, teamA))).toBe(false);
  });
});
