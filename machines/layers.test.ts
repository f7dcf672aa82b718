import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const machinesDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(machinesDir, '..');
/** The layers above the specification, where no HTTP answer may be decided. */
const above = ['checker', 'properties', 'scripts'];

/**
 * The rooms, lowest first (docs/layers.md). A room may import itself and the rooms below it, never one
 * above: the engine is the ground floor and wraps any model, so it imports no other room.
 */
const rooms: { name: string; folder: string }[] = [
  { name: 'engine', folder: 'checker/engine/' },
  { name: 'machines', folder: 'machines/' },
  { name: 'properties', folder: 'properties/' },
  { name: 'variants', folder: 'variants/' },
  { name: 'cli', folder: 'checker/cli/' },
  { name: 'model', folder: 'checker/model/' },
  { name: 'scenario', folder: 'checker/scenario/' },
  { name: 'judging', folder: 'checker/judging/' },
  { name: 'report', folder: 'checker/report/' },
  { name: 'scripts', folder: 'scripts/' },
];
/** Test fixtures and test helpers: no rooms; they may import anything and are drawn nowhere. */
const notRooms = ['checker/fixtures/', 'test-support/'];

/** Imports that run up a floor, each with why it stays; checked below, so an entry goes once it is not needed. */
const upward: Record<string, string> = {};

/**
 * The engine's memo plumbing, which only the checker's model (checker/model/system-model.ts) wires to the
 * specification: request outcome memos, step tables, packed keys. The generic caches of
 * checker/engine/caches.ts and read-memo.ts stay open to machines/ (docs/layers.md says why).
 */
const enginePlumbing = [
  'checker/engine/request-outcomes.ts',
  'checker/engine/step-tables.ts',
  'checker/engine/outcome-memo.ts',
];

/**
 * The caches, interning tables and key builders machines/ may hold: none. Memos, interning, step tables
 * and keys belong to the engine (checker/engine/caches.ts, read-memo.ts, step-tables.ts), which the
 * machines' pure code is wrapped in; an entry here needs a reason a reviewer accepts.
 */
const knownCaches: Record<string, string> = {};

/**
 * What the cache scan finds in a source: class fields and module constants that hold a Map or WeakMap
 * (or an array of them) made once, so outliving a call, and top-level functions named `...Key`.
 */
function cachesIn(text: string): string[] {
  const found: string[] = [];
  const field =
    /^\s+(?:(?:private|protected|public|readonly|static)\s+)+(\w+)\s*(?::\s*([^=\n]+))?=\s*(new (?:Weak)?Map\b|\[\])/gm;
  for (const m of text.matchAll(field)) if (m[3] !== '[]' || /Map</.test(m[2] ?? '')) found.push(m[1]);
  for (const m of text.matchAll(/^(?:export\s+)?const (\w+)\s*(?::[^=]+)?=\s*new (?:Weak)?Map\b/gm))
    found.push(m[1]);
  for (const m of text.matchAll(/^(?:export\s+)?(?:function (\w*Key)\b|const (\w*Key)\s*=)/gm))
    found.push(`${m[1] ?? m[2]}()`);
  return found;
}

/** Every non-test TypeScript source under a folder, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The module specifiers a file imports or re-exports, static or dynamic. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/g))
    found.push(m[1]);
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]);
  return found;
}

/** The sources' relative imports as `file -> target`, paths from the root. */
function importGraph(files: string[]): [string, string][] {
  return files.flatMap((file) =>
    specifiers(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec): [string, string] => [relative(root, file), relative(root, resolve(dirname(file), spec))]),
  );
}

const roomOf = (path: string) => rooms.find((room) => path.startsWith(room.folder));
const floorOf = (path: string) => rooms.findIndex((room) => path.startsWith(room.folder));

/** Every source of the project (tests aside), rooms and fixtures alike. */
const allSources = () =>
  [...new Set(rooms.map((room) => room.folder.split('/')[0]))].flatMap((top) => sources(join(root, top)));

/** The files that import each other in a loop, each circle as its sorted file list (Tarjan's algorithm). */
function circles(edges: [string, string][]): string[][] {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const members: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      members.push(w);
    } while (w !== v);
    if (members.length > 1 || (next.get(v) ?? []).includes(v)) found.push(members.sort());
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a.join(' ').localeCompare(b.join(' ')));
}

