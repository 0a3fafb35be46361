/**
 * Runs of characters removed from the ends of a text in one pass. The regex way, `/\/+$/` or `/^_+|_+$/g`, tries
 * every start inside a long run before it reaches the end, which is quadratic in the run's length: on a value
 * read from a user or the platform, that is a way to stall a command (test/regex-scan.test.ts finds such patterns).
 */

/** `text` without the characters of `chars` at its end. */
export function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** `text` without the characters of `chars` at its start. */
export function trimStart(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start]!)) start++;
  return text.slice(start);
}
