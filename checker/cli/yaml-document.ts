import { type Document, isMap, isScalar, LineCounter, type Node, parseDocument, type YAMLError } from 'yaml';

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
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
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