/** The arrows of docs/layers.md's Mermaid picture, `a --> b` between room names, and its room boxes. */
function drawnPicture(markdown: string): { arrows: string[]; dotted: string[]; boxes: Map<string, string> } {
  const block = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
  const found = [...block.matchAll(/^\s*([\w-]+)\s*(-->|-\.->)\s*([\w-]+)\s*$/gm)];
  const arrows = found.map((m) => `${m[1]} -> ${m[3]}`).sort();
  const dotted = found
    .filter((m) => m[2] === '-.->')
    .map((m) => `${m[1]} -> ${m[3]}`)
    .sort();
  const boxes = new Map([...block.matchAll(/^\s*([\w-]+)\["([^"<]+)/gm)].map((m) => [m[1], m[2].trim()]));
  return { arrows, dotted, boxes };
}

/** The room-to-room arrows the imports make: one per pair of rooms, whatever the number of imports. */
function roomArrows(edges: [string, string][]): string[] {
  const arrows = new Set<string>();
  for (const [from, to] of edges) {
    const a = roomOf(from);
    const b = roomOf(to);
    if (a && b && a !== b) arrows.add(`${a.name} -> ${b.name}`);
  }
  return [...arrows].sort();
}

/** An HTTP outcome written as data: a status code or a wire reason given a value. */
function decidesAnswer(text: string): string[] {
  return [...text.matchAll(/\b(?:code:\s*[1-5]\d\d\b|reason:\s*'[A-Z][A-Za-z]+')/g)].map((m) => m[0]);
}

