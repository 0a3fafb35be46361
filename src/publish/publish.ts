import { asRecord as asObject, asText as text } from '../platform/answers.js';
import { SoftDeletedError, type Client, type RemoteResource, type WriteOptions } from '../platform/client.js';
import type { ResourceKind } from '../catalog/kinds.js';
import { keyId, keyName, type ResourceKey } from '../catalog/resource-key.js';
import { defaultGitFile, hasPolicyType, storableInGit, updatableInGit } from '../platform/endpoints.js';
import { evaluationVerdicts, policySetsText, type PolicySetVerdict } from '../platform/governance.js';
import {
  ApiError,
  isGovernanceUnavailable,
  isNotFound,
  isStopping,
  isVersionConflict,
  type Envelope,
  type StoppingKind,
} from '../platform/envelope.js';
import { DependencyCheck } from './dependencies.js';
import { checkCreatableInGit, checkStorage, checkWrittenInline, GitWriter, type GitSettings } from './git-write.js';
import { KeyedLock } from './keyed-lock.js';
import { ListReads } from './list-reads.js';
import { runPool } from '../core/pool.js';
import { DocumentRefusal, failure, type DocumentFailure } from './publish-failure.js';
import { publishWaves } from './publish-order.js';
import type { OrphanResult } from './prune.js';
import type { PublishItem } from './publish-item.js';
import { semanticDiff, type Change } from './semantic-diff.js';
import { checkTriggerEnabled } from './trigger-state.js';

export type Outcome = 'created' | 'updated' | 'unchanged' | 'failed';

export interface DocumentResult {
  readonly file: string;
  readonly kind: ResourceKind;
  readonly name: string;
  readonly id: ResourceKey;
  /** With dry-run, what publishing would do. */
  readonly outcome: Outcome;
  /** What differs from the platform (updates; with dry-run also creates, as additions). */
  readonly changes?: readonly Change[];
  readonly correlationId?: string;
  readonly error?: DocumentFailure;
  /** With dry-run: what the document refers to that is not there, which the platform accepts but a run fails on. */
  readonly warnings?: readonly string[];
  /** With `--policy-check`: what the scope's policy sets said of the document before any write. */
  readonly policy?: PolicyCheck;
}

/**
 * The platform's evaluation of a document against the scope's policy sets (`pass`, `warning`, `error`: denied), or
 * `unavailable` (the account has no governance module: `reason` says what the platform answered).
 * @public report-text.ts's exported functions return it, so their declarations must name it.
 */
export interface PolicyCheck {
  readonly status: string;
  readonly sets: readonly PolicySetVerdict[];
  readonly reason?: string;
}

/** Why a run stopped before the end: every later request would fail the same way. */
interface StopReason {
  readonly kind: StoppingKind;
  readonly message: string;
}

export interface PublishReport {
  readonly dryRun: boolean;
  /** Requests the run sent to the platform (retries included). */
  readonly requests?: number;
  readonly results: readonly DocumentResult[];
  readonly stopped?: StopReason;
  /** Resources an earlier publish recorded whose source is gone: listed, or with `--prune` deleted (prune.ts). */
  readonly orphans?: readonly OrphanResult[];
}

