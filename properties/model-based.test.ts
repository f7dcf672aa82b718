import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../checker/check.ts';
import { traceSteps } from '../checker/counterexample.ts';
import { judge, type Violation } from '../checker/random.ts';
import { randomScopeArbitrary } from '../machines/random-scope.ts';
import type { Scope } from '../machines/scope.ts';
import {
  defaultMachines,
  type MachineSet,
  type SystemEvent,
  SystemModel,
  type SystemState,
} from '../machines/system.ts';
import { variantByName } from '../machines/variants.ts';
import { safetyProperties } from './safety.ts';

/**
 * Model-based runs on random scopes beyond the exhaustive bound (machines/random-scope.ts). Each
 * command takes one enabled step of one kind of actor and checks one thing about that kind of step.
 * Before it moves, every property is judged on every step enabled in the current state, so the steps
 * not taken are checked too; a violation fails the run with the steps so far in the format of the
 * exhaustive counterexamples (fast-check shrinks it and prints the seed and path that replay it).
 */

const properties = safetyProperties;

type Kind = 'request' | 'controller' | 'tick' | 'fault';

const kindOf = (event: SystemEvent): Kind =>
  event.actorKind === 'principal'
    ? 'request'
    : event.actorKind === 'clock'
      ? 'tick'
      : event.actorKind === 'fault'
        ? 'fault'
        : 'controller';

/** What the commands may assume: which kinds of step are enabled, and the clock as ticks counted it. */
interface Abstract {
  enabled: Set<Kind>;
  /** Seconds passed: the model keeps only ages, so the abstract model counts them. */
  ticks: number;
}

interface Real {
  model: SystemModel;
  state: SystemState;
  trace: Trace;
}

function failureReport(real: Real, violations: Violation[]): string {
  const steps = traceSteps(real.model, real.trace);
  return [
    `${violations.map((v) => `${v.propertyId}: ${v.message}`).join('; ')} — on scope ${real.model.scope.name}, after ${steps.length} steps:`,
    ...steps.map((s, i) => `${i + 1}. ${s.actor}: ${s.event} — ${s.summary}`),
  ].join('\n');
}

/**
 * Judges every property on every step enabled here (refused requests and reads included), then takes
 * the `pick`-th enabled step of this kind and updates both sides. A violation ends the run with the
 * steps so far plus the one that broke it.
 */
function takeStep(
  kind: Kind,
  pick: number,
  model: Abstract,
  real: Real,
): { before: SystemState; event: SystemEvent; after: SystemState } {
  const before = real.state;
  const enabled = real.model.enabled(before);
  for (const { event, next } of enabled) {
    const violations = judge(real.model, properties, before, event, next);
    if (violations.length > 0) {
      real.trace.steps.push({ event, state: next });
      throw new Error(failureReport(real, violations));
    }
  }
  const options = enabled.filter((e) => kindOf(e.event) === kind);
  const { event, next } = options[pick % options.length];
  real.trace.steps.push({ event, state: next });
  real.state = next;
  model.enabled = new Set(real.model.enabled(next).map((e) => kindOf(e.event)));
  return { before, event, after: next };
}

abstract class StepCommand implements fc.Command<Abstract, Real> {
  abstract readonly kind: Kind;
  constructor(readonly pick: number) {}
  check(model: Readonly<Abstract>): boolean {
    return model.enabled.has(this.kind);
  }
  abstract run(model: Abstract, real: Real): void;
  toString(): string {
    return `${this.kind}(${this.pick})`;
  }
}

/** A principal's request: when refused, it changes nothing. */
class RequestCommand extends StepCommand {
  readonly kind = 'request';
  run(model: Abstract, real: Real): void {
    const { before, event, after } = takeStep(this.kind, this.pick, model, real);
    if ((event.response?.code ?? 200) >= 400)
      expect(real.model.key(after), event.label).toBe(real.model.key(before));
  }
}

