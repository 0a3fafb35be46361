import type { CodeAction, Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import { DISABLE_NEXT_LINE } from '../yaml/disable-comments.js';
import type { DiagnosticData } from './to-lsp.js';

/**
 * The quick fixes of one diagnostic: its did-you-mean put in place of the text it points at (the misspelt key,
 * type or value), and a `# pipewright-disable-next-line <code> -- ` comment above its line, indented as the line,
 * the reason left for the user to write (a comment without one suppresses nothing and says so).
 */
export function quickFixes(uri: string, diagnostic: LspDiagnostic, lineText: string): CodeAction[] {
  const actions: CodeAction[] = [];
  const { suggestion } = (diagnostic.data ?? {}) as DiagnosticData;
  if (suggestion && diagnostic.range.end.line === diagnostic.range.start.line)
    actions.push({
      title: `Change to "${suggestion}"`,
      kind: 'quickfix',
      isPreferred: true,
      diagnostics: [diagnostic],
      edit: { changes: { [uri]: [{ range: diagnostic.range, newText: suggestion }] } },
    });
  if (
    typeof diagnostic.code === 'string' &&
    diagnostic.source === 'pipewright' &&
    diagnostic.code !== 'invalid-suppression'
  ) {
    const indent = /^[ \t]*/.exec(lineText)![0];
    const line = diagnostic.range.start.line;
    actions.push({
      title: `Suppress ${diagnostic.code} on this line (# ${DISABLE_NEXT_LINE})`,
      kind: 'quickfix',
      diagnostics: [diagnostic],
      edit: {
        changes: {
          [uri]: [
            {
              range: { start: { line, character: 0 }, end: { line, character: 0 } },
              newText: `${indent}# ${DISABLE_NEXT_LINE} ${diagnostic.code} -- \n`,
            },
          ],
        },
      },
    });
  }
  return actions;
}
