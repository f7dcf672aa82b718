import { isDeepStrictEqual } from 'node:util';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { systemModel } from '../checker/model/system-model.ts';
import {
  type MergeableConfiguration,
  mergeInitializerConfigurations,
  withDefaults,
} from '../machines/initializer-config.ts';
import type { Rule } from '../machines/k8s-types.ts';
import { dnsLabelErrors, isDnsLabel, isQualifiedFinalizerName } from '../machines/names.ts';
import { randomScopeArbitrary } from '../machines/random-scope.ts';
import { resourceEntryMatches, ruleMatches, validateRule } from '../machines/rules.ts';
import type { SystemModel, SystemState } from '../machines/system.ts';

const quickScope = scopeByName('quick');

/**
 * Laws of the pure parts that the machines' own tests (initializer-config, names, rbac, rules) leave
 * open, each against an independent reference or as an algebraic law: canonical state keys, the
 * first-wins policy of the merge, Rule matching against a glob reference, and invalid names.
 */

// ---------------------------------------------------------------- canonical keys

/** Everything a system state means, as plain data: what two equal states must share. */
function structure(model: SystemModel, s: SystemState) {
  const configSync = model.configSyncStepper.snapshot(s.configSync);
  return {
    configSync: { value: configSync.value, context: configSync.context },
    configReadsFailing: model.configReadsFailing(s),
    registeredConfigs: s.registeredConfigs,
    namespaces: model.views(s).map((v) => ({ ...v })),
    initializers: s.initializers.map((id) => model.initializerStepper.value(id)),
    // D-23: the cluster RBAC objects stored, in a scope that declares any (random scopes do).
    clusterObjects: s.clusterObjects,
  };
}

/** Every state a walk passes through, taking any enabled step (self-loops and fault toggles included). */
function statesAlong(model: SystemModel, choices: readonly number[]): SystemState[] {
  let state = model.initialStates()[0];
  const states = [state];
  for (const choice of choices) {
    const enabled = model.enabled(state);
    if (enabled.length === 0) break;
    state = enabled[choice % enabled.length].next;
    states.push(state);
  }
  return states;
}

const choicesArb = fc.array(fc.nat({ max: 0xffff }), { minLength: 1, maxLength: 25 });
const quickModel = systemModel(quickScope);

describe('canonical keys (checker/engine/model.ts contract)', () => {
  test.prop([choicesArb, choicesArb])(
    'two states of the quick scope have equal keys exactly when they are structurally equal',
    (first, second) => {
      const states = [...statesAlong(quickModel, first), ...statesAlong(quickModel, second)];
      const shapes = states.map((s) => structure(quickModel, s));
      const keys = states.map((s) => quickModel.key(s));
      for (let i = 0; i < states.length; i++) {
        for (let j = i + 1; j < states.length; j++) {
          expect(keys[i] === keys[j]).toBe(isDeepStrictEqual(shapes[i], shapes[j]));
        }
      }
    },
  );

  test.prop([randomScopeArbitrary, choicesArb], { numRuns: 30 })(
    'and so do states of random scopes',
    (scope, choices) => {
      const model = systemModel(scope);
      const states = statesAlong(model, choices);
      for (let i = 0; i < states.length; i++) {
        for (let j = i + 1; j < states.length; j++) {
          expect(model.key(states[i]) === model.key(states[j])).toBe(
            isDeepStrictEqual(structure(model, states[i]), structure(model, states[j])),
          );
        }
      }
    },
  );

  test.prop([choicesArb])(
    'a memoized request outcome is the one the API server computes afresh',
    (choices) => {
      const state = statesAlong(quickModel, choices).at(-1) as SystemState;
      for (const { event, next } of quickModel.enabled(state)) {
        if (!event.request || event.actorKind !== 'principal') continue;
        // handle() serves the request without perform()'s memo, which is keyed on what it reads.
        const served = quickModel.handle(state, event.request);
        expect(served.response.code, event.label).toBe(event.response?.code);
        expect(quickModel.key(served.state), event.label).toBe(quickModel.key(next));
      }
    },
  );
});

