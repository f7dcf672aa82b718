import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMachines } from '../../machines/system.ts';
import { type Variant, variantByName } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { systemModel } from '../model/system-model.ts';
import {
  type MutantResult,
  mutantProperties,
  mutantsJson,
  mutantsJsonPath,
  mutantsMarkdown,
  mutantsMarkdownPath,
  mutantsStamp,
  runMutant,
  shortestKill,
  writeMutants,
} from './mutants.ts';
import { sourceRoot, stampSources } from './stamp.ts';

const quickScope = scopeByName('quick');

const mutant = (name: string): Variant => {
  const variant = variantByName(name);
  if (!variant) throw new Error(`no mutant ${name}`);
  return variant;
};

/** A "fault" that changes nothing: no property can kill it. */
const harmless: Variant = {
  name: 'harmless',
  kind: 'mutant',
  description: 'Changes nothing at all.',
  requirements: ['IN-1'],
  machines: (base) => base,
};

describe('shortestKill', () => {
  it('finds nothing on the model as written, and says when the bound cut the search', () => {
    const result = shortestKill(systemModel(quickScope), mutantProperties, { maxStates: 500 });
    expect(result).toEqual({ kill: null, statesExplored: 500, complete: false, violated: [] });
  });

  it('looks past the first kill to the horizon, recording each property at its own shortest length', () => {
    const model = systemModel(
      quickScope,
      mutant('create-in-terminating').machines(defaultMachines, quickScope),
    );
    const near = shortestKill(model, mutantProperties, { horizonSteps: 0 }).kill;
    const far = shortestKill(model, mutantProperties, { horizonSteps: 2 }).kill;
    expect(near?.brokenWithin).toEqual({ 'no-create-in-terminating': 3 });
    expect(far?.brokenWithin).toEqual({ 'no-create-in-terminating': 3, 'no-orphans': 5 });
    // The reported counterexample is the shortest, whatever the horizon.
    expect(far?.trace.steps.map((s) => s.event.label)).toEqual(near?.trace.steps.map((s) => s.event.label));
    expect(far?.violations.map((v) => v.propertyId)).toEqual(['no-create-in-terminating']);
  });
});

describe('runMutant', () => {
  it('kills by exhaustive search on the default scope when it can', () => {
    const result = runMutant(mutant('initialize-check-skipped'), { horizonSteps: 0 });
    expect(result).toMatchObject({
      search: 'exhaustive',
      scope: 'default',
      killedBy: ['no-access-before-ready'],
    });
    expect(result.counterexampleSteps.map((s) => s.actor)).toEqual(['alice', 'ci-robot']);
  });

  it('walks random scopes when the exhaustive search finds nothing, and reports how to replay the walk', () => {
    const result = runMutant(mutant('initialize-check-skipped'), { maxStates: 1, randomRuns: 200 });
    expect(result.search).toBe('random');
    expect(result.scope).toMatch(/^random-\d+$/);
    expect(result.killedBy).toContain('no-access-before-ready');
    expect(result.replay?.path).toMatch(/^\d+(:\d+)*$/);
  });

  it('reports a mutant nobody kills as survived', () => {
    const result = runMutant(harmless, { maxStates: 300, randomScopeSeeds: [1], randomRuns: 5 });
    expect(result).toMatchObject({ search: 'none', killedBy: [], counterexampleSteps: [] });
    const markdown = mutantsMarkdown([result]);
    expect(markdown).toContain('**0 of 1 mutants killed.**');
    expect(markdown).toContain('**survived**');
  });
});

describe('the generated files', () => {
  const results: MutantResult[] = [runMutant(mutant('pending-grows-after-active'), { horizonSteps: 0 })];

  it('hold, per mutant, its name, description, killing properties and counterexample steps', () => {
    const file = JSON.parse(mutantsJson(results));
    // The file names its schema from generated/, then lists the mutants.
    expect(Object.keys(file)).toEqual(['$schema', 'mutants']);
    expect(file.$schema).toBe('../schemas/mutants.schema.json');
    const [entry] = file.mutants;
    expect(entry).toMatchObject({
      mutant: 'pending-grows-after-active',
      description: expect.any(String),
      killedBy: ['initialized-is-forever'],
    });
    for (const step of entry.counterexampleSteps)
      expect(Object.keys(step).sort()).toEqual(['actor', 'event', 'summary']);
  });

  it('show which property killed which mutant, with numbered steps', () => {
    const markdown = mutantsMarkdown(results);
    expect(markdown).toContain(
      '| [`pending-grows-after-active`](#pending-grows-after-active) | IN-4 | `initialized-is-forever` | exhaustive (default) | 2 |',
    );
    expect(markdown).toMatch(/\n1\. \*\*carol\*\*: POST \/api\/v1\/namespaces \(team-a\)/);
    expect(markdown).toContain('No mutant breaks');
  });

  it('are written whole under the given folder', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'nsmodel-mutants-'));
    try {
      const sources = stampSources(sourceRoot, mutantsStamp);
      expect(await writeMutants(folder, results, sources)).toEqual([
        mutantsJsonPath,
        mutantsMarkdownPath,
        mutantsStamp.file,
      ]);
      expect(await readFile(join(folder, mutantsJsonPath), 'utf8')).toBe(mutantsJson(results));
      expect(await readFile(join(folder, mutantsMarkdownPath), 'utf8')).toBe(mutantsMarkdown(results));
      // The stamp names both tables and the sources they came from, so check:generated can judge them.
      const stamp = JSON.parse(await readFile(join(folder, mutantsStamp.file), 'utf8'));
      expect(Object.keys(stamp.outputs)).toEqual([mutantsJsonPath, mutantsMarkdownPath]);
      expect(stamp.sources).toEqual(sources.sources);
      expect(Object.keys(stamp.sources)).toContain('variants/variants.ts');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
