import type { Client, RemoteResource } from './client.js';
import type { PublishDocument } from './document.js';
import type { ResourceKind } from '../catalog/kinds.js';
import { keyName, type ResourceKey } from '../catalog/resource-key.js';
import type { GitTarget } from './endpoints.js';
import { ApiError, isAlreadyExists, isGitConflict, isLimit, isNotFound, isVersionConflict } from './envelope.js';
import { runPool } from './pool.js';
import { publishWaves } from './publish-order.js';
import type { PublishItem } from './publish-item.js';
import { semanticDiff, type Change } from './semantic-diff.js';

export type Outcome = 'created' | 'updated' | 'unchanged' | 'failed';

/** Why a document failed, in words a CI job can match on (`--json` `error.reason`). */
export type FailureReason =
  | 'denied by policy'
  | 'no entity in the answer'
  | 'version conflict'
  | 'git conflict'
  | 'limit'
  | 'storage mismatch'
  | 'drift';

export interface DocumentFailure {
  readonly message: string;
  readonly status?: number;
  readonly code?: string;
  readonly correlationId?: string;
  readonly attempts?: number;
  readonly reason?: FailureReason;
}

/** A document publish will not write, for a reason of its own rather than a platform error. */
export class DocumentRefusal extends Error {
  override name = 'DocumentRefusal';
  readonly reason: FailureReason;
  readonly changes?: readonly Change[];
  constructor(reason: FailureReason, message: string, changes?: readonly Change[]) {
    super(message);
    this.reason = reason;
    if (changes) this.changes = changes;
  }
}

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
}

/** Why a run stopped before the end: every later request would fail the same way. */
export interface StopReason {
  readonly kind: 'unauthorized' | 'forbidden' | 'untrusted-certificate' | 'unreachable';
  readonly message: string;
}

/** Where Git-stored pipelines go (`--store remote`): connector, repository, branch, and each one's file. */
export interface GitSettings {
  readonly connectorRef: string;
  readonly repoName: string;
  readonly branch: string;
  /** The file of a new pipeline; an existing one stays where the platform says it is. */
  readonly filePath: (id: ResourceKey) => string;
}

export interface PublishReport {
  readonly dryRun: boolean;
  readonly results: readonly DocumentResult[];
  readonly stopped?: StopReason;
}

export interface PublishOptions {
  readonly dryRun?: boolean;
  /** Documents of one kind in flight at once; default 4. */
  readonly concurrency?: number;
  readonly onStart?: (item: PublishItem) => void;
  readonly onResult?: (result: DocumentResult) => void;
  /** `remote`: pipelines are kept in Git (`git` says where); default `inline`, in the platform. */
  readonly store?: 'inline' | 'remote';
  readonly git?: GitSettings;
  /** Refuse to overwrite a document whose deployed state differs from both ours and the last published one. */
  readonly failOnDrift?: boolean;
  /** The document as the last publish sent it, when a record of it is kept (drift needs it). */
  readonly lastPublished?: (item: PublishItem) => Record<string, unknown> | undefined;
}

/** The platform's own layout for Git-stored pipelines. */
export const defaultPipelinePath = (id: ResourceKey): string => `.harness/orgs/${id.org}/projects/${id.project}/pipelines/${id.identifier}.yaml`;

/** Names pipewright and the source, so `git log` says where a commit came from. */
export const commitMessage = (item: PublishItem): string =>
  `pipewright: publish pipeline ${item.document.id.identifier} from ${item.source ?? item.file}`;