// ---------------------------------------------------------------- configuration merge (IN-1, FP-1)

const entryArb = fc.record(
  {
    name: fc.constantFrom('a.example.com', 'b.example.com', 'c.example.com', 'd.example.com'),
    failurePolicy: fc.constantFrom('Ignore' as const, 'Fail' as const),
    timeoutSeconds: fc.integer({ min: 1, max: 30 }),
  },
  { requiredKeys: ['name'] },
);
const configurationsArb: fc.Arbitrary<MergeableConfiguration[]> = fc.uniqueArray(
  fc.record({
    metadata: fc.record({ name: fc.stringMatching(/^[a-z0-9-]{1,4}$/) }),
    initializers: fc.array(entryArb, { maxLength: 4 }),
  }),
  { selector: (c) => c.metadata.name, maxLength: 5 },
);

describe('configuration merge (IN-1, FP-1, D-21)', () => {
  test.prop([configurationsArb])(
    'a name listed twice keeps the failure policy and timeout of its first listing, defaults filled in',
    (configs) => {
      // Reference: walk the configurations in byte order of their names and remember what comes first.
      const byteOrder = [...configs].sort((a, b) =>
        Buffer.compare(Buffer.from(a.metadata.name), Buffer.from(b.metadata.name)),
      );
      const firstListing = new Map<string, ReturnType<typeof withDefaults>>();
      for (const c of byteOrder)
        for (const e of c.initializers ?? [])
          if (!firstListing.has(e.name)) firstListing.set(e.name, withDefaults(e));
      expect(mergeInitializerConfigurations(configs)).toEqual([...firstListing.values()]);
    },
  );

  test.prop([configurationsArb])(
    'merging is idempotent on names: a merged list merged again as one configuration is unchanged',
    (configs) => {
      const once = mergeInitializerConfigurations(configs);
      expect(mergeInitializerConfigurations([{ metadata: { name: 'merged' }, initializers: once }])).toEqual(
        once,
      );
    },
  );
});

// ---------------------------------------------------------------- Rule matching (AC-4, D-24)

const resourceName = fc.constantFrom('pods', 'configmaps', 'deployments', 'namespaces', 'replicasets');
const subresourceName = fc.option(fc.constantFrom('log', 'scale', 'status', 'finalize', 'exec'), {
  nil: undefined,
});
const resourceEntry = fc.oneof(
  fc.constantFrom('*', '*/*'),
  resourceName,
  fc
    .tuple(
      fc.oneof(resourceName, fc.constant('*')),
      fc.oneof(fc.constantFrom('log', 'scale', 'status', 'finalize', 'exec'), fc.constant('*')),
    )
    .map(([r, s]) => `${r}/${s}`),
);

/** Reference: an entry is a glob over `resource[/subresource]`; a `*` subresource also covers the object itself. */
function globMatches(entry: string, resource: string, subresource: string | undefined): boolean {
  const [resourcePart, subresourcePart] = entry.split('/', 2);
  const resourceRe = resourcePart === '*' ? '[^/]+' : resourcePart.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const subresourceRe =
    subresourcePart === undefined ? '' : subresourcePart === '*' ? '(/[^/]+)?' : `/${subresourcePart}`;
  return new RegExp(`^${resourceRe}${subresourceRe}$`).test(
    subresource === undefined ? resource : `${resource}/${subresource}`,
  );
}

const ruleArb: fc.Arbitrary<Rule> = fc.record({
  apiGroups: fc.uniqueArray(fc.constantFrom('*', '', 'apps', 'batch'), { minLength: 1 }),
  apiVersions: fc.uniqueArray(fc.constantFrom('*', 'v1', 'v1beta1'), { minLength: 1 }),
  resources: fc.uniqueArray(resourceEntry, { minLength: 1, maxLength: 4 }),
});
const requestArb = fc.record({
  apiGroup: fc.constantFrom('', 'apps', 'batch'),
  apiVersion: fc.constantFrom('v1', 'v1beta1'),
  resource: resourceName,
  subresource: subresourceName,
});

