import type { Document, LineCounter } from 'yaml';

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
