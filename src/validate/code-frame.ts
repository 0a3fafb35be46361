import { maskPossibleSecrets } from '../check/secret-scan.js';

/**
 * A few lines of source around `line`, numbered, with a caret under `column` (both 1-based). What looks like a
 * credential on those lines is shown by its first characters only, whatever the finding is (a syntax error on a
 * line holding a token would print it). The caret's column is the original text's.
 */
export function codeFrame(source: string, line: number, column: number, context = 1): string {
  const lines = source.split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === '' && line < lines.length) lines.pop(); // the newline that ends the file opens no line
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const marker = n === line ? '>' : ' ';
    out.push(`  ${marker} ${String(n).padStart(width)} | ${maskPossibleSecrets(lines[n - 1] ?? '')}`.trimEnd());
    if (n === line) out.push(`    ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1))}^`);
  }
  return out.join('\n');
}
