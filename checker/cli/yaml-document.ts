import {
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  type YAMLError,
} from 'yaml';

/** How every YAML input is parsed: a key twice in one map is an error, and errors are kept short. */
export const yamlParseOptions = { uniqueKeys: true, prettyErrors: false } as const;

/** A parsed YAML input (scope or scenario) and its line table. */
export interface YamlDocument {
  doc: ReturnType<typeof parseDocument>;
  lines: LineCounter;
}

/**
 * Parses one YAML document with its lines counted. Its first syntax error, then its first unknown tag, are
 * handed to `refuse`, which throws the input's own one-line error (a scope's or a scenario's words).
 */
export function parseYamlDocument(
  text: string,
  refuse: {
    syntax: (error: YAMLError, line: number) => never;
    tag: (tag: string, line: number) => never;
  },
): YamlDocument {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, ...yamlParseOptions });
  const syntax = doc.errors[0];
  if (syntax) refuse.syntax(syntax, lines.linePos(syntax.pos[0]).line);
  const unknown = unknownTag(doc, lines);
  if (unknown) refuse.tag(unknown.tag, unknown.line);
  return { doc, lines };
}

/**
 * The first unknown YAML tag (`!foo`) of a parsed file, with its line: the YAML parser only warns about
 * one and reads the value as if untagged. `tag` is the parser's words after "Unresolved tag" (`: !foo`).
 */
export function unknownTag(doc: Document, lines: LineCounter): { line: number; tag: string } | undefined {
  const warning = doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (!warning) return undefined;
  return {
    line: lines.linePos(warning.pos[0]).line,
    tag: warning.message.split('\n')[0].replace(/^Unresolved tag/, ''),
  };
}

/** The line of `key` in the map at `mapPath`, when that map holds it. */
export function keyLine(
  { doc, lines }: YamlDocument,
  mapPath: readonly (string | number)[],
  key: string | number | undefined,
): number | undefined {
  const map = doc.getIn(mapPath, true);
  if (!isMap(map)) return undefined;
  const pair = map.items.find((item) => isScalar(item.key) && item.key.value === key);
  const node = pair?.key as Node | undefined;
  return node?.range ? lines.linePos(node.range[0]).line : undefined;
}

/** The line the node at `path` starts on (the whole document's for an empty path), when there is one. */
export function nodeLine(
  { doc, lines }: YamlDocument,
  path: readonly (string | number)[],
): number | undefined {
  const node = (path.length === 0 ? doc.contents : doc.getIn(path, true)) as Node | null | undefined;
  return node && typeof node === 'object' && 'range' in node && node.range
    ? lines.linePos(node.range[0]).line
    : undefined;
}

/** The lines of a parsed input's fields, by path: what messages and step reports point at. */
export interface DocumentLines {
  /** The line of `key` in the map at `mapPath`, when that map holds it (`keyLine`). */
  keyLine(mapPath: readonly (string | number)[], key: string | number | undefined): number | undefined;
  /** The line the node at `path` starts on (`nodeLine`). */
  nodeLine(path: readonly (string | number)[]): number | undefined;
}

/** A parsed document's lines, read from the document itself. */
export const documentLines = (parsed: YamlDocument): DocumentLines => ({
  keyLine: (mapPath, key) => keyLine(parsed, mapPath, key),
  nodeLine: (path) => nodeLine(parsed, path),
});

/**
 * The lines of a document's nodes without the document: each node's line and, for a collection, its
 * children as `getIn` finds them (a map's pairs by scalar key, in order; a list's items by index). Plain
 * data, so it can be kept between runs beside the value the document holds.
 */
export type LineTree =
  | { kind: 'scalar'; line: number | undefined }
  | {
      kind: 'map';
      line: number | undefined;
      pairs: { key: unknown; keyLine: number | undefined; value: LineTree | null }[];
    }
  | { kind: 'seq'; line: number | undefined; items: (LineTree | null)[] };

/**
 * The line tree of a document whose contents is a map of maps, lists and scalars; undefined for any
 * other (an alias, a pair inside a list, a scalar or empty document), which is then only read from itself.
 */
export function lineTreeOf({ doc, lines }: YamlDocument): LineTree | undefined {
  if (!isMap(doc.contents)) return undefined;
  const lineOf = (node: Node | null | undefined) =>
    node?.range ? lines.linePos(node.range[0]).line : undefined;
  const tree = (node: unknown): LineTree | null | undefined => {
    if (node === null || node === undefined) return null;
    if (isScalar(node)) return { kind: 'scalar', line: lineOf(node) };
    if (isMap(node)) {
      const pairs: Extract<LineTree, { kind: 'map' }>['pairs'] = [];
      for (const item of node.items) {
        if (!isPair(item)) return undefined;
        const value = tree(item.value);
        if (value === undefined) return undefined;
        // A pair whose key is no scalar is never found by a path: getIn and keyLine skip it too.
        if (isScalar(item.key)) pairs.push({ key: item.key.value, keyLine: lineOf(item.key), value });
      }
      return { kind: 'map', line: lineOf(node), pairs };
    }
    if (isSeq(node)) {
      const items: (LineTree | null)[] = [];
      for (const item of node.items) {
        if (isPair(item)) return undefined;
        const value = tree(item);
        if (value === undefined) return undefined;
        items.push(value);
      }
      return { kind: 'seq', line: lineOf(node), items };
    }
    return undefined;
  };
  return tree(doc.contents) ?? undefined;
}

/** The node at `path` of a line tree, found as the document's `getIn(path, true)` finds it. */
function treeAt(root: LineTree, path: readonly (string | number)[]): LineTree | null | undefined {
  let node: LineTree | null | undefined = root;
  for (const part of path) {
    if (!node) return undefined;
    if (node.kind === 'map') node = node.pairs.find((pair) => pair.key === part)?.value ?? undefined;
    else if (node.kind === 'seq') {
      // A list's index as YAML's own asItemIndex reads it: a number, or a string of one.
      const index = typeof part === 'string' && part ? Number(part) : part;
      node =
        typeof index === 'number' && Number.isInteger(index) && index >= 0 ? node.items[index] : undefined;
    } else return undefined;
  }
  return node;
}

/** A line tree's lines, read as `keyLine` and `nodeLine` read the document it came from. */
export const treeLines = (root: LineTree): DocumentLines => ({
  keyLine: (mapPath, key) => {
    const map = treeAt(root, mapPath);
    return map?.kind === 'map' ? map.pairs.find((pair) => pair.key === key)?.keyLine : undefined;
  },
  nodeLine: (path) => treeAt(root, path)?.line,
});
