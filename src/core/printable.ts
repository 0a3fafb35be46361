/**
 * Characters that would change how a message reads if printed as they are: C0 and C1 control characters (a
 * terminal obeys escape sequences), U+2028 and U+2029 (they end a line for editors and JavaScript), the
 * bidirectional marks, embeddings, overrides and isolates (they reorder the text around them, the "Trojan Source"
 * trick), and lone surrogates (not text at all). Letters of every script are none of these.
 */
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text from outside (a name from the platform or a YAML file, a file name) as it may appear in a message: on one
 * line and in the order it is stored, each character above shown as a `\u` escape. The one escaper of messages;
 * what goes into generated code has its own printer (src/import/ts-text.ts).
 */
export const printable = (text: string): string =>
  text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
