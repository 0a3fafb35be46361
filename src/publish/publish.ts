import type { Client } from './client.js';
import { PUBLISH_ORDER, resourceName, type PublishDocument, type PublishKind, type ResourceId } from './document.js';
import { ApiError, isNotFound } from './envelope.js';
import { runPool } from './pool.js';
import { semanticDiff, type Change } from './semantic-diff.js';

export type Outcome = 'created' | 'updated' | 'unchanged' | 'failed';

export interface PublishItem {
  /** Path in the output folder, for reports. */
  readonly file: string;
  readonly document: PublishDocument;
}

export interface DocumentFailure {
  readonly message: string;
  readonly status?: number;
  readonly code?: string;
  readonly correlationId?: string;
  readonly attempts?: number;
}

export interface DocumentResult {
  readonly file: string;
  readonly kind: PublishKind;
  readonly name: string;
  readonly id: ResourceId;
  /** With dry-run, what publishing would do. */
  readonly outcome: Outcome;
  /** What differs from the platform (updates; with dry-run also creates, as additions). */
  readonly changes?: readonly Change[];
  readonly correlationId?: string;
  readonly error?: DocumentFailure;
}

/** Why a run stopped before the end: every later request would fail the same way. */
export interface StopReason {
  readonly kind: 'unauthorized' | 'forbidden' | 'untrusted-certificate';
  readonly message: string;
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
}

const failure = (error: unknown): DocumentFailure => {
  if (error instanceof ApiError)
    return {
      // Which call failed matters when reading a report: the read, the create or the update.
      message: error.message.includes(error.request)
        ? error.message
        : `${error.message} (${error.request}${error.attempts > 1 && !error.message.includes('gave up') ? `, after ${error.attempts} attempts` : ''})`,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.code !== undefined ? { code: error.code } : {}),
      ...(error.correlationId !== undefined ? { correlationId: error.correlationId } : {}),
      attempts: error.attempts,
    };
  return { message: error instanceof Error ? error.message : String(error) };
};

/** Brings one document to the platform: read, compare, then create or update, or leave it. */
async function publishOne(client: Client, item: PublishItem, dryRun: boolean): Promise<Omit<DocumentResult, 'file' | 'kind' | 'name' | 'id'>> {
  const { document } = item;
  const remote = await client.read(document.id);
  if (remote) {
    const changes = semanticDiff(document.value, remote.document);
    if (changes.length === 0) return { outcome: 'unchanged', ...(remote.correlationId ? { correlationId: remote.correlationId } : {}) };
    if (dryRun) return { outcome: 'updated', changes };
    try {
      const updated = await client.update(document);
      return { outcome: 'updated', changes, ...(updated.correlationId ? { correlationId: updated.correlationId } : {}) };
    } catch (error) {
      // Deleted between the read and the write: create it again.
      if (!isNotFound(error)) throw error;
    }
  }
  if (dryRun) return { outcome: 'created' };
  const written = await client.upsert(document);
  return { outcome: written.outcome, ...(written.correlationId ? { correlationId: written.correlationId } : {}) };
}

const STOPPING: ReadonlySet<string> = new Set(['unauthorized', 'forbidden', 'untrusted-certificate']);

/**
 * Publishes projects, then connectors, then pipelines (a connector or pipeline needs its project), a few at a
 * time within a kind. Every document ends in the report. A 401, 403 or untrusted certificate stops the run:
 * the rest would fail the same way, and hammering the platform with a bad key helps no one.
 */
export async function publishDocuments(client: Client, items: readonly PublishItem[], options: PublishOptions = {}): Promise<PublishReport> {
  const dryRun = options.dryRun ?? false;
  const results: DocumentResult[] = [];
  let stopped: StopReason | undefined;
  const finish = (item: PublishItem, rest: Omit<DocumentResult, 'file' | 'kind' | 'name' | 'id'>) => {
    const { id } = item.document;
    const result: DocumentResult = { file: item.file, kind: id.kind, name: resourceName(id), id, ...rest };
    results.push(result);
    options.onResult?.(result);
  };
  for (const kind of PUBLISH_ORDER) {
    const batch = items.filter((item) => item.document.id.kind === kind);
    await runPool(
      batch,
      options.concurrency ?? 4,
      async (item) => {
        options.onStart?.(item);
        try {
          finish(item, await publishOne(client, item, dryRun));
        } catch (error) {
          if (error instanceof ApiError && STOPPING.has(error.kind) && !stopped)
            stopped = { kind: error.kind as StopReason['kind'], message: error.message };
          finish(item, { outcome: 'failed', error: failure(error) });
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
