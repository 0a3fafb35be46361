import { asList as list, asRecord as asObject, asTrimmedText as asText } from './answers.js';

/**
 * What a governance (OPA) evaluation said, in the platform's JSON form of `GovernanceMetadata`
 * (CORE 951-opa-contracts governance_metadata.proto: `details`, `policyMetadata`, `denyMessages`; the Go SDK's
 * swagger spells them `detailsList`, `policyMetadataList`, `denyMessagesList`, and both are read).
 */

type Json = Record<string, unknown>;
const either = (record: Json | undefined, name: string): readonly unknown[] =>
  list(record?.[name] ?? record?.[`${name}List`]);

export interface PolicySetVerdict {
  /** The policy set's name (or identifier), when the answer gives one a person recognises. */
  readonly policySet?: string;
  /** The opaque `policySetId`. */
  readonly policySetId?: string;
  readonly deny: boolean;
  /** Deny messages, or the policies that failed. */
  readonly denials: readonly string[];
  /** Warnings of policies whose severity is `warning`. */
  readonly warnings: readonly string[];
}

const isFailed = (status: unknown) => status === 'error' || status === 'ERROR';
const isWarned = (status: unknown) => status === 'warning' || status === 'WARNING';

/** Each policy set of an evaluation with its verdict, in the answer's order. */
function policySetVerdicts(governance: Json): PolicySetVerdict[] {
  const verdicts: PolicySetVerdict[] = [];
  for (const entry of either(governance, 'details')) {
    const set = asObject(entry);
    if (!set) continue;
    const name = asText(set.policySetName) ?? asText(set.name) ?? asText(set.identifier);
    const id = asText(set.policySetId);
    const denials: string[] = [];
    const warnings: string[] = [];
    const add = (into: string[], text: string | undefined) => text && !into.includes(text) && into.push(text);
    for (const policy of [...either(set, 'policyMetadata'), ...list(set.policies)]) {
      const p = asObject(policy);
      if (!p) continue;
      const messages = either(p, 'denyMessages').map(asText);
      const policyName = asText(p.policyName) ?? asText(p.name);
      if (isWarned(p.status) || p.severity === 'warning') {
        for (const text of messages) add(warnings, text);
        if (!messages.length && policyName) add(warnings, `policy ${policyName} warned`);
        continue;
      }
      for (const text of messages) add(denials, text);
      if (!messages.length && (isFailed(p.status) || p.deny === true) && policyName)
        add(denials, `policy ${policyName} failed`);
    }
    // An entry without `deny` counts as denying unless its status says it passed or only warned.
    const deny =
      set.deny === true ||
      (set.deny === undefined && !['pass', 'PASS'].includes(String(set.status)) && !isWarned(set.status));
    verdicts.push({
      ...(name ? { policySet: name } : {}),
      ...(id ? { policySetId: id } : {}),
      deny,
      denials,
      warnings,
    });
  }
  return verdicts;
}

/** Policy sets that denied, and their deny messages; each once, in the answer's order. */
export function describeDenial(governance: Json): { message: string; policySets: string[] } {
  const sets: string[] = [];
  const messages: string[] = [];
  for (const verdict of policySetVerdicts(governance)) {
    if (!verdict.deny) continue;
    // A name a person recognises; the opaque policySetId is left out.
    if (verdict.policySet && !sets.includes(verdict.policySet)) sets.push(verdict.policySet);
    for (const text of verdict.denials) if (!messages.includes(text)) messages.push(text);
  }
  const fallback = asText(governance.message);
  if (!messages.length && fallback) messages.push(fallback);
  return { message: messages.length ? messages.join('; ') : 'the answer gives no reason', policySets: sets };
}

/** `(policy set X)` / `(policy sets X, Y)`, or nothing. */
export const policySetsText = (sets: readonly string[]): string =>
  sets.length ? ` (policy set${sets.length > 1 ? 's' : ''} ${sets.join(', ')})` : '';

/**
 * The verdicts of a policy-management evaluation (`POST /pm/api/v1/evaluate-by-type`): its own JSON, not the NG
 * envelope (harness-go-sdk harness/policymgmt/model_evaluation.go, model_evaluation_detail2.go,
 * model_evaluated_policy.go: `details[]` policy sets with `details[]` policies, `deny_messages`, `status`).
 */
export function evaluationVerdicts(evaluation: Json): PolicySetVerdict[] {
  const verdicts: PolicySetVerdict[] = [];
  for (const entry of list(evaluation.details)) {
    const set = asObject(entry);
    if (!set) continue;
    const denials: string[] = [];
    const warnings: string[] = [];
    for (const item of list(set.details)) {
      const policy = asObject(item);
      if (!policy) continue;
      const name = asText(asObject(policy.policy)?.name) ?? asText(asObject(policy.policy)?.identifier);
      const messages = list(policy.deny_messages)
        .map(asText)
        .filter((m): m is string => m !== undefined);
      const into = isWarned(policy.status) ? warnings : isFailed(policy.status) ? denials : undefined;
      if (!into) continue;
      if (messages.length)
        for (const m of messages)
          if (!into.includes(m)) into.push(m);
          else
            into.push(asText(policy.error) ?? `policy ${name ?? 'unnamed'} ${into === warnings ? 'warned' : 'failed'}`);
    }
    const name = asText(set.name) ?? asText(set.identifier);
    verdicts.push({
      ...(name ? { policySet: name } : {}),
      ...(asText(set.identifier) ? { policySetId: asText(set.identifier)! } : {}),
      deny: isFailed(set.status),
      denials,
      warnings,
    });
  }
  return verdicts;
}
