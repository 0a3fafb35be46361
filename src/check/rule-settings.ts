import { DOCUMENT_CODES, type DocumentCode } from '../core/diagnostic-codes.js';
import type { DiagnosticCode } from '../core/diagnostic-codes.js';
import type { Diagnostic } from '../core/diagnostics.js';

/**
 * The codes a project may switch off or report at another severity (`rules` in pipewright.config.ts): every code
 * about a document, the platform's own refusals (the schema's codes) included. Lowering one of those only moves
 * the failure to publish time when the platform really refuses the document; it is there for the documents
 * pipewright refuses and the platform takes (a false error must never leave a team without a way past).
 */
export const CONFIGURABLE_CODES = DOCUMENT_CODES;

export type ConfigurableCode = DocumentCode;
type RuleSetting = 'off' | 'warning' | 'error';
/** `{ 'possible-secret': 'off', 'unknown-key': 'warning' }`: a code that is not about a document is a type error. */
export type RuleSettings = { readonly [C in ConfigurableCode]?: RuleSetting };

/** Whether every code of a rule is switched off, so the walk can skip it. */
export const ruleOff = (
  codes: DiagnosticCode | readonly DiagnosticCode[],
  settings: RuleSettings | undefined,
): boolean =>
  settings !== undefined &&
  (typeof codes === 'string' ? [codes] : codes).every((code) => settings[code as ConfigurableCode] === 'off');

/** The diagnostics as the project's settings want them: switched-off codes dropped, others at their set severity. */
export function applyRuleSettings<D extends Diagnostic>(diagnostics: D[], settings: RuleSettings | undefined): D[] {
  if (!settings || Object.keys(settings).length === 0) return diagnostics;
  const out: D[] = [];
  for (const diagnostic of diagnostics) {
    const setting = settings[diagnostic.code as ConfigurableCode];
    // A project's setting is the one way a code gets a severity the table does not give it: the cast says so.
    if (setting === undefined) out.push(diagnostic);
    else if (setting !== 'off')
      out.push(setting === diagnostic.severity ? diagnostic : ({ ...diagnostic, severity: setting } as D));
  }
  return out;
}
