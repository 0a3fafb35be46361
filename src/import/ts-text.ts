/*
 * The one printer of outside text (YAML values, keys, comments, identifiers, file names) into generated
 * TypeScript. What import and pull write is run by `pipewright compile`, so text read from a YAML file or a
 * platform answer must stay data whatever it holds: JavaScript ends a `//` comment at U+2028 and U+2029 as well
 * as at `\n` and `\r`, a template literal runs code at `${`, `*\/` ends a block comment, `'__proto__'` as an
 * object literal's key sets the prototype instead of a field, and a lone surrogate cannot be written as UTF-8.
 * Every printer of such text into code goes through here.
 */

/** Every line terminator of JavaScript, and NEL (U+0085), which editors and YAML 1.1 also break lines at. */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029\u0085]/;

/** A surrogate half without its other half: legal in a JavaScript string, not writable as UTF-8. */
const LONE_SURROGATE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';

/**
 * Characters no printed text holds as they are: control characters, the line terminators, and the bidirectional
 * overrides that make text read in an order other than the compiler's ("Trojan Source").
 */
const INVISIBLE = '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]';

const hex = (char: string) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '\t': '\\t',
  '\v': '\\v',
  '\f': '\\f',
  '\b': '\\b',
  '\r': '\\r',
  '\n': '\\n',
  '\\': '\\\\',
  "'": "\\'",
};

const QUOTED_ESCAPED = new RegExp(`[\\\\'\\n\\t]|${INVISIBLE}|${LONE_SURROGATE}`, 'g');

/** A single-quoted string literal of any text: its value is exactly `text`. */
export function stringLiteral(text: string): string {
  return `'${text.replace(QUOTED_ESCAPED, (char, at: number) => {
    const named = NAMED_ESCAPES[char];
    if (named) return named;
    // `\0` before a digit would read as an octal escape.
    if (char === '\0') return /[0-9]/.test(text[at + 1] ?? '') ? '\\x00' : '\\0';
    return hex(char);
  })}'`;
}

const TEMPLATE_ESCAPED = new RegExp(`\\\\|\`|\\$\\{|\\r|${INVISIBLE}|${LONE_SURROGATE}`, 'g');

/**
 * A template literal's text between backquotes (or between its substitutions): its cooked value is exactly
 * `text`. Line breaks (`\n`) and tabs stay as they are, for multi-line text to read as such; a `\r` is escaped
 * (a template reads a raw CR as `\n`), `${` and the backquote too, and what `stringLiteral` escapes.
 */
export function templateText(text: string): string {
  return text.replace(TEMPLATE_ESCAPED, (char) => {
    if (char === '\\' || char === '`' || char === '${') return `\\${char}`;
    if (char === '\r') return '\\r';
    if (char === '\0') return '\\x00';
    return hex(char);
  });
}

/** Multi-line text reads best as a template literal; text with other control characters, as a quoted string. */
export const stringCode = (text: string): string =>
  text.includes('\n') && !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)
    ? `\`${templateText(text)}\``
    : stringLiteral(text);

const IDENTIFIER_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * An object literal's key for the field `key`: as it is when it is a plain name, quoted otherwise, and computed
 * for `__proto__` (as a name or quoted, that key sets the object's prototype; computed, it is a field).
 */
export function propertyKey(key: string): string {
  if (key === '__proto__') return `[${stringLiteral(key)}]`;
  return IDENTIFIER_NAME.test(key) ? key : stringLiteral(key);
}

const COMMENT_ESCAPED = new RegExp(`${INVISIBLE}|${LONE_SURROGATE}`, 'g');

/**
 * A comment line a tool would read as an instruction: TypeScript's `@ts-ignore`, `@ts-nocheck`, `@jsx...`
 * pragmas, a `/// <reference ...>` directive, a source-map or source URL comment (`//# source...URL=`) for debuggers. Such a line
 * keeps the YAML's `#` before it (`//# @ts-ignore`), which no tool reads as one.
 */
const DIRECTIVE = /^[\s/*]*@(ts-|jsx)|^\/|^[#@]\s*source(Mapping)?URL=/i;

/** One line of comment text: control characters and lone surrogates as `\uXXXX` text, directives defused. */
const commentLine = (line: string): string => {
  const shown = line.replace(COMMENT_ESCAPED, hex);
  return DIRECTIVE.test(shown) ? `#${shown}` : shown;
};

/** Text as `//` comment lines: one per line of the text, split at every line terminator. */
export const lineComments = (text: string): string[] => text.split(LINE_BREAK).map((line) => `//${commentLine(line)}`);

/** Text as the words of a one-line comment: line terminators and other control characters as `\uXXXX` text. */
export const oneLineCommentText = (text: string): string => text.replace(COMMENT_ESCAPED, hex).replace(/\n/g, hex);

/** A `/* *\/` comment of one line: no line terminator, and `*\/` cannot end it early. */
export const blockComment = (text: string): string => `/*${oneLineCommentText(text).replace(/\*\//g, '*\\/')}*/`;