export interface PublishOptions {
  readonly dryRun?: boolean;
  /** Documents of one kind in flight at once; default 4. */
  readonly concurrency?: number;
  readonly onStart?: (item: PublishItem) => void;
  readonly onResult?: (result: DocumentResult) => void;
  /** `remote`: pipelines and their input sets are kept in Git (`git` says where); default `inline`, in the platform. */
  readonly store?: 'inline' | 'remote';
  readonly git?: GitSettings;
  /** Refuse to overwrite a document whose deployed state differs from both ours and the last published one. */
  readonly failOnDrift?: boolean;
  /** The document as the last publish sent it, when a record of it is kept (drift needs it). */
  readonly lastPublished?: (item: PublishItem) => Record<string, unknown> | undefined;
  /**
   * What an earlier run sent for the document and never heard back about (its answer was lost): the platform
   * holding exactly that is pipewright's own write, not drift.
   */
  readonly unconfirmed?: (item: PublishItem) => Record<string, unknown> | undefined;
  /** Told just before a document's write is sent (the record journals it: the answer may never come). */
  readonly onSend?: (item: PublishItem) => void;
  /**
   * The wait after creating a webhook trigger before the next one is created: the platform registers the webhook
   * after answering, and triggers created meanwhile can register duplicates (terraform-provider-harness waits 5 s,
   * PIPE-22127). Default 5000 ms.
   */
  readonly webhookPauseMs?: number;
  /**
   * Before writing, have the platform evaluate the scope's policy sets against each pipeline, template and connector
   * (`POST /pm/api/v1/evaluate-by-type`): a denied one is not written (with `dryRun`: would fail), warnings are
   * reported.
   */
  readonly policyCheck?: boolean;
  /** Told once when `policyCheck` finds policy evaluation unavailable (no governance module): a warning, not a failure. */
  readonly onWarning?: (message: string) => void;
  /**
   * Where a document lives in Git when it keeps a place of its own (config `gitFiles`, written by pull): it is read
   * from that branch and updated there, whatever `store` says for the others.
   */
  readonly gitFileOf?: (id: ResourceKey) => GitFileLocation | undefined;
}

/** One document's place in Git. */
export interface GitFileLocation {
  readonly connectorRef: string;
  readonly repoName: string;
  readonly branch: string;
  readonly filePath: string;
}

const DEFAULT_WEBHOOK_PAUSE_MS = 5_000;

type Rest = Omit<DocumentResult, 'file' | 'kind' | 'name' | 'id'>;
const withCorrelation = (id: string | undefined) => (id ? { correlationId: id } : {});

/** Deployed state that is neither ours nor what we last published: someone changed it outside pipewright. */
function checkDrift(item: PublishItem, remote: RemoteResource, options: PublishOptions): void {
  if (!options.failOnDrift) return;
  const last = options.lastPublished?.(item);
  const sent = options.unconfirmed?.(item);
  if (!last && !sent) return;
  if (sent && semanticDiff(sent, remote.document).length === 0) return;
  const drift = semanticDiff(last ?? sent!, remote.document);
  if (drift.length > 0)
    throw new DocumentRefusal(
      'drift',
      `changed on the platform since the last publish (${drift.length} difference${drift.length === 1 ? '' : 's'} from what pipewright published): not overwritten because of --fail-on-drift; bring the change into the source, or publish without --fail-on-drift to replace it`,
      { changes: drift },
    );
}

const isWebhookTrigger = (item: PublishItem): boolean =>
  item.document.id.kind === 'trigger' && asObject(asObject(item.document.value.trigger)?.source)?.type === 'Webhook';

/** The state of one run: what it learnt about the platform, and the locks its writes share. */
class Run {
  readonly client: Client;
  readonly options: PublishOptions;
  readonly dryRun: boolean;
  readonly git: GitWriter | undefined;
  readonly #webhooks = new KeyedLock();
  /** `--policy-check`: each document's evaluation. */
  readonly policies = new Map<PublishItem, PolicyCheck>();
  /** `--policy-check` on an account without the governance module: what the platform answered, once. */
  policyUnavailable: string | undefined;
  /** How each pipeline of the run is stored, as its GET said (a trigger of a Git-stored one needs a branch). */
  readonly #pipelineStore = new Map<string, 'inline' | 'remote'>();

  /** Dry runs: what each write depends on, checked against the run and the platform. */
  readonly dependencies: DependencyCheck | undefined;
  /** The platform's state of documents whose kinds' lists carry them, read a page at a time. */
  readonly lists: ListReads;

