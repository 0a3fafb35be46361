import type { LineCounter } from 'yaml';
import type { SourceSpan } from '../core/source-location.js';

/**
 * Offsets of a YAML text as 1-based lines and columns, as `yaml`'s line counter counts them; the end (exclusive,
 * a node's `range[1]`) only when the text is not empty.
 */
export function spanOf(lines: LineCounter, start: number, end?: number): SourceSpan {
  const from = lines.linePos(start);
  if (end === undefined || end <= start) return { line: from.line, column: from.col };
  const to = lines.linePos(end);
  return { line: from.line, column: from.col, endLine: to.line, endColumn: to.col };
}