/** Advice after the server's words, for the answers a user must act on differently. */
function reasonOf(error: unknown): { reason?: FailureReason; advice?: string } {
  if (error instanceof DocumentRefusal) return { reason: error.reason };
  if (!(error instanceof ApiError)) return {};
  if (error.kind === 'denied') return { reason: 'denied by policy', advice: 'change the document to satisfy the policy, or ask whoever owns the policy set' };
  if (error.kind === 'rejected' && error.status === 200) return { reason: 'no entity in the answer' };
  if (isVersionConflict(error))
    return { reason: 'version conflict', advice: 'it was changed again between the re-read and the retry; run publish again' };
  if (isGitConflict(error))
    return {
      reason: 'git conflict',
      advice: 'the file changed in Git since publish read it (a push or an edit in the UI); nothing was overwritten: run publish --dry-run to see the difference, then publish again',
    };
  if (isLimit(error)) return { reason: 'limit', advice: 'a licence or plan limit was hit; it was not retried: raise the limit or remove unused resources' };
  return {};
}

const failure = (error: unknown): DocumentFailure => {
  const { reason, advice } = reasonOf(error);
  const extra = advice ? `; ${advice}` : '';
  if (error instanceof ApiError)
    return {
      // Which call failed matters when reading a report: the read, the create or the update.
      message: `${
        error.message.includes(error.request)
          ? error.message
          : `${error.message} (${error.request}${error.attempts > 1 && !error.message.includes('gave up') ? `, after ${error.attempts} attempts` : ''})`
      }${extra}`,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.code !== undefined ? { code: error.code } : {}),
      ...(error.correlationId !== undefined ? { correlationId: error.correlationId } : {}),
      attempts: error.attempts,
      ...(reason ? { reason } : {}),
    };
  return { message: error instanceof Error ? error.message : String(error), ...(reason ? { reason } : {}) };
};

type Rest = Omit<DocumentResult, 'file' | 'kind' | 'name' | 'id'>;
const withCorrelation = (id: string | undefined) => (id ? { correlationId: id } : {});

/** Moving a pipeline between the platform and Git is a deliberate act: publish says so and leaves it. */
function checkStorage(item: PublishItem, remote: RemoteResource, options: PublishOptions): void {
  const storage = remote.storage;
  if (!storage) return;
  const wanted = options.store ?? 'inline';
  const where = storage.store === 'remote' ? `in Git (${[storage.repoName, storage.filePath].filter(Boolean).join(', ') || 'a repository'})` : 'inline, in the platform';
  if (storage.store !== wanted)
    throw new DocumentRefusal(
      'storage mismatch',
      `pipeline ${item.document.id.identifier} is stored ${where}, and this run publishes ${wanted === 'remote' ? 'to Git (--store remote)' : 'inline'}: it was left as it is; moving a pipeline ${wanted === 'remote' ? 'into Git' : 'out of Git'} is done in the platform (Move to Git / update-git-metadata), then publish ${wanted === 'remote' ? 'with --store remote' : 'without --store remote'}`,
    );
  if (wanted === 'remote' && options.git && storage.repoName && storage.repoName !== options.git.repoName)
    throw new DocumentRefusal(
      'storage mismatch',
      `pipeline ${item.document.id.identifier} is stored in Git repository ${storage.repoName}, not ${options.git.repoName} (--repo): it was left as it is; move it in the platform, or publish with --repo ${storage.repoName}`,
    );
}

/** Deployed state that is neither ours nor what we last published: someone changed it outside pipewright. */
function checkDrift(item: PublishItem, remote: RemoteResource, options: PublishOptions): void {
  if (!options.failOnDrift) return;
  const last = options.lastPublished?.(item);
  if (!last) return;
  const drift = semanticDiff(last, remote.document);
  if (drift.length > 0)
    throw new DocumentRefusal(
      'drift',
      `changed on the platform since the last publish (${drift.length} difference${drift.length === 1 ? '' : 's'} from what pipewright published): not overwritten because of --fail-on-drift; bring the change into the source, or publish without --fail-on-drift to replace it`,
      drift,
    );
}

const gitTarget = (item: PublishItem, git: GitSettings, filePath?: string): GitTarget => ({
  connectorRef: git.connectorRef,
  repoName: git.repoName,
  branch: git.branch,
  filePath: filePath ?? git.filePath(item.document.id),
  commitMsg: commitMessage(item),
});