describe('layers', () => {
  it('finds the specification sources it judges', () => {
    expect(sources(machinesDir).map((p) => relative(root, p))).toContain('machines/system.ts');
  });

  it('every source of the project stands in a room, and no room is left empty', () => {
    const homeless = allSources()
      .map((file) => relative(root, file))
      .filter((path) => !roomOf(path) && !notRooms.some((folder) => path.startsWith(folder)));
    expect(homeless).toEqual([]);
    const empty = rooms
      .filter((room) => sources(join(root, room.folder)).length === 0)
      .map((room) => room.name);
    expect(empty).toEqual([]);
  });

  it('the engine imports nothing outside checker/engine/: not machines/, not the model adapter', () => {
    const offending = importGraph(sources(join(root, 'checker/engine')))
      .filter(([, to]) => !to.startsWith('checker/engine/'))
      .map(([from, to]) => `${from} imports ${to}`);
    expect(offending).toEqual([]);
  });

  it("machines/ imports none of the engine's memos, step tables or key packing: the checker's model wraps it", () => {
    // checker/model/system-model.ts fits the specification to these; machines/ computes every step as written.
    const offending = importGraph(sources(machinesDir))
      .filter(([, to]) => enginePlumbing.some((file) => to === file))
      .map(([from, to]) => `${from} imports ${to}`);
    expect(offending).toEqual([]);
    expect(enginePlumbing.every((file) => existsSync(join(root, file)))).toBe(true);
  });

  it('no room imports a room above it, but for the listed exceptions', () => {
    const offending = importGraph(allSources())
      .filter(([from, to]) => roomOf(from) && roomOf(to) && floorOf(to) > floorOf(from))
      .map(([from, to]) => `${from} -> ${to}`)
      .filter((edge) => !(edge in upward));
    expect(offending).toEqual([]);
  });

  it('lists no upward exception that is no longer needed', () => {
    const edges = new Set(importGraph(allSources()).map(([from, to]) => `${from} -> ${to}`));
    expect(Object.keys(upward).filter((edge) => !edges.has(edge))).toEqual([]);
  });

  it('no files import each other in a loop', () => {
    expect(circles(importGraph(allSources())).map((members) => members.join(' '))).toEqual([]);
  });

  it('the circle scan finds a loop of two files and one of three', () => {
    expect(
      circles([
        ['a', 'b'],
        ['b', 'a'],
        ['c', 'd'],
        ['d', 'e'],
        ['e', 'c'],
        ['e', 'f'],
      ]),
    ).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('machines/ holds no memo, step table or key builder but the listed ones, each of which still stands', () => {
    const found = sources(machinesDir).flatMap((file) =>
      cachesIn(readFileSync(file, 'utf8')).map((name) => `${relative(root, file)}: ${name}`),
    );
    // A failure names a new cache (move it to checker/engine/, keyed by what it reads) or a listed one gone.
    expect({
      unlisted: found.filter((entry) => !(entry in knownCaches)),
      gone: Object.keys(knownCaches).filter((entry) => !found.includes(entry)),
    }).toEqual({ unlisted: [], gone: [] });
    // The engine's memos are not copied back: no source of machines/ is named for a memo or table.
    expect(
      sources(machinesDir)
        .map((p) => relative(root, p))
        .filter((p) => /(memo|tables?)\.ts$/.test(p)),
    ).toEqual([]);
  });

  it('the cache scan sees a memo field, a table of maps, a module cache and a key builder', () => {
    const text = [
      'class A {',
      '  private readonly memo = new Map<string, number>();',
      '  private readonly tables: Map<number, { a: 1; b: 2 }>[] =',
      '    [];',
      '  readonly plain: number[] = [];',
      '}',
      'const cache = new WeakMap<object, number>();',
      'function pipelineKey(f: Facts): string {',
      '  const local = new Map();',
    ].join('\n');
    expect(cachesIn(text)).toEqual(['memo', 'tables', 'cache', 'pipelineKey()']);
  });

  it("docs/layers.md draws every room with its folder and exactly the imports' room-to-room arrows", () => {
    const drawn = drawnPicture(readFileSync(join(root, 'docs/layers.md'), 'utf8'));
    expect(Object.fromEntries(drawn.boxes)).toEqual(Object.fromEntries(rooms.map((r) => [r.name, r.folder])));
    const real = roomArrows(importGraph(allSources()));
    // A failure names the arrows to add to the picture (missing) or to take out of it (extra).
    expect({
      missing: real.filter((a) => !drawn.arrows.includes(a)),
      extra: drawn.arrows.filter((a) => !real.includes(a)),
    }).toEqual({
      missing: [],
      extra: [],
    });
    // Dotted arrows are exactly the room pairs an upward exception joins.
    const up = [
      ...new Set(
        Object.keys(upward).map((edge) =>
          edge
            .split(' -> ')
            .map((p) => roomOf(p)!.name)
            .join(' -> '),
        ),
      ),
    ];
    expect(drawn.dotted).toEqual(up.sort());
  });

  it('no HTTP answer is decided outside machines/: no status literal, no wire reason, no response builder', () => {
    const offending = above
      .flatMap((layer) => sources(join(root, layer)))
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        const builds = specifiers(text).some((spec) => /machines\/(http|storage)\.ts$/.test(spec));
        return [...decidesAnswer(text), ...(builds ? ['imports a response builder'] : [])].map(
          (what) => `${relative(root, file)}: ${what}`,
        );
      });
    expect(offending).toEqual([]);
  });

  it('the answer scan sees a decided status and reason when there is one', () => {
    expect(decidesAnswer("const r = { code: 403, reason: 'Forbidden' };")).toEqual([
      'code: 403',
      "reason: 'Forbidden'",
    ]);
    expect(decidesAnswer('if (response.code >= 400) return;')).toEqual([]);
  });

  it('the import scan sees a forbidden import when there is one', () => {
    expect(
      specifiers("import type { X } from '../checker/engine/model.ts';\nexport { y } from './y.ts';"),
    ).toEqual(['../checker/engine/model.ts', './y.ts']);
  });

  it('the circle finder sees a loop when there is one, and none in a chain', () => {
    expect(
      circles([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
      ]),
    ).toEqual([['a', 'b', 'c']]);
    expect(
      circles([
        ['a', 'b'],
        ['b', 'c'],
      ]),
    ).toEqual([]);
  });

  it('the picture reader sees boxes and arrows, and room arrows fold many imports into one', () => {
    const drawn = drawnPicture(
      '```mermaid\nflowchart TB\n  cli["checker/cli/<br/>x"]\n  cli --> engine\n  cli -.-> model\n```\n',
    );
    expect(drawn.arrows).toEqual(['cli -> engine', 'cli -> model']);
    expect(drawn.dotted).toEqual(['cli -> model']);
    expect(drawn.boxes.get('cli')).toBe('checker/cli/');
    expect(
      roomArrows([
        ['checker/cli/a.ts', 'checker/engine/b.ts'],
        ['checker/cli/c.ts', 'checker/engine/d.ts'],
        ['checker/cli/a.ts', 'checker/cli/c.ts'],
      ]),
    ).toEqual(['cli -> engine']);
  });
});
