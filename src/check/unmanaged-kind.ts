import type { Diagnostic } from '../core/diagnostics.js';
import { isRecord } from '../core/is-record.js';

/**
 * A document of a platform kind pipewright does not manage (`secret:`, `overrides:`): one warning, the same from
 * validate, import and the language server. The platform takes these documents through endpoints of their own
 * (docs/fidelity.md, "Documents pipewright does not manage"), so they are no error; pipewright neither checks,
 * imports nor publishes them. Nothing of the document is quoted: a secret's value must never reach a message.
 */
export function unmanagedKind(rootKey: string, document: Record<string, unknown>): Diagnostic {
  return {
    code: 'unmanaged-kind',
    severity: 'warning',
    message: `${rootKey} documents are not managed by pipewright: validate does not check them, import writes no code for them and publish never sends them`,
    path: [],
    hint:
      rootKey === 'secret' && holdsInlineValue(document.secret)
        ? "this secret holds its value in the file (spec.value with valueType Inline): the platform refuses an inline value in a secret's YAML, and a secret's value does not belong in a repository; create the secret on the platform and keep it out of the folder"
        : `keep managing ${rootKey} documents as you do now, or move them out of the folder`,
  };
}

/** A secret text whose value is written in the document (the platform's `valueType: Inline`). */
function holdsInlineValue(secret: unknown): boolean {
  const spec = isRecord(secret) ? secret.spec : undefined;
  return isRecord(spec) && spec.valueType === 'Inline' && spec.value !== undefined && spec.value !== null;
}