  constructor(client: Client, items: readonly PublishItem[], options: PublishOptions) {
    this.client = client;
    this.options = options;
    this.dryRun = options.dryRun ?? false;
    this.git = options.store === 'remote' && options.git ? new GitWriter(client, options.git) : undefined;
    this.dependencies = this.dryRun ? new DependencyCheck(client, items) : undefined;
    this.lists = new ListReads(client, options.concurrency ?? 4);
  }

  /** Writers of documents that keep their own place in Git (`gitFiles`), one per connector, repository and branch. */
  readonly #located = new Map<string, GitWriter>();

  /**
   * Git settings for this document: where the config says it lives (`gitFiles`, which pull writes, also for
   * services, environments and infrastructures), else pipelines and input sets with `--store remote`.
   */
  gitFor(item: PublishItem): GitWriter | undefined {
    const { kind } = item.document.id;
    if (!updatableInGit(kind)) return undefined;
    const place = this.options.gitFileOf?.(item.document.id);
    if (!place) return storableInGit(kind) ? this.git : undefined;
    const key = `${place.connectorRef}\u0000${place.repoName}\u0000${place.branch}`;
    let writer = this.#located.get(key);
    if (!writer) {
      const files = this.options.gitFileOf!;
      const fallback = this.options.git?.filePath;
      const settings: GitSettings = {
        connectorRef: place.connectorRef,
        repoName: place.repoName,
        branch: place.branch,
        // A resource deleted on the platform is created again at the file it had.
        filePath: (id) => files(id)?.filePath ?? fallback?.(id) ?? defaultGitFile(id),
      };
      this.#located.set(key, (writer = new GitWriter(this.client, settings)));
    }
    return writer;
  }

  notePipeline(id: ResourceKey, store: 'inline' | 'remote'): void {
    this.#pipelineStore.set(keyId(id), store);
  }

  /**
   * A trigger of a Git-stored pipeline must name the branch its runs read the pipeline from, or the platform
   * refuses it (NGTriggerServiceImpl.java L1033-1038, platform-facts-3.md §2 D6): said before any request.
   */
  checkTriggerBranch(item: PublishItem): void {
    const { id, value } = item.document;
    if (id.kind !== 'trigger') return;
    const body = asObject(value.trigger);
    const pipeline = keyId({ kind: 'pipeline', org: id.org, project: id.project, identifier: id.parent ?? '' });
    const store = this.#pipelineStore.get(pipeline) ?? this.options.store ?? 'inline';
    if (store === 'remote' && !text(body?.pipelineBranchName))
      throw new DocumentRefusal(
        'needs pipelineBranchName',
        `trigger ${id.identifier} runs pipeline ${id.parent}, which is stored in Git, and names no pipelineBranchName: the platform refuses such a trigger; give it pipelineBranchName: ${this.options.git?.branch ?? '<branch>'} (the branch its runs read the pipeline from)`,
      );
  }

  /** Creates of webhook triggers one at a time, each followed by a pause (see `webhookPauseMs`). */
  webhookCreate<T>(item: PublishItem, create: () => Promise<T>): Promise<T> {
    if (!isWebhookTrigger(item)) return create();
    const pause = this.options.webhookPauseMs ?? DEFAULT_WEBHOOK_PAUSE_MS;
    return this.#webhooks.run('webhook', async () => {
      const result = await create();
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
      return result;
    });
  }
}

/** What a write's answer says beyond "stored": a trigger the platform turned off is reported, not counted as done. */
async function written(
  run: Run,
  item: PublishItem,
  outcome: 'created' | 'updated',
  envelope: Envelope | { correlationId?: string; data?: unknown },
  changes?: readonly Change[],
): Promise<Rest> {
  await checkTriggerEnabled(run.client, item.document, envelope as Envelope, outcome);
  return { outcome, ...(changes ? { changes } : {}), ...withCorrelation(envelope.correlationId) };
}

