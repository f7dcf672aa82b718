/**
 * Text from a file (a title, a user name) reaches a terminal or a Markdown page: there an escape code
 * could redraw the screen and a tag could run in a browser, so both are made inert here.
 */

/** Unicode's bidirectional embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069). */
export const isBidiControl = (code: number): boolean =>
  (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);

/** Whether `code` is a C0 or C1 control character (or DEL) other than tab, LF and CR. */
export const isControl = (code: number): boolean =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f);

/**
 * Characters that show nothing: zero-width spaces and joiners, the word joiner and invisible operators,
 * the soft hyphen, a byte order mark inside text. A name holding one looks like the name without it.
 */
export const isInvisible = (code: number): boolean =>
  code === 0xad ||
  (code >= 0x200b && code <= 0x200f) ||
  (code >= 0x2060 && code <= 0x2064) ||
  code === 0xfeff;

/** `text` with every control character but newline and tab (and every bidirectional control and invisible character) shown as `\u{..}`, so none reaches a terminal raw or hides there. */
export function terminalText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out +=
      (code !== 0x0a && code !== 0x09 && isControl(code)) || isBidiControl(code) || isInvisible(code)
        ? `\\u{${code.toString(16)}}`
        : char;
  }
  return out;
}

/** Tags the report writes itself: kept as they are. */
const ownTag = /^<\/?(details|summary|br)>/;

/**
 * Markdown in which no HTML tag or entity can start, outside code spans and fenced blocks (which show
 * their text literally): a `<` that would open a tag and a `&` that would open an entity are escaped,
 * sparing the report's own `<details>`, `<summary>` and `<br>`. Arrows such as `->` and `~>` stay as written.
 */
export function escapeMarkdownHtml(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (line.startsWith('```')) {
        fenced = !fenced;
        return line;
      }
      if (fenced) return line;
      return line
        .split(/(`[^`]*`)/)
        .map((part, i) => (i % 2 === 1 ? part : escapeOutsideOwnTags(part)))
        .join('');
    })
    .join('\n');
}

function escapeOutsideOwnTags(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const rest = text.slice(i);
    const own = text[i] === '<' ? ownTag.exec(rest) : null;
    if (own) {
      out += own[0];
      i += own[0].length - 1;
    } else if (text[i] === '<' && /^<[A-Za-z/!?]/.test(rest)) out += '&lt;';
    else if (text[i] === '&' && /^&(#\w+|[A-Za-z]\w*);/.test(rest)) out += '&amp;';
    else out += text[i];
  }
  return out;
}
