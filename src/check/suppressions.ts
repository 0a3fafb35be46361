import type { Diagnostic } from '../core/diagnostics.js';
import { carriesSuppressions, suppressionAt } from '../ir/locate.js';
import type { IrNode } from '../ir/node.js';

/**
 * The diagnostics of a document with those its builders' `.suppress()` calls cover marked as suppressed: the
 * suppression of the diagnostic's code on the innermost node holding its path (the node itself or any above it).
 * A suppressed diagnostic stays in the list, so `--json` can show it with its reason; only what fails a run and
 * what is printed leave it out.
 */
export function markSuppressed<D extends Diagnostic>(root: IrNode, diagnostics: D[]): D[] {
  if (diagnostics.length === 0 || !carriesSuppressions(root)) return diagnostics;
  return diagnostics.map((diagnostic) => {
    const suppression = suppressionAt(root, diagnostic.path, diagnostic.code);
    return suppression ? { ...diagnostic, suppressed: { reason: suppression.reason, by: 'builder' } } : diagnostic;
  });
}
