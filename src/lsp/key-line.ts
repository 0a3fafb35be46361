/**
 * The shape of one line of block YAML as the editor features read it: its indentation, its list dash, its
 * `key:` and the value after it. Read by a scan, left to right, never by a regular expression: the regexes this
 * replaces backtracked on a long line (a hover on `a` and 100,000 blanks took minutes), and a user's line may be
 * anything. Each function looks at each character a bounded number of times.
 */
export interface KeyLine {
  /** Where the line's content starts after its indentation (the dash of a list item, or its key). */
  readonly indent: number;
  /** Column of the `- ` that starts a list item, when the line starts one (a dash followed by a blank). */
  readonly dash?: number;
  /** Where the key (or what is written in its place) starts: after the indentation and the dash. */
  readonly keyStart: number;
  /** The key of `key:` (quotes taken off), when the line holds one; undefined for a list item's scalar, say. */
  readonly key?: string;
  /** Column of the key's colon. */
  readonly colon?: number;
  /** What follows the colon and its blanks, before a `#` comment and trailing blanks (empty when nothing). */
  readonly rest?: string;
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';
/** A character a key may not start with (YAML's indicators a plain key cannot begin with, in the subset read here). */
const cannotStartKey = (c: string) => c === '#' || c === "'" || c === '"' || c === ':' || /\s/.test(c);

/** The first index at or after `from` that is not a blank. */
function skipBlanks(line: string, from: number): number {
  let at = from;
  while (isBlank(line[at])) at++;
  return at;
}

/** The end of `text` without its trailing blanks (at least `from`). */
function trimEnd(text: string, from: number, to: number): number {
  let end = to;
  while (end > from && isBlank(text[end - 1])) end--;
  return end;
}

/**
 * A line's indentation, dash and key: `key:` counts when the colon is the first `:` or `#` after the key's start
 * and `afterColon` accepts what follows it (a blank or the end for a line of a document; anything for the text
 * before the cursor). A quoted key is `"key":` or `'key':`.
 */
export function keyLine(line: string, afterColon: 'blank-or-end' | 'any' = 'blank-or-end'): KeyLine {
  const indent = skipBlanks(line, 0);
  let keyStart = indent;
  let dash: number | undefined;
  if (line[indent] === '-' && isBlank(line[indent + 1])) {
    dash = indent;
    keyStart = skipBlanks(line, indent + 1);
  }
  const base = { indent, keyStart, ...(dash !== undefined ? { dash } : {}) };
  // The first `:` or `#`: a key holds neither, and a `#` before any colon starts a comment.
  let colon = keyStart;
  while (colon < line.length && line[colon] !== ':' && line[colon] !== '#') colon++;
  if (line[colon] !== ':') return base;
  if (afterColon === 'blank-or-end' && colon + 1 < line.length && !isBlank(line[colon + 1])) return base;
  const end = trimEnd(line, keyStart, colon);
  const quote = line[keyStart] === '"' || line[keyStart] === "'" ? line[keyStart] : undefined;
  const from = quote ? keyStart + 1 : keyStart;
  const to = quote ? end - 1 : end;
  if (quote && (end - keyStart < 2 || line[end - 1] !== quote)) return base;
  if (to <= from || cannotStartKey(line[from]!)) return base;
  return { ...base, key: line.slice(from, to), colon, rest: line.slice(skipBlanks(line, colon + 1)) };
}

/** Whether a line is blank or only a comment. */
export function isBlankOrComment(line: string): boolean {
  const at = skipBlanks(line, 0);
  return at === line.length || line[at] === '#';
}

/** The value after `key:` on a whole line, without a `#` comment and trailing blanks; undefined when none. */
export function valueOf(shape: KeyLine): string | undefined {
  if (shape.rest === undefined) return undefined;
  const hash = shape.rest.indexOf('#');
  const text = hash < 0 ? shape.rest : shape.rest.slice(0, hash);
  const end = trimEnd(text, 0, text.length);
  return end > 0 ? text.slice(0, end) : undefined;
}