/**
 * A project update with the version the GET saw (`If-Match`). On a stale version, one re-read: unchanged if the
 * platform now holds what we want, otherwise one more update with the new version.
 */
async function updateProject(client: Client, item: PublishItem, remote: RemoteResource, changes: readonly Change[]): Promise<Rest> {
  const { document } = item;
  try {
    const updated = await client.update(document, remote.etag ? { etag: remote.etag } : {});
    return { outcome: 'updated', changes, ...withCorrelation(updated.correlationId) };
  } catch (error) {
    if (isNotFound(error)) return createOrUpdate(client, item);
    if (!isVersionConflict(error)) throw error;
  }
  const again = await client.read(document.id);
  if (!again) return createOrUpdate(client, item);
  const still = semanticDiff(document.value, again.document);
  if (still.length === 0) return { outcome: 'unchanged', ...withCorrelation(again.correlationId) };
  const updated = await client.update(document, again.etag ? { etag: again.etag } : {});
  return { outcome: 'updated', changes: still, ...withCorrelation(updated.correlationId) };
}

async function createOrUpdate(client: Client, item: PublishItem): Promise<Rest> {
  const written = await client.upsert(item.document);
  return { outcome: written.outcome, ...withCorrelation(written.correlationId) };
}

/** Remote pipelines: created with the Git parameters, updated naming the blob and commit read, never blindly. */
async function writeRemote(client: Client, item: PublishItem, git: GitSettings, remote: RemoteResource | undefined, changes?: readonly Change[]): Promise<Rest> {
  const { document } = item;
  if (remote) {
    const storage = remote.storage;
    const target = gitTarget(item, git, storage?.filePath);
    try {
      const updated = await client.update(document, { git: target, gitVersion: storage?.version ?? {} });
      return { outcome: 'updated', ...(changes ? { changes } : {}), ...withCorrelation(updated.correlationId) };
    } catch (error) {
      // A retried update whose first answer was lost meets its own commit as a 409: the file holds our text.
      if (!isGitConflict(error) || !(error instanceof ApiError) || error.attempts < 2) throw error;
      const found = await client.read(document.id, { branch: git.branch });
      if (found && semanticDiff(document.value, found.document).length === 0) return { outcome: 'updated', ...(changes ? { changes } : {}), ...withCorrelation(found.correlationId) };
      throw error;
    }
  }
  try {
    const created = await client.create(document, { git: gitTarget(item, git) });
    return { outcome: 'created', ...withCorrelation(created.correlationId) };
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  // A retried create whose first answer was lost finds its own write; anything else is someone else's.
  const found = await client.read(document.id, { branch: git.branch });
  if (found && semanticDiff(document.value, found.document).length === 0) return { outcome: 'created', ...withCorrelation(found.correlationId) };
  throw new DocumentRefusal('git conflict', `pipeline ${document.id.identifier} appeared in Git while it was being created, with other content: not overwritten; run publish again to compare it`);
}

/** Brings one document to the platform: read, compare, then create or update, or leave it. */
async function publishOne(client: Client, item: PublishItem, options: PublishOptions): Promise<Rest> {
  const dryRun = options.dryRun ?? false;
  const { document } = item;
  const git = document.id.kind === 'pipeline' && options.store === 'remote' ? options.git : undefined;
  if (document.id.kind === 'pipeline' && options.store === 'remote' && !git) throw new TypeError('store remote needs the Git settings');
  const remote = await client.read(document.id, git ? { branch: git.branch } : {});
  if (remote) {
    checkStorage(item, remote, options);
    const changes = semanticDiff(document.value, remote.document);
    if (changes.length === 0) return { outcome: 'unchanged', ...withCorrelation(remote.correlationId) };
    checkDrift(item, remote, options);
    if (dryRun) return { outcome: 'updated', changes };
    if (git) return writeRemote(client, item, git, remote, changes);
    if (document.id.kind === 'project') return updateProject(client, item, remote, changes);
    try {
      const updated = await client.update(document);
      return { outcome: 'updated', changes, ...withCorrelation(updated.correlationId) };
    } catch (error) {
      // Deleted between the read and the write: create it again.
      if (!isNotFound(error)) throw error;
    }
  }
  if (dryRun) return { outcome: 'created' };
  if (git) return writeRemote(client, item, git, undefined);
  return createOrUpdate(client, item);
}

/**
 * A template version marked stable: after its document, the platform's stable version is read (a GET without
 * `versionLabel` answers it) and, when it is another one, this one is made stable with its own call. Already
 * stable: nothing is written, so a re-publish stays a no-op.
 */
async function withStable(client: Client, item: PublishItem, rest: Rest, dryRun: boolean): Promise<Rest> {
  const { version, ...unversioned } = item.document.id;
  if (!item.stable || !version) return rest;
  const current = await client.read(unversioned);
  const body = current?.document.template as Record<string, unknown> | undefined;
  const stableNow = body?.versionLabel === undefined ? undefined : String(body.versionLabel);
  if (stableNow === version) return rest;
  const change: Change = { path: 'stable version', op: 'changed', local: version, remote: stableNow ?? null };
  const made = dryRun ? undefined : await client.makeStable(item.document.id);
  return {
    ...rest,
    outcome: rest.outcome === 'unchanged' ? 'updated' : rest.outcome,
    changes: [...(rest.changes ?? []), change],
    ...(rest.correlationId ? {} : withCorrelation(made?.correlationId)),
  };
}

const STOPPING: ReadonlySet<string> = new Set(['unauthorized', 'forbidden', 'untrusted-certificate', 'unreachable']);

/**
 * Publishes kind after kind in the table's order (what a document needs is there before it: its project, the
 * environment of an infrastructure, the templates of a pipeline, the pipeline of an input set), a few at a time
 * within a kind (see publish-order.ts). Every document ends in the report. A 401, 403 or untrusted certificate stops the run:
 * the rest would fail the same way, and hammering the platform with a bad key helps no one.
 */
export async function publishDocuments(client: Client, items: readonly PublishItem[], options: PublishOptions = {}): Promise<PublishReport> {
  const dryRun = options.dryRun ?? false;
  if (options.store === 'remote' && !options.git) throw new TypeError('store remote needs the Git settings');
  const results: DocumentResult[] = [];
  let stopped: StopReason | undefined;
  const finish = (item: PublishItem, rest: Omit<DocumentResult, 'file' | 'kind' | 'name' | 'id'>) => {
    const { id } = item.document;
    const result: DocumentResult = { file: item.file, kind: id.kind, name: keyName(id), id, ...rest };
    results.push(result);
    options.onResult?.(result);
  };
  for (const batch of publishWaves(items)) {
    await runPool(
      batch,
      options.concurrency ?? 4,
      async (item) => {
        options.onStart?.(item);
        try {
          finish(item, await withStable(client, item, await publishOne(client, item, options), dryRun));
        } catch (error) {
          if (error instanceof ApiError && STOPPING.has(error.kind) && !stopped)
            stopped = { kind: error.kind as StopReason['kind'], message: error.message };
          const changes = error instanceof DocumentRefusal && error.changes ? { changes: error.changes } : {};
          finish(item, { outcome: 'failed', error: failure(error), ...changes });
        }
      },
      {
        stopped: () => stopped !== undefined,
        skip: (item) => finish(item, { outcome: 'failed', error: { message: `not attempted: the run stopped after ${stopped!.message}` } }),
      },
    );
  }
  // Reports list documents in publish order, not in the order requests happened to finish.
  const order = new Map(items.map((item, i) => [item.file, i]));
  results.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0));
  return { dryRun, results, ...(stopped ? { stopped } : {}) };
}

export const countOutcomes = (results: readonly DocumentResult[]): Record<Outcome, number> => {
  const counts: Record<Outcome, number> = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  for (const r of results) counts[r.outcome]++;
  return counts;
};
