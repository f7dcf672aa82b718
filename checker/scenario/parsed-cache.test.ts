import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { documentLines, lineTreeOf, parseYamlDocument, treeLines } from '../cli/yaml-document.ts';
import { projectRoot } from './catalog.ts';
import { type LoadedScenario, loadScenario, type ScenarioFileError } from './load.ts';
import { ParsedTextCache } from './parsed-cache.ts';

/**
 * The committed scenarios' parsed YAML kept between runs: a line tree answers every path as the YAML
 * document's own `getIn` does, and a scenario loaded from the cache is the one parsed from its text.
 */
const folder = join(projectRoot, 'scenarios');
const committed = readdirSync(folder)
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => ({ name, text: readFileSync(join(folder, name), 'utf8') }));

const refuse = {
  syntax: (): never => {
    throw new Error('syntax');
  },
  tag: (): never => {
    throw new Error('tag');
  },
};

/** Documents shaped unlike the committed ones: keys that are numbers, null or empty values, nested lists. */
const crafted = [
  'a: 1\n1: one\n"1": quoted one\nnull: nothing\nempty:\nlist:\n  - \n  - [x, [y, z]]\n  - { k: v, n: }\n',
  'top:\n  ? [complex, key]\n  : ignored\n  plain: yes\nsteps: []\nflow: {a: [1, 2], b: {c: d}}\n',
  'x: |\n  block\n  text\ny: >-\n  folded\nz: !!str 12\npairs: [a: 1, b]\n',
];

/** Every path into a document, and paths beside them that lead nowhere or are spelled otherwise. */
function pathsOf(node: unknown, prefix: (string | number)[], into: (string | number)[][]): void {
  into.push(
    prefix,
    [...prefix, 'missing'],
    [...prefix, 99],
    [...prefix, -1],
    [...prefix, ''],
    [...prefix, '0'],
  );
  if (isMap(node))
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key === 'string' || typeof key === 'number') pathsOf(pair.value, [...prefix, key], into);
    }
  if (isSeq(node))
    node.items.forEach((item, index) => {
      pathsOf(item as Node, [...prefix, index], into);
      into.push([...prefix, String(index)]);
    });
}

describe("a document's line tree", () => {
  it.each([
    ...committed.map((c) => [c.name, c.text] as const),
    ...crafted.map((text, i) => [`crafted ${i}`, text] as const),
  ])('%s: answers every path as the document does', (_name, text) => {
    const parsed = parseYamlDocument(text, refuse);
    const tree = lineTreeOf(parsed);
    expect(tree).toBeDefined();
    const fromDocument = documentLines(parsed);
    const fromTree = treeLines(structuredClone(tree!));
    const paths: (string | number)[][] = [];
    pathsOf(parsed.doc.contents, [], paths);
    let found = 0;
    for (const path of paths) {
      expect(fromTree.nodeLine(path), JSON.stringify(path)).toBe(fromDocument.nodeLine(path));
      if (fromDocument.nodeLine(path) !== undefined) found++;
      for (const key of ['missing', 0, 1, 'a', 'steps', 'x', undefined])
        expect(fromTree.keyLine(path, key), JSON.stringify([path, key])).toBe(
          fromDocument.keyLine(path, key),
        );
      const last = path.at(-1);
      if (last !== undefined)
        expect(fromTree.keyLine(path.slice(0, -1), last)).toBe(fromDocument.keyLine(path.slice(0, -1), last));
    }
    expect(found).toBeGreaterThan(3);
  });

  it('is not made for a document it could not answer for: aliases, a scalar or empty document, a list', () => {
    for (const text of ['a: &x [1]\nb: *x\n', 'just text\n', '', '- a\n- b\n'])
      expect(lineTreeOf(parseYamlDocument(text, refuse)), text).toBeUndefined();
  });
});

describe('scenarios loaded through the parsed-text cache', () => {
  const scratch = useTempDir('parsed-cache', { fresh: true });
  const comparable = (s: LoadedScenario) => ({
    header: s.header,
    steps: s.steps,
    manifests: s.manifests,
    lines: s.steps.map((_, i) => [s.lineOf(['steps', i]), s.lineOf(['steps', i, 'expect'])]),
  });

  /** A cache file of its own where one run has loaded every committed scenario. */
  const savedWithEveryScenario = (): string => {
    const path = join(scratch(), 'cache.bin');
    const first = new ParsedTextCache(path);
    for (const c of committed) loadScenario(c.name, c.text, first);
    first.save();
    return path;
  };

  it('are the scenarios parsed from their text, read back by the next run', () => {
    const path = savedWithEveryScenario();
    const second = new ParsedTextCache(path);
    for (const c of committed) {
      expect(second.lookup(c.text), c.name).toBeDefined();
      expect(comparable(loadScenario(c.name, c.text, second)), c.name).toEqual(
        comparable(loadScenario(c.name, c.text)),
      );
    }
  });

  it("keep the other files' parses when a run reads only some files and parses an edited one", () => {
    const path = savedWithEveryScenario();
    const partial = new ParsedTextCache(path);
    const edited = `${committed[0].text}\n# edited\n`;
    loadScenario(committed[0].name, edited, partial);
    partial.save();
    const third = new ParsedTextCache(path);
    expect(third.lookup(edited)).toBeDefined();
    for (const c of committed) expect(third.lookup(c.text), c.name).toBeDefined();
  });

  it('refuse a bad file with the same line and words, and never serve a text that changed', () => {
    const path = join(scratch(), 'cache.bin');
    const bad = committed[0].text.replace(/^steps:\n/m, 'steps:\n  - tick: many\n');
    const message = (cache?: ParsedTextCache) => {
      try {
        loadScenario('bad.yaml', bad, cache);
      } catch (error) {
        return (error as ScenarioFileError).message;
      }
      throw new Error('loaded');
    };
    const expected = message();
    expect(expected).toMatch(/^bad\.yaml:\d+: steps\[0\]\.tick: /);
    const first = new ParsedTextCache(path);
    expect(message(first)).toBe(expected);
    first.save();
    const second = new ParsedTextCache(path);
    expect(second.lookup(bad)).toBeDefined();
    expect(message(second)).toBe(expected);
    expect(second.lookup(`${bad}\n# edited\n`)).toBeUndefined();
  });

  it('parses every text again when its file is cut short or unreadable', () => {
    const path = join(scratch(), 'cache.bin');
    writeFileSync(path, 'not a cache');
    const cache = new ParsedTextCache(path);
    expect(cache.lookup(committed[0].text)).toBeUndefined();
    expect(comparable(loadScenario('a.yaml', committed[0].text, cache))).toEqual(
      comparable(loadScenario('a.yaml', committed[0].text)),
    );
  });
});
