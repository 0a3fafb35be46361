import { DIAGNOSTIC_CODES, isDiagnosticCode, isDocumentCode } from '../core/diagnostic-codes.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { SourceLocation } from '../core/source-location.js';
import { closest, didYouMean } from '../core/suggest.js';
import { DISABLE_NEXT_LINE, disableComments, type DisableComment } from '../yaml/disable-comments.js';

type Located = Diagnostic & { readonly location: SourceLocation };

/**
 * A file's diagnostics with what its `# pipewright-disable-next-line code[, code] -- reason` comments cover marked
 * as suppressed (a diagnostic that starts on the line after the comment, with one of its codes), and a warning for
 * each comment that cannot suppress: a code that does not exist or is not about a document, or no reason. Such a
 * comment suppresses nothing, so the diagnostic it meant stays in front of the user with the warning beside it.
 * (A well-formed comment whose line has nothing to suppress is left alone: the diagnostic may come back.)
 */
export function applyDisableComments(diagnostics: readonly Located[], text: string, file: string): Located[] {
  const comments = disableComments(text);
  if (comments.length === 0) return [...diagnostics];
  const problems: Located[] = [];
  const usable: DisableComment[] = [];
  for (const comment of comments) {
    const found = commentProblems(comment, { file, line: comment.line, column: comment.column });
    problems.push(...found);
    if (found.length === 0) usable.push(comment);
  }
  const marked = diagnostics.map((diagnostic) => {
    const comment = usable.find((c) => c.covers === diagnostic.location.line && c.codes.includes(diagnostic.code));
    return comment ? { ...diagnostic, suppressed: { reason: comment.reason!, by: 'comment' as const } } : diagnostic;
  });
  return [...marked, ...problems];
}

function commentProblems(comment: DisableComment, location: SourceLocation): Located[] {
  const problem = (message: string, extra: Partial<Pick<Diagnostic, 'hint' | 'suggestion'>>): Located =>
    ({ code: 'invalid-suppression', severity: 'warning', message, path: [], location, ...extra }) as Located;
  if (comment.codes.length === 0)
    return [
      problem(`${DISABLE_NEXT_LINE} names no code`, {
        hint: `name the codes it accepts: # ${DISABLE_NEXT_LINE} unknown-key -- why the platform takes it`,
      }),
    ];
  const found: Located[] = [];
  for (const code of comment.codes) {
    if (isDocumentCode(code)) continue;
    if (isDiagnosticCode(code))
      found.push(
        problem(`${code} is not about a document and cannot be suppressed`, {
          hint: `${code}: ${DIAGNOSTIC_CODES[code].summary}`,
        }),
      );
    else {
      const near = closest(code, Object.keys(DIAGNOSTIC_CODES));
      found.push(
        problem(
          `${code} is not a diagnostic code`,
          near ? didYouMean(near) : { hint: 'the codes are listed in docs/troubleshooting.md' },
        ),
      );
    }
  }
  if (!comment.reason)
    found.push(
      problem(`${DISABLE_NEXT_LINE} gives no reason, so it suppresses nothing`, {
        hint: `say why after " -- ": # ${DISABLE_NEXT_LINE} ${comment.codes.join(', ')} -- the platform takes it (ticket, link)`,
      }),
    );
  return found;
}
