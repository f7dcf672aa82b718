import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  statSync,
} from 'node:fs';
import { entryKind } from './fs-atomic.ts';
import { isBidiControl, isControl } from './text-safety.ts';

/**
 * Every input file (scope, scenario, ITF trace) is read here: a regular file only, its size capped
 * before a byte is read, its bytes decoded as UTF-8 or refused with the encoding they look like.
 * Each refusal is one line: `FILE:LINE: PROBLEM; fix: FIX`.
 */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${file}:${line}: ${problem}; fix: ${fix}`);
  }
}

/** The caps: a scope or scenario is a page of YAML, a counterexample a few thousand states. */
export const inputCaps = { scope: 1_000_000, scenario: 1_000_000, trace: 32_000_000 } as const;

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;

/** The file's bytes, or an InputFileError for anything but a regular file of at most `maxBytes`. */
export function readInputBytes(file: string, maxBytes: number): Buffer {
  const refuse = (problem: string, fix: string): never => {
    throw new InputFileError(file, 1, problem, fix);
  };
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      return refuse(
        'is a symbolic link loop (a link that leads back to itself)',
        'point the link at a real file',
      );
    if (code === 'ENOENT') {
      const dangling = (() => {
        try {
          return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
        } catch {
          return undefined;
        }
      })();
      if (dangling !== undefined)
        return refuse(
          `is a symbolic link to ${dangling}, which does not exist`,
          'point the link at a real file',
        );
      return refuse('no such file', 'check the path');
    }
    if (code === 'EACCES') return refuse('cannot be read (permission denied)', 'make it readable');
    if (code === 'ENOTDIR') return refuse('a part of the path is not a folder', 'check the path');
    return refuse(`cannot be read (${code ?? String(error)})`, 'check the path');
  }
  if (info.isDirectory()) return refuse('is a folder, not a file', 'name a file inside it');
  if (info.isFIFO())
    return refuse(
      'is a FIFO (named pipe): reading it may wait forever',
      'save the content to a regular file first',
    );
  if (info.isCharacterDevice() || info.isBlockDevice())
    return refuse(
      `is ${entryKind(info)}, whose content may never end`,
      'save the content to a regular file first',
    );
  if (!info.isFile()) return refuse(`is ${entryKind(info)}, not a regular file`, 'give a regular file');
  const tooLarge = (size: string) =>
    refuse(
      `is ${size}, more than the ${megabytes(maxBytes)} an input may hold`,
      'give a smaller file; is it the right one?',
    );
  if (info.size > maxBytes) return tooLarge(megabytes(info.size));
  // O_NONBLOCK: if the path was swapped for a FIFO after the check, opening it still returns at once.
  const handle = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(handle).isFile())
      return refuse('changed into something other than a regular file while read', 'retry');
    // Read to the end, one byte past the cap at most: a file that grew after the check, or one that
    // reports no size (a /proc file), is still refused past the cap, never read whole nor cut short.
    let buffer = Buffer.alloc((info.size === 0 ? maxBytes : Math.min(maxBytes, info.size)) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return tooLarge(`over ${megabytes(maxBytes)}`);
        const grown = Buffer.alloc(maxBytes + 1);
        buffer.copy(grown);
        buffer = grown;
      }
      const read = readSync(handle, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(handle);
  }
}

/** The line (from 1) of byte offset `offset`. */
function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    for (let k = 1; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    // Overlong forms and surrogates, as the WHATWG decoder refuses them.
    if (b === 0xe0 && bytes[i + 1] < 0xa0) return i;
    if (b === 0xed && bytes[i + 1] > 0x9f) return i;
    if (b === 0xf0 && bytes[i + 1] < 0x90) return i;
    if (b === 0xf4 && bytes[i + 1] > 0x8f) return i;
    i += length;
  }
  return -1;
}

const hex = (byte: number) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** The text of UTF-8 `bytes` (a UTF-8 byte order mark is dropped), or an InputFileError naming the encoding seen. */
export function decodeInput(file: string, bytes: Uint8Array): string {
  const refuse = (line: number, problem: string, fix: string): never => {
    throw new InputFileError(file, line, problem, fix);
  };
  const starts = (...prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xfe, 0, 0) || starts(0, 0, 0xfe, 0xff))
    refuse(1, 'the file is UTF-32 (it starts with a UTF-32 byte order mark)', 'save it as UTF-8');
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff))
    refuse(
      1,
      `the file is UTF-16 (${bytes[0] === 0xff ? 'little' : 'big'}-endian byte order mark)`,
      'save it as UTF-8',
    );
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    // Every other byte NUL: UTF-16 text without a byte order mark.
    const wide =
      bytes.length >= 4 &&
      (bytes[1] === 0 || bytes[0] === 0) &&
      bytes.filter((b) => b === 0).length * 3 >= bytes.length;
    refuse(
      lineAt(bytes, nul),
      wide
        ? 'the file looks like UTF-16 without a byte order mark (every other byte is NUL)'
        : `a NUL byte (at byte ${nul}): this is not a text file`,
      wide ? 'save it as UTF-8' : 'remove the NUL byte, or give the text file meant',
    );
  }
  const invalid = firstInvalidUtf8(bytes);
  if (invalid >= 0) {
    const b = bytes[invalid];
    refuse(
      lineAt(bytes, invalid),
      `byte ${hex(b)} at byte ${invalid} is not UTF-8 (latin-1 or Windows-1252 text?)`,
      'save the file as UTF-8',
    );
  }
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  checkInputText(file, text);
  return text;
}

/**
 * Refuses text a YAML or JSON reader would take in a way its author did not mean: line ends of a lone
 * CR (the whole file would be one line) and control characters, which would reach a terminal raw.
 */
export function checkInputText(file: string, text: string): void {
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const lone = text.search(/\r(?!\n)/);
  if (lone >= 0) {
    const crOnly = !text.includes('\n');
    throw new InputFileError(
      file,
      lineOf(lone),
      crOnly
        ? 'the lines end with CR alone (classic Mac line ends), so the file reads as one line'
        : 'a line ends with CR alone',
      'convert the line ends to LF (or CRLF)',
    );
  }
  // Tab, LF and CR are YAML's and JSON's whitespace; every other C0 or C1 control character (and DEL) is refused.
  const control = firstControl(text);
  if (control >= 0) {
    const code = text.charCodeAt(control).toString(16).toUpperCase().padStart(4, '0');
    throw new InputFileError(
      file,
      lineOf(control),
      `control character U+${code} in the text (an escape code would reach the terminal)`,
      'remove it; write a visible character instead',
    );
  }
  // Bidirectional overrides and isolates show text in another order than it is read (CVE-2021-42574).
  const bidi = [...text].findIndex((char) => isBidiControl(char.codePointAt(0) ?? 0));
  if (bidi >= 0) {
    const index = [...text].slice(0, bidi).join('').length;
    const code = text.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0');
    throw new InputFileError(
      file,
      lineOf(index),
      `bidirectional control character U+${code} in the text (it shows the text in another order than it is read)`,
      'remove it; write the text in the order it is meant',
    );
  }
}

/** The index of the first control character of `text` that isControl refuses, or -1. */
function firstControl(text: string): number {
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) return i;
  return -1;
}

/** Reads a text input file: regular, capped, UTF-8. */
export function readInputText(file: string, maxBytes: number): string {
  return decodeInput(file, readInputBytes(file, maxBytes));
}

/**
 * The first place of `data`, depth first, where `atValue` finds something in a value or `atKey` in a map's
 * key (a key is looked at before its value), with its path.
 */
function firstInData<T>(
  data: unknown,
  path: (string | number)[],
  atValue: (value: unknown) => T | undefined,
  atKey: (key: string) => T | undefined = () => undefined,
): { path: (string | number)[]; found: T } | undefined {
  const here = atValue(data);
  if (here !== undefined) return { path, found: here };
  if (Array.isArray(data)) {
    for (const [index, item] of data.entries()) {
      const found = firstInData(item, [...path, index], atValue, atKey);
      if (found) return found;
    }
  } else if (data !== null && typeof data === 'object') {
    for (const [key, item] of Object.entries(data)) {
      const inKey = atKey(key);
      if (inKey !== undefined) return { path: [...path, key], found: inKey };
      const found = firstInData(item, [...path, key], atValue, atKey);
      if (found) return found;
    }
  }
  return undefined;
}

/** The first number in `data` that is not finite (YAML's `.inf`, `-.inf`, `.nan`), with its path. */
export function nonFiniteNumber(
  data: unknown,
  path: (string | number)[] = [],
): { path: (string | number)[]; value: number } | undefined {
  const first = firstInData(data, path, (value) =>
    typeof value === 'number' && !Number.isFinite(value) ? value : undefined,
  );
  return first && { path: first.path, value: first.found };
}

/**
 * The first string of `data` (a value or a key) holding a control character or a bidirectional control,
 * with its path and the character: YAML's escapes (`"\e"`, `"\0"`, `"\u202e"`) write them where the
 * file's text shows none, so the check of the text alone lets them through.
 */
export function controlInValue(
  data: unknown,
  path: (string | number)[] = [],
): { path: (string | number)[]; code: number } | undefined {
  const inString = (text: string) => {
    for (const char of text) {
      const code = char.codePointAt(0) ?? 0;
      if ((isControl(code) && code !== 0x0d) || isBidiControl(code)) return code;
    }
    return undefined;
  };
  const first = firstInData(
    data,
    path,
    (value) => (typeof value === 'string' ? inString(value) : undefined),
    inString,
  );
  return first && { path: first.path, code: first.found };
}

/**
 * The first value of a parsed YAML input that no input may hold although its text passed: a number that is
 * not finite, or a control character written by an escape; with its path, the problem and the fix.
 */
export function refusedValue(
  data: unknown,
): { path: (string | number)[]; problem: string; fix: string } | undefined {
  const infinite = nonFiniteNumber(data);
  if (infinite)
    return {
      path: infinite.path,
      problem: `${yamlSpelling(infinite.value)} is not a number the model can take`,
      fix: 'write a finite whole number',
    };
  const control = controlInValue(data);
  if (control)
    return {
      path: control.path,
      problem: `control character ${codePointName(control.code)} written by a YAML escape (it would reach a terminal or a page raw)`,
      fix: 'remove the escape; write visible characters',
    };
  return undefined;
}

/** How a refused character is named: `U+001B`. */
export const codePointName = (code: number): string =>
  `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** `.inf`, `-.inf` or `.nan`, as the YAML file spelled it. */
export const yamlSpelling = (value: number): string =>
  Number.isNaN(value) ? '.nan (not a number)' : value > 0 ? '.inf (infinity)' : '-.inf (minus infinity)';