/** A controller or API server step: it changes no namespace but the one it addresses. */
class ControllerCommand extends StepCommand {
  readonly kind = 'controller';
  run(model: Abstract, real: Real): void {
    const { before, event, after } = takeStep(this.kind, this.pick, model, real);
    before.namespaces.forEach((ns, i) => {
      if (i !== event.namespace)
        expect(after.namespaces[i], `${event.label} touched ${real.model.scope.namespaces[i].name}`).toBe(ns);
    });
  }
}

/** A clock tick: one second passes; ages grow, but no namespace changes phase, lists or content. */
class TickCommand extends StepCommand {
  readonly kind = 'tick';
  run(model: Abstract, real: Real): void {
    const { before, after } = takeStep(this.kind, this.pick, model, real);
    model.ticks += 1;
    const lasting = (s: SystemState) =>
      real.model.views(s).map((v) => [v.value, v.pending, v.finalizers, v.failure, v.content, v.external]);
    expect(lasting(after)).toEqual(lasting(before));
  }
}

/** A fault (crash, restart, failing reads): it loses timers at most, never a namespace's stored state or content. */
class FaultCommand extends StepCommand {
  readonly kind = 'fault';
  run(model: Abstract, real: Real): void {
    const { before, after } = takeStep(this.kind, this.pick, model, real);
    before.namespaces.forEach((ns, i) => {
      const { lifecycle, content, external } = after.namespaces[i];
      expect({ lifecycle, content, external }).toEqual({
        lifecycle: ns.lifecycle,
        content: ns.content,
        external: ns.external,
      });
    });
  }
}

const pickArb = fc.nat({ max: 0xffff });
const commandsArb = fc.commands(
  [
    pickArb.map((pick) => new RequestCommand(pick)),
    pickArb.map((pick) => new ControllerCommand(pick)),
    pickArb.map((pick) => new TickCommand(pick)),
    pickArb.map((pick) => new FaultCommand(pick)),
  ],
  { maxCommands: 60, size: 'max' },
);

function setup(
  scope: Scope,
  machines: (scope: Scope) => MachineSet = () => defaultMachines,
): () => { model: Abstract; real: Real } {
  return () => {
    const system = new SystemModel(scope, machines(scope));
    const [initial] = system.initialStates();
    const real: Real = { model: system, state: initial, trace: { initial, steps: [] } };
    const atStart = judge(system, properties, null, null, initial);
    if (atStart.length > 0) throw new Error(failureReport(real, atStart));
    const model: Abstract = {
      enabled: new Set(system.enabled(initial).map((e) => kindOf(e.event))),
      ticks: 0,
    };
    return { model, real };
  };
}

describe('model-based runs on random scopes (every property after every step)', () => {
  test.prop([randomScopeArbitrary, commandsArb], { numRuns: 150 })(
    'requests, controllers, the clock and faults interleave without breaking a property',
    (scope, commands) => {
      fc.modelRun(setup(scope), commands);
    },
  );

  it.each([
    ['initialize-check-skipped', 'no-access-before-ready'],
    // Bob's list across all namespaces, which a RoleBinding never grants, is the shortest catch.
    ['rolebinding-grants-cluster-wide', 'cluster-wide-as-declared'],
  ])('catch the seeded fault %s, shrunk and told as numbered steps', (name, propertyId) => {
    const variant = variantByName(name);
    const machines = variant && ((scope: Scope) => variant.machines(defaultMachines, scope));
    const result = fc.check(
      fc.property(randomScopeArbitrary, commandsArb, (scope, commands) => {
        fc.modelRun(setup(scope, machines), commands);
      }),
      { numRuns: 300, seed: 42 },
    );
    expect(result.failed).toBe(true);
    const message = String(result.errorInstance);
    expect(message).toContain(`${propertyId}: `);
    expect(message).toMatch(/\n1\. \S+: .+ — /);
  });
});
