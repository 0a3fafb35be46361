import type { DiagnosticCode } from '../core/diagnostic-codes.js';
import type { Diagnostic } from '../core/diagnostics.js';

/**
 * The codes a project may switch off or report at another severity (`rules` in pipewright.config.ts): pipewright's
 * own judgements about documents the platform accepts. What the platform itself refuses (schema errors, duplicate
 * identifiers, steps a stage cannot run, unknown barriers, input-set fields the pipeline fixes, placeholders where
 * the schema refuses them, references to resources that are not compiled) is not configurable: switching it off
 * would only move the failure to publish time. `unsubstituted-placeholder` is configurable as a warning only: where
 * the schema refuses the value it stays an error.
 */
export const CONFIGURABLE_CODES = [
  'possible-secret',
  'unbalanced-expression',
  'invalid-runtime-input',
  'unknown-reference',
  'unknown-type',
  'invalid-scope',
  'clone-without-codebase',
  'no-build-infrastructure',
  'unsubstituted-placeholder',
  'input-set-missing-input',
] as const satisfies readonly DiagnosticCode[];

export type ConfigurableCode = (typeof CONFIGURABLE_CODES)[number];
export type RuleSetting = 'off' | 'warning' | 'error';
/** `{ 'possible-secret': 'off', 'unknown-reference': 'error' }`: an unknown code is a type error. */
export type RuleSettings = { readonly [C in ConfigurableCode]?: RuleSetting };

const configurable = new Set<string>(CONFIGURABLE_CODES);

/**
 * Whether every code of a rule is switched off, so the walk can skip it. The placeholder rule always runs: its
 * error form (where the schema refuses the value) is not the project's to switch off.
 */
export const ruleOff = (codes: DiagnosticCode | readonly DiagnosticCode[], settings: RuleSettings | undefined): boolean =>
  settings !== undefined &&
  (typeof codes === 'string' ? [codes] : codes).every((code) => code !== 'unsubstituted-placeholder' && settings[code as ConfigurableCode] === 'off');

/** The diagnostics as the project's settings want them: switched-off codes dropped, others at their set severity. */
export function applyRuleSettings<D extends Diagnostic>(diagnostics: D[], settings: RuleSettings | undefined): D[] {
  if (!settings || Object.keys(settings).length === 0) return diagnostics;
  const out: D[] = [];
  for (const diagnostic of diagnostics) {
    const setting = configurable.has(diagnostic.code) ? settings[diagnostic.code as ConfigurableCode] : undefined;
    // A placeholder the schema refuses is the platform's refusal: it stays an error whatever the setting.
    if (setting === undefined || (diagnostic.code === 'unsubstituted-placeholder' && diagnostic.severity === 'error')) out.push(diagnostic);
    else if (setting !== 'off') out.push(setting === diagnostic.severity ? diagnostic : ({ ...diagnostic, severity: setting } as D));
  }
  return out;
}
