import { errorBody, type Answer } from './emulator-rest.js';

/**
 * Governance policy sets as the policy-management service runs them: `POST /pm/api/v1/evaluate-by-type` evaluates
 * the scope's enabled sets of a type against the input it is given, and answers the evaluation as its own JSON
 * (harness-go-sdk harness/policymgmt: api_evaluate.go L463-491, model_evaluation.go, model_evaluation_detail2.go,
 * model_evaluated_policy.go). The same sets run when a document of the type is saved (platform-facts-3.md §4.4).
 */

export interface PolicyRule {
  readonly policy: string;
  readonly severity: 'error' | 'warning';
  /** The deny message for this document body, or undefined when it passes. */
  readonly check: (body: Record<string, unknown>) => string | undefined;
}

export interface PolicySet {
  readonly identifier: string;
  readonly name: string;
  /** The entity type: pipeline, template, connector (OpaConstants.java). */
  readonly type: 'pipeline' | 'template' | 'connector';
  readonly rules: readonly PolicyRule[];
}

/** Where the evaluation input holds the document (GovernanceServiceHelper.java L129-155, OpaConnectorServiceImpl.java L38). */
const INPUT_KEY: Readonly<Record<PolicySet['type'], string>> = {
  pipeline: 'pipeline',
  template: 'template',
  connector: 'entity',
};

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The evaluation of `sets` of `type` against a document body, in the policy service's JSON. */
export function evaluate(
  sets: readonly PolicySet[],
  type: string,
  body: Record<string, unknown>,
  scope: { account: string; org?: string; project?: string; action: string },
) {
  const details = sets
    .filter((set) => set.type === type)
    .map((set) => {
      const policies = set.rules.map((rule) => {
        const message = rule.check(body);
        return {
          policy: { identifier: rule.policy, name: rule.policy },
          status: message ? rule.severity : 'pass',
          deny_messages: message ? [message] : [],
          error: '',
        };
      });
      const status = policies.some((p) => p.status === 'error')
        ? 'error'
        : policies.some((p) => p.status === 'warning')
          ? 'warning'
          : 'pass';
      return {
        identifier: set.identifier,
        name: set.name,
        type: set.type,
        action: 'onsave',
        enabled: true,
        status,
        details: policies,
      };
    });
  const status = details.some((d) => d.status === 'error')
    ? 'error'
    : details.some((d) => d.status === 'warning')
      ? 'warning'
      : 'pass';
  return {
    id: Date.now(),
    status,
    details,
    account_id: scope.account,
    org_id: scope.org ?? '',
    project_id: scope.project ?? '',
    type,
    action: scope.action,
    created: Date.now(),
    entity: '',
    entity_metadata: '',
  };
}

const QUERY = [
  'accountIdentifier',
  'orgIdentifier',
  'projectIdentifier',
  'type',
  'action',
  'entity',
  'entityMetadata',
  'principalIdentifier',
  'principalType',
  'userIdentifier',
];

/** The answer to `POST /pm/api/v1/evaluate-by-type`, or undefined when the request is not that call. */
export function evaluateByType(
  sets: readonly PolicySet[],
  method: string,
  path: string,
  query: URLSearchParams,
  text: string,
  contentType: string | undefined,
  accountId: string,
  correlationId: string,
): Answer | undefined {
  if (path !== '/pm/api/v1/evaluate-by-type') return undefined;
  const bad = (message: string): Answer => ({
    status: 400,
    body: errorBody('INVALID_REQUEST', message, correlationId),
    violation: message,
  });
  if (method !== 'POST') return bad(`${method} on evaluate-by-type`);
  for (const name of query.keys())
    if (!QUERY.includes(name)) return bad(`unexpected query parameter ${name} on evaluate-by-type`);
  const type = query.get('type');
  const action = query.get('action');
  if (!type || !action) return bad('evaluate-by-type needs type and action');
  if (query.get('accountIdentifier') !== accountId)
    return {
      status: 401,
      body: errorBody('INVALID_CREDENTIAL', 'The API key does not belong to this account', correlationId),
    };
  if (contentType?.split(';')[0]?.trim() !== 'application/json')
    return bad(`evaluate-by-type takes JSON, not ${contentType}`);
  let input: Record<string, unknown> | undefined;
  try {
    input = asRecord(JSON.parse(text));
  } catch {
    input = undefined;
  }
  const key = INPUT_KEY[type as PolicySet['type']];
  const body = key ? asRecord(input?.[key]) : undefined;
  if (!body) return bad(`the ${type} evaluation input must hold the document under ${key ?? 'its type'}`);
  const org = query.get('orgIdentifier') ?? undefined;
  const project = query.get('projectIdentifier') ?? undefined;
  return {
    status: 200,
    body: evaluate(sets, type, body, {
      account: accountId,
      ...(org ? { org } : {}),
      ...(project ? { project } : {}),
      action,
    }),
  };
}
