import type { Diagnostic as LspDiagnostic, Range } from 'vscode-languageserver';
import type { SourceLocation } from '../core/source-location.js';
import type { LocatedDiagnostic } from '../validate/validate-files.js';

/** What a diagnostic carries for the quick fixes: the did-you-mean's text, when it has one. */
export interface DiagnosticData {
  readonly suggestion?: string;
}

/** A 1-based location as an editor's 0-based range (a point stays a point). */
function rangeOf({ line, column, endLine, endColumn }: SourceLocation): Range {
  const start = { line: line - 1, character: column - 1 };
  return { start, end: endLine !== undefined ? { line: endLine - 1, character: (endColumn ?? column) - 1 } : start };
}

/** validate's diagnostic as the editor shows it; a suppressed one is not shown (the comment above it says why). */
export function toLsp(diagnostic: LocatedDiagnostic): LspDiagnostic | undefined {
  if (diagnostic.suppressed) return undefined;
  const data: DiagnosticData = diagnostic.suggestion ? { suggestion: diagnostic.suggestion } : {};
  return {
    range: rangeOf(diagnostic.location),
    severity: diagnostic.severity === 'error' ? 1 : 2,
    code: diagnostic.code,
    source: 'pipewright',
    message: `${diagnostic.subject ? `${diagnostic.subject}: ` : ''}${diagnostic.message}${diagnostic.hint ? `\n${diagnostic.hint}` : ''}`,
    data,
  };
}