/**
 * The platform's create-or-update (`Client.upsert`), with what publish adds: webhook triggers created one at a
 * time, the answer's trigger state checked, and a soft-deleted identifier reported as this document's refusal.
 */
async function createOrUpdate(run: Run, item: PublishItem): Promise<Rest> {
  try {
    const result = await run.client.upsert(item.document, {
      aroundCreate: (create) => run.webhookCreate(item, create),
    });
    return await written(run, item, result.outcome, result.answer);
  } catch (error) {
    if (!(error instanceof SoftDeletedError)) throw error;
    throw new DocumentRefusal(
      'soft deleted',
      error.message,
      error.correlationId ? { correlationId: error.correlationId } : {},
    );
  }
}

/**
 * A project update with the version the GET saw (`If-Match`). On a stale version, one re-read: unchanged if the
 * platform now holds what we want, otherwise one more update with the new version.
 */
async function updateProject(
  run: Run,
  item: PublishItem,
  remote: RemoteResource,
  changes: readonly Change[],
): Promise<Rest> {
  const { client } = run;
  const { document } = item;
  try {
    const updated = await client.update(document, remote.etag ? { etag: remote.etag } : {});
    return { outcome: 'updated', changes, ...withCorrelation(updated.correlationId) };
  } catch (error) {
    if (isNotFound(error)) return createOrUpdate(run, item);
    if (!isVersionConflict(error)) throw error;
  }
  const again = await client.read(document.id);
  if (!again) return createOrUpdate(run, item);
  const still = semanticDiff(document.value, again.document);
  if (still.length === 0) return { outcome: 'unchanged', ...withCorrelation(again.correlationId) };
  const updated = await client.update(document, again.etag ? { etag: again.etag } : {});
  return { outcome: 'updated', changes: still, ...withCorrelation(updated.correlationId) };
}

/**
 * `--policy-check`: the scope's policy sets evaluated against the document before any write. A denial stops the
 * write (a dry run: would fail), and is reported with the policy sets and their messages either way.
 */
async function checkPolicies(run: Run, item: PublishItem, writes: boolean): Promise<PolicyCheck | undefined> {
  if (!run.options.policyCheck || !hasPolicyType(item.document.id.kind)) return undefined;
  const evaluation = await evaluate(run, item);
  if (!evaluation) {
    const check: PolicyCheck = { status: 'unavailable', sets: [], reason: run.policyUnavailable! };
    run.policies.set(item, check);
    return check;
  }
  const check: PolicyCheck = { status: String(evaluation.status), sets: evaluationVerdicts(evaluation) };
  run.policies.set(item, check);
  if (check.status === 'error' && writes) {
    const denied = check.sets.filter((set) => set.deny);
    const messages = denied.flatMap((set) => set.denials);
    const sets = denied.map((set) => set.policySet ?? set.policySetId ?? 'a policy set');
    throw new PolicyDenial(
      `denied by policy (--policy-check, before writing): ${messages.length ? messages.join('; ') : 'the evaluation gives no reason'}${policySetsText(sets)}; ${run.dryRun ? 'the write would be refused' : 'nothing was written'}`,
      check,
    );
  }
  return check;
}

/**
 * The evaluation, or undefined when the account has no governance module (isGovernanceUnavailable): then the run
 * warns once, asks no more, and the documents are written without the pre-flight, as the platform would take them.
 */
async function evaluate(run: Run, item: PublishItem): Promise<Record<string, unknown> | undefined> {
  if (run.policyUnavailable !== undefined) return undefined;
  try {
    return await run.client.evaluatePolicies(item.document);
  } catch (error) {
    if (!isGovernanceUnavailable(error)) throw error;
    if (run.policyUnavailable === undefined) {
      run.policyUnavailable = (error as Error).message;
      run.options.onWarning?.(
        `policy evaluation unavailable: ${run.policyUnavailable} (the account has no governance module, or the policy service is not there); --policy-check evaluated nothing, and the documents are ${run.dryRun ? 'planned' : 'published'} without it`,
      );
    }
    return undefined;
  }
}

