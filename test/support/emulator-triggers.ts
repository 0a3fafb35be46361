import { stringify } from 'yaml';
import type { Store, StoredResource } from './emulator-store.js';

/**
 * Triggers as the platform saves them (platform-facts-3.md §2 D3, D4, D6; CORE pipeline-service/modules/ng-triggers):
 * - `withServiceV2` is kept from the create; without it an artifact or manifest trigger is checked against the
 *   service-v1 layout, and on a pipeline using service v2 the check fails;
 * - the check runs after the save: a failure sets `enabled: false` (in the stored YAML too) and keeps the reason in
 *   `triggerStatus.validationStatus` (NGTriggerServiceImpl.java L1239-1300); the write still answers 200;
 * - a trigger of a Git-stored pipeline needs `pipelineBranchName` (L1033-1038);
 * - a webhook trigger's webhook is registered after the answer; two registered for one repository at once make a
 *   duplicate webhook (terraform-provider-harness pauses 5 s after each create, PIPE-22127).
 */

type Json = Record<string, unknown>;
const asRecord = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Whether a pipeline's stages use service v2 (`spec.service`) rather than the v1 `spec.serviceConfig`. */
function usesServiceV2(pipeline: StoredResource): boolean {
  const stages = Array.isArray(pipeline.body.stages) ? pipeline.body.stages : [];
  return stages.some((entry) => {
    const spec = asRecord(asRecord(asRecord(entry)?.stage)?.spec);
    return spec !== undefined && spec.service !== undefined && spec.serviceConfig === undefined;
  });
}

/** Why the platform's validation fails the trigger, or undefined (ArtifactTriggerValidator.java L64-76, BuildTriggerHelper.java L177-186). */
export function validationFailure(
  store: Store,
  trigger: Json,
  scope: { org?: string; project?: string },
  withServiceV2: boolean,
): string | undefined {
  const pipeline = store.get('pipeline', scope.org, scope.project, str(trigger.pipelineIdentifier) ?? '');
  if (!pipeline) return `Pipeline with identifier ${str(trigger.pipelineIdentifier)} could not be fetched`;
  const type = str(asRecord(trigger.source)?.type);
  if (withServiceV2 || (type !== 'Artifact' && type !== 'Manifest') || !usesServiceV2(pipeline)) return undefined;
  return type === 'Artifact'
    ? 'Artifact With Given StageIdentifier and ArtifactRef in Trigger does not exist in Pipeline'
    : 'Manifest With Given StageIdentifier and ManifestRef in Trigger does not exist in Pipeline';
}

/** The body and YAML the platform stores after validating: `enabled: false` written into both on a failure. */
export function afterValidation(
  body: Json,
  yaml: string,
  failure: string | undefined,
): { body: Json; yaml: string; validation: NonNullable<StoredResource['validation']> } {
  if (!failure) return { body, yaml, validation: { statusResult: 'SUCCESS' } };
  const disabled = { ...body, enabled: false };
  return {
    body: disabled,
    yaml: stringify({ trigger: disabled }),
    validation: { statusResult: 'FAILED', detailedMessage: failure },
  };
}

/** A trigger of a Git-stored pipeline without `pipelineBranchName`: the message of the refusal, or undefined. */
export function missingBranch(
  store: Store,
  trigger: Json,
  scope: { org?: string; project?: string },
): string | undefined {
  const pipeline = store.get('pipeline', scope.org, scope.project, str(trigger.pipelineIdentifier) ?? '');
  return pipeline?.git && !str(trigger.pipelineBranchName) ? 'pipelineBranchName is missing or is empty.' : undefined;
}

/** `data` of GET `/triggers/{id}/details` (NGTriggerDetailsResponseDTO): the trigger and its `triggerStatus`. */
export function triggerDetailsData(r: StoredResource) {
  const source = asRecord(r.body.source) ?? {};
  return {
    name: str(r.body.name),
    identifier: r.identifier,
    type: str(source.type),
    yaml: r.raw,
    enabled: r.body.enabled !== false,
    tags: r.body.tags ?? {},
    triggerStatus: {
      validationStatus: r.validation ?? { statusResult: 'SUCCESS' },
      status: r.validation?.statusResult === 'FAILED' ? 'FAILED' : 'SUCCESS',
    },
  };
}

/** The repository a webhook trigger listens to: `connectorRef` and `repoName` of `source.spec.spec.spec` (Github Push, ...). */
export function webhookRepo(trigger: Json): string | undefined {
  const source = asRecord(trigger.source);
  if (str(source?.type) !== 'Webhook') return undefined;
  let spec = asRecord(source?.spec);
  while (spec && !str(spec.connectorRef)) spec = asRecord(spec.spec);
  return `${str(spec?.connectorRef) ?? '_'}/${str(spec?.repoName) ?? '_'}`;
}

/**
 * Webhook registration after the answer: each takes `ms`; one starting while another for the same repository is
 * under way registers a second webhook there.
 */
export class WebhookRegistrar {
  duplicates = 0;
  readonly registered: string[] = [];
  readonly #pending = new Map<string, number>();
  readonly #ms: number;

  constructor(ms: number) {
    this.#ms = ms;
  }

  register(repo: string): void {
    const pending = this.#pending.get(repo) ?? 0;
    if (pending > 0) this.duplicates++;
    this.registered.push(repo);
    this.#pending.set(repo, pending + 1);
    setTimeout(() => this.#pending.set(repo, (this.#pending.get(repo) ?? 1) - 1), this.#ms);
  }
}