describe('Rule matching (AC-4, D-24)', () => {
  test.prop([resourceEntry, resourceName, subresourceName])(
    'a resource entry matches as its glob reference does',
    (entry, resource, subresource) => {
      expect(resourceEntryMatches(entry, resource, subresource)).toBe(
        globMatches(entry, resource, subresource),
      );
    },
  );

  test.prop([ruleArb, requestArb])(
    'a rule matches when its group, version and any one resource entry match',
    (rule, request) => {
      const expected =
        (rule.apiGroups.includes('*') || rule.apiGroups.includes(request.apiGroup)) &&
        (rule.apiVersions.includes('*') || rule.apiVersions.includes(request.apiVersion)) &&
        rule.resources.some((entry) => globMatches(entry, request.resource, request.subresource));
      expect(ruleMatches(rule, request)).toBe(expected);
    },
  );

  test.prop([ruleArb, resourceEntry, requestArb])(
    'adding a resource entry never stops a request from matching',
    (rule, extra, request) => {
      if (ruleMatches(rule, request))
        expect(ruleMatches({ ...rule, resources: [...rule.resources, extra] }, request)).toBe(true);
    },
  );

  test.prop([ruleArb])(
    'a list holding * (in groups, versions or resources) holds nothing else, or the rule is refused',
    (rule) => {
      const crowded = (items: readonly string[], wildcard: string) =>
        items.includes(wildcard) && items.length > 1;
      if (
        crowded(rule.apiGroups, '*') ||
        crowded(rule.apiVersions, '*') ||
        crowded(rule.resources, '*') ||
        crowded(rule.resources, '*/*')
      ) {
        expect(validateRule(rule).length).toBeGreaterThan(0);
      }
    },
  );

  test.prop([ruleArb.filter((rule) => validateRule(rule).length === 0), requestArb])(
    'in a valid rule, * alone matches exactly the objects without a subresource, */* alone everything',
    (rule, request) => {
      fc.pre(rule.resources.length === 1 && (rule.resources[0] === '*' || rule.resources[0] === '*/*'));
      const groupAndVersion = ruleMatches({ ...rule, resources: ['*/*'] }, request);
      expect(ruleMatches(rule, request)).toBe(
        groupAndVersion && (rule.resources[0] === '*/*' || request.subresource === undefined),
      );
    },
  );
});

// ---------------------------------------------------------------- names (NS-1, LC-2): invalid generators

const labelChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-');

describe('invalid names (NS-1, LC-2)', () => {
  test.prop([fc.string({ unit: labelChar, minLength: 64, maxLength: 90 })])(
    'NS-1 no name longer than 63 characters is a DNS label',
    (name) => {
      expect(isDnsLabel(name)).toBe(false);
      expect(dnsLabelErrors(name).join('\n')).toContain('must be no more than 63 characters');
    },
  );

  test.prop([
    fc.string({ unit: labelChar, minLength: 1, maxLength: 20 }),
    fc.constantFrom('-', '.', 'A', '_'),
  ])(
    'NS-1 a label that starts or ends with anything but a lowercase alphanumeric is refused',
    (inner, edge) => {
      expect(isDnsLabel(`${edge}${inner}`)).toBe(false);
      expect(isDnsLabel(`${inner}${edge}`)).toBe(false);
    },
  );

  test.prop([
    fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.'), minLength: 1, maxLength: 20 }),
    fc.constantFrom('Example.com', '-example.com', 'example..com', 'EXAMPLE'),
  ])(
    'LC-2 a finalizer whose prefix is not a DNS subdomain is refused, whatever its name part',
    (namePart, prefix) => {
      expect(isQualifiedFinalizerName(`${prefix}/${namePart}`)).toBe(false);
    },
  );
});
