import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { MAX_NESTING } from '../core/nesting.js';
import { lift } from '../ir/lift.js';
import type { IrNode } from '../ir/node.js';
import { TOO_DEEP, walk, type AnyRule, type SeenInput } from './walk.js';
import { documentSchemas } from '../schema/index.js';
import { quickCheck } from '../schema/quick-check.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { pathKey } from '../core/document-path.js';
import { applyRuleSettings, ruleOff, type RuleSettings } from './rule-settings.js';
import { RULES } from './rules.js';
import { schemaDiagnostics } from './schema-issues.js';
import { markSuppressed } from './suppressions.js';

/** The rules each project's settings leave on: one list per settings object, so the walk's plan for it is made once. */
const rulesBySettings = new WeakMap<RuleSettings, readonly AnyRule[]>();

/** The rules a project's settings leave on. */
function rulesFor(settings: RuleSettings | undefined): readonly AnyRule[] {
  if (!settings) return RULES;
  let rules = rulesBySettings.get(settings);
  if (!rules) rulesBySettings.set(settings, (rules = RULES.filter((rule) => !ruleOff(rule.code, settings))));
  return rules;
}

/**
 * Checks one document: one walk of its IR with every rule, the schema on its wire form (`document`, what `lower`
 * gave or YAML held), then what the rules decide knowing the schema's verdict. Locations are added by the caller
 * (builder sites or YAML ranges). Given `inputs`, the walk adds the document's runtime inputs to it.
 */
export function checkDocument(
  kind: ResourceKind,
  node: IrNode,
  document: unknown,
  settings?: RuleSettings,
  inputs?: SeenInput[],
): Diagnostic[] {
  let walked;
  try {
    walked = walk(node, document, kind, rulesFor(settings), documentSchemas[kind], inputs);
  } catch (error) {
    if (error !== TOO_DEEP) throw error;
    const tooDeep: Diagnostic[] = [
      {
        code: 'too-deep',
        severity: 'error',
        message: `the document nests more than ${MAX_NESTING} levels deep`,
        path: [kindRow(kind).rootKey],
        subject: kindRow(kind).label,
        hint: 'flatten the step groups; real pipelines nest a few levels at most',
      },
    ];
    return markSuppressed(node, applyRuleSettings(tooDeep, settings));
  }
  const documentSchema = documentSchemas[kind];
  // Most documents pass: the quick check answers them without the copy zod's parse makes; the rest are parsed.
  const result = quickCheck(documentSchema)(document) ? undefined : documentSchema.safeParse(document);
  const schemaFound = !result || result.success ? [] : schemaDiagnostics(document, result.error.issues);
  // A placeholder the schema refuses (an identifier's pattern): one diagnostic, the one that says why.
  const absorbed = walked.finish(new Set(schemaFound.map((d) => pathKey(d.path))));
  const schema = absorbed.size ? schemaFound.filter((d) => !absorbed.has(pathKey(d.path))) : schemaFound;
  return markSuppressed(node, applyRuleSettings(withoutEchoes([...schema, ...walked.found.flat()]), settings));
}

/** Checks a wire document (read from YAML, or given whole): lifted to the IR, then as `checkDocument`. */
export const validateDocument = (kind: ResourceKind, document: unknown, settings?: RuleSettings): Diagnostic[] =>
  checkDocument(kind, lift(kind, document), document, settings);

/**
 * One mistake, one diagnostic: a misspelt required key (`scipt`) is reported as the typo with its
 * suggestion, not also as the required `script` missing beside it; the typo then is the error the missing
 * field was (a typo of a key that is not required stays a warning: the platform saves the document).
 */
function withoutEchoes(diagnostics: Diagnostic[]): Diagnostic[] {
  const targetOf = (d: Diagnostic) => JSON.stringify([...d.path.slice(0, -1), /"([^"]+)"/.exec(d.hint!)?.[1]]);
  const typoTargets = new Set(diagnostics.filter((d) => d.code === 'unknown-key' && d.hint).map(targetOf));
  if (typoTargets.size === 0) return diagnostics;
  const missing = new Set(
    diagnostics
      .filter((d) => d.code === 'missing-field' && typoTargets.has(JSON.stringify(d.path)))
      .map((d) => JSON.stringify(d.path)),
  );
  return diagnostics
    .filter((d) => d.code !== 'missing-field' || !missing.has(JSON.stringify(d.path)))
    .map((d) =>
      d.code === 'unknown-key' && d.hint && missing.has(targetOf(d)) ? { ...d, severity: 'error' as const } : d,
    );
}
