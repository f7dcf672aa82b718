import { phaseOf } from '../../machines/namespace.ts';
import type { NamespaceView, SystemModel, SystemState } from '../../machines/system.ts';

/** A system state as named facts a reviewer reads: `team-a.phase = Initializing`, ... (time only as ages). */
export function stateFacts(model: SystemModel, s: SystemState): Map<string, string> {
  const facts = new Map<string, string>();
  const since = model.secondsSinceConfigRead(s);
  facts.set(
    'admission configuration',
    `${model.configurationFresh(s) ? 'fresh' : 'stale'} (last read ${since === 0 ? 'this second' : `${since}s ago`})`,
  );
  facts.set('configuration reads', model.configReadsFailing(s) ? 'failing' : 'working');
  facts.set(
    'configurations stored',
    JSON.stringify(
      model.scope.configurations.filter((_, k) => s.registeredConfigs & (1 << k)).map((c) => c.name),
    ),
  );
  model.initializers.forEach((spec, k) => {
    facts.set(`${spec.name} controller`, String(model.initializerStepper.value(s.initializers[k])));
  });
  model.views(s).forEach((v) => {
    for (const [key, value] of namespaceFacts(model, v)) facts.set(`${v.name}.${key}`, value);
  });
  return facts;
}

function namespaceFacts(model: SystemModel, v: NamespaceView): [string, string][] {
  const content = model.objects.filter((_, k) => v.content & (1 << k)).map((o) => `${o.resource}/${o.name}`);
  const external = model.scope.finalizerOwners.filter((_, k) => v.external & (1 << k));
  const facts: [string, string][] = [];
  const exists = v.value !== 'absent' && v.value !== 'removed';
  facts.push(['exists', exists ? 'yes' : v.value === 'removed' ? 'no (removed)' : 'no']);
  if (exists) {
    facts.push(['phase', phaseOf(v.value) ?? '-']);
    facts.push(['pending', JSON.stringify(v.pending)]);
    facts.push(['finalizers', JSON.stringify(v.finalizers)]);
    facts.push(['result', v.failure ? `Failure (${v.failure.reason})` : 'none']);
    facts.push([
      'deletionTimestamp',
      v.deletedSecondsAgo === null ? 'unset' : v.deletedSecondsAgo === 0 ? 'set this second' : 'set earlier',
    ]);
    facts.push([
      'initializer timer',
      v.failOpenTimer
        ? `${v.failOpenTimer.initializer}, ${v.failOpenTimer.ageSeconds}s old`
        : v.timerLost
          ? 'lost (apiserver restarted)'
          : 'none',
    ]);
  }
  facts.push(['content', JSON.stringify(content)]);
  facts.push(['external content', JSON.stringify(external)]);
  return facts;
}

/** Only what changed between two states, as `fact: before → after` lines. */
export function stateDiff(model: SystemModel, before: SystemState, after: SystemState): string[] {
  const a = stateFacts(model, before);
  const b = stateFacts(model, after);
  const lines: string[] = [];
  for (const [key, value] of b) {
    const old = a.get(key);
    if (old !== value) lines.push(`${key}: ${old ?? '-'} → ${value}`);
  }
  return lines;
}