/** A write the policy pre-flight stopped. */
class PolicyDenial extends DocumentRefusal {
  readonly check: PolicyCheck;
  constructor(message: string, check: PolicyCheck) {
    super('denied by policy', message);
    this.check = check;
  }
}

/** Brings one document to the platform: read, compare, then create or update, or leave it. */
async function publishOne(run: Run, item: PublishItem): Promise<Rest> {
  const { client, options, dryRun } = run;
  const { document } = item;
  const git = run.gitFor(item);
  run.checkTriggerBranch(item);
  const listed = run.lists.take(item);
  const remote =
    listed === undefined
      ? await client.read(document.id, git ? { branch: git.settings.branch } : {})
      : (listed ?? undefined);
  const changes = remote ? semanticDiff(document.value, remote.document) : undefined;
  // Services and the like without a gitFiles entry are written inline: one in Git is refused below, if it changed.
  if (remote && (git || storableInGit(document.id.kind)))
    checkStorage(item, remote, git ? 'remote' : 'inline', git?.settings);
  await checkPolicies(run, item, changes === undefined || changes.length > 0);
  if (remote && changes) {
    if (document.id.kind === 'pipeline' && remote.storage) run.notePipeline(document.id, remote.storage.store);
    if (changes.length === 0) return { outcome: 'unchanged', ...withCorrelation(remote.correlationId) };
    if (!git) checkWrittenInline(item, remote);
    checkDrift(item, remote, options);
    if (dryRun) return { outcome: 'updated', changes };
    options.onSend?.(item);
    if (git) {
      const result = await git.write(item, remote, changes);
      return written(run, item, result.outcome, result, changes);
    }
    if (document.id.kind === 'project') return updateProject(run, item, remote, changes);
    const extra: WriteOptions = remote.public ? { public: true } : {};
    try {
      return await written(run, item, 'updated', await client.update(document, extra), changes);
    } catch (error) {
      // Deleted between the read and the write: create it again.
      if (!isNotFound(error)) throw error;
    }
  }
  if (document.id.kind === 'pipeline') run.notePipeline(document.id, git ? 'remote' : 'inline');
  if (git) checkCreatableInGit(item);
  if (dryRun) return { outcome: 'created' };
  options.onSend?.(item);
  if (git) {
    const result = await git.write(item, undefined);
    return written(run, item, result.outcome, result);
  }
  return createOrUpdate(run, item);
}

/**
 * A dry run's prediction for a write: "would fail" when the platform would refuse it for something it depends on
 * (its project, its pipeline, a template), with warnings for what a run of it would miss.
 */
async function planned(run: Run, item: PublishItem, rest: Rest): Promise<Rest> {
  if (!run.dependencies) return rest;
  if (rest.outcome === 'failed') {
    run.dependencies.noteFailed(item, rest.error?.reason ?? 'failed');
    return rest;
  }
  if (rest.outcome === 'unchanged') return rest;
  const { missing, warnings } = await run.dependencies.check(item);
  const withWarnings = warnings.length ? { warnings } : {};
  if (missing.length === 0) return { ...rest, ...withWarnings };
  const why = missing.length === 1 ? missing[0]! : missing.join('; ');
  run.dependencies.noteFailed(item, 'missing dependency');
  return {
    outcome: 'failed',
    ...(rest.changes ? { changes: rest.changes } : {}),
    error: {
      message: `${why}: the platform would refuse the ${rest.outcome === 'created' ? 'create' : 'update'}`,
      reason: 'missing dependency',
    },
    ...withWarnings,
  };
}

/**
 * A template version marked stable: after its document, the platform's stable version is read (a GET without
 * `versionLabel` answers it) and, when it is another one, this one is made stable with its own call. Already
 * stable: nothing is written, so a re-publish stays a no-op.
 */
