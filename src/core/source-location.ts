import { printable } from './printable.js';

/**
 * Where in the user's files something is: a YAML node (start and end), a builder call (its start), a TypeScript
 * or esbuild error. Lines and columns are 1-based, as editors and `file:line:col` show them: the first character
 * of a file is line 1, column 1. The end, when known, is the position just after the last character (exclusive,
 * as an editor's range), so a one-character node at line 2, column 5 ends at line 2, column 6.
 */
export interface SourceLocation {
  /** Relative to the working directory (with `/`), or absolute when outside it. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
}

/** A whole file, when nothing narrower is known (a config file, the file of an export, a manifest). */
interface FileLocation {
  readonly file: string;
  readonly line?: undefined;
  readonly column?: undefined;
  readonly endLine?: undefined;
  readonly endColumn?: undefined;
}

/** Where a diagnostic points: a place in a file, or a whole file. */
export type DiagnosticLocation = SourceLocation | FileLocation;

/** A location without its file: what a reader that knows only the text finds. */
export type SourceSpan = Omit<SourceLocation, 'file'>;

/**
 * `file:line:col`, or the file alone when that is all that is known: the text the terminal prints. The file name
 * is the user's and may hold anything a file system allows (a U+2028, a terminal escape): shown `printable`.
 */
export const formatLocation = (location: DiagnosticLocation): string => {
  const file = printable(location.file);
  return location.line === undefined ? file : `${file}:${location.line}:${location.column}`;
};

/**
 * Orders by file, then line and column; a whole file before its lines, and no location after every location,
 * so output is stable.
 */
export function compareLocations(a: DiagnosticLocation | undefined, b: DiagnosticLocation | undefined): number {
  if (!a || !b) return a ? -1 : b ? 1 : 0;
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}