async function withStable(run: Run, item: PublishItem, rest: Rest): Promise<Rest> {
  const { client, dryRun } = run;
  const { version, ...unversioned } = item.document.id;
  if (!item.stable || !version) return rest;
  // A version kept in Git (a gitFiles entry) is read and made stable on its branch.
  const branch = run.gitFor(item)?.settings.branch;
  const onBranch = branch ? { branch } : {};
  const current = await client.read(unversioned, onBranch);
  const body = current?.document.template as Record<string, unknown> | undefined;
  const stableNow = body?.versionLabel === undefined ? undefined : String(body.versionLabel);
  if (stableNow === version) return rest;
  const change: Change = { path: 'stable version', op: 'changed', local: version, remote: stableNow ?? null };
  const made = dryRun ? undefined : await client.makeStable(item.document.id, onBranch);
  return {
    ...rest,
    outcome: rest.outcome === 'unchanged' ? 'updated' : rest.outcome,
    changes: [...(rest.changes ?? []), change],
    ...(rest.correlationId ? {} : withCorrelation(made?.correlationId)),
  };
}

/**
 * Publishes kind after kind in the table's order (what a document needs is there before it: its project, the
 * environment of an infrastructure, the templates of a pipeline, the pipeline of an input set), a few at a time
 * within a kind (see publish-order.ts). Every document ends in the report. A 401, 403, an untrusted certificate or a
 * platform that stopped answering stops the run: the rest would fail the same way (the documents not reached are
 * "not attempted"), and hammering the platform with a bad key, or waiting out every retry of a dead one, helps no one.
 */
export async function publishDocuments(
  client: Client,
  items: readonly PublishItem[],
  options: PublishOptions = {},
): Promise<PublishReport> {
  if (options.store === 'remote' && !options.git) throw new TypeError('store remote needs the Git settings');
  const run = new Run(client, items, options);
  const results: DocumentResult[] = [];
  let stopped: StopReason | undefined;
  const finish = (item: PublishItem, rest: Omit<DocumentResult, 'file' | 'kind' | 'name' | 'id'>) => {
    const { id } = item.document;
    const result: DocumentResult = { file: item.file, kind: id.kind, name: keyName(id), id, ...rest };
    results.push(result);
    options.onResult?.(result);
  };
  for (const batch of publishWaves(items)) {
    if (!stopped) await run.lists.prefetch(batch);
    await runPool(
      batch,
      options.concurrency ?? 4,
      async (item) => {
        options.onStart?.(item);
        let rest: Rest;
        try {
          rest = await withStable(run, item, await publishOne(run, item));
        } catch (error) {
          if (error instanceof ApiError && isStopping(error.kind) && !stopped)
            stopped = { kind: error.kind, message: error.message };
          const changes = error instanceof DocumentRefusal && error.changes ? { changes: error.changes } : {};
          rest = { outcome: 'failed', error: failure(error), ...changes };
        }
        const policy = run.policies.get(item);
        finish(item, { ...(await planned(run, item, rest)), ...(policy ? { policy } : {}) });
      },
      {
        stopped: () => stopped !== undefined,
        skip: (item) =>
          finish(item, {
            outcome: 'failed',
            error: { message: `not attempted: the run stopped after ${stopped!.message}`, reason: 'not attempted' },
          }),
      },
    );
  }
  // Reports list documents in publish order, not in the order requests happened to finish.
  const order = new Map(items.map((item, i) => [item.file, i]));
  results.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0));
  return { dryRun: run.dryRun, results, requests: client.requests, ...(stopped ? { stopped } : {}) };
}

export const countOutcomes = (results: readonly DocumentResult[]): Record<Outcome, number> => {
  const counts: Record<Outcome, number> = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  for (const r of results) counts[r.outcome]++;
  return counts;
};
