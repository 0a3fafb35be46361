import { kindRow } from '../catalog/kinds.js';
import type { Client } from '../platform/client.js';
import { DocumentError } from '../platform/document.js';
import { failure, type DocumentFailure } from './publish-failure.js';
import type { PublishItem } from './publish-item.js';
import { semanticDiff } from './semantic-diff.js';
import { RESOURCE_KINDS } from '../catalog/kinds.js';
import type { ResourceKey } from '../catalog/resource-key.js';
import type { ResourceKind } from '../catalog/kinds.js';
import { keyId, keyName } from '../catalog/resource-key.js';
import { publishKeyOf } from '../platform/document.js';
import type { SkippedEntry } from '../compile/layout.js';
import type { RecordEntry } from './published-record.js';

/**
 * Orphans: resources an earlier publish recorded (out.published.json) whose source is gone from the output folder.
 * Every publish lists them; `--prune` deletes them, children before parents, and only what pipewright published
 * as it published it: a resource changed on the platform since, or a container (project, pipeline, environment)
 * that still holds something pipewright did not publish, is kept, and says why.
 */

export interface Orphan {
  /** The file it was published from. */
  readonly file: string;
  readonly id: ResourceKey;
  /** The document as pipewright last published it (or sent it, when no answer ever said it was published). */
  readonly document: Record<string, unknown>;
  /** A later write whose answer was lost: the platform holding this instead is pipewright's too. */
  readonly sent?: Record<string, unknown>;
}

/** `orphaned`: listed only; `deleted` (with dry-run: would be); `gone`: not on the platform any more; `kept`: refused. */
export type OrphanOutcome = 'orphaned' | 'deleted' | 'gone' | 'kept' | 'failed';

export interface OrphanResult {
  readonly file: string;
  readonly kind: ResourceKind;
  readonly name: string;
  readonly id: ResourceKey;
  readonly outcome: OrphanOutcome;
  /** Why it was kept. */
  readonly message?: string;
  readonly error?: DocumentFailure;
  readonly correlationId?: string;
}

/**
 * The recorded resources no document of this run publishes, children first (the order deletes go in). What
 * `compile --keep-going` skipped (by output file or identity) is not an orphan: its source is there.
 */
export function findOrphans(
  recorded: ReadonlyMap<string, RecordEntry>,
  items: readonly PublishItem[],
  skipped: readonly SkippedEntry[] = [],
): Orphan[] {
  const current = new Set(items.map((item) => keyId(item.document.id)));
  const skippedFiles = new Set(skipped.flatMap((entry) => (entry.file ? [entry.file] : [])));
  for (const entry of skipped)
    if (entry.kind !== undefined && entry.identifier !== undefined)
      current.add(keyId({ ...entry, kind: entry.kind, identifier: entry.identifier }));
  const orphans: Orphan[] = [];
  for (const entry of recorded.values()) {
    const document = entry.confirmed?.document ?? entry.unconfirmed!.document;
    let id: ResourceKey;
    try {
      id = publishKeyOf(document);
    } catch (error) {
      if (error instanceof DocumentError) continue;
      throw error;
    }
    if (current.has(keyId(id)) || skippedFiles.has(entry.file)) continue;
    const sent = entry.confirmed && entry.unconfirmed ? { sent: entry.unconfirmed.document } : {};
    orphans.push({ file: entry.file, id, document, ...sent });
  }
  const rank = (kind: ResourceKind) => RESOURCE_KINDS.indexOf(kind);
  return orphans.sort((a, b) => rank(b.id.kind) - rank(a.id.kind) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** What a container holds that a delete of it would take along: the kinds listed in it, and how to scope the list. */
const CHILDREN: Partial<
  Record<
    ResourceKind,
    ReadonlyArray<{
      kind: ResourceKind;
      scope: (id: ResourceKey) => { org?: string; project?: string; parent?: string };
    }>
  >
> = {
  pipeline: [
    { kind: 'inputSet', scope: (id) => ({ org: id.org, project: id.project, parent: id.identifier }) },
    { kind: 'overlayInputSet', scope: (id) => ({ org: id.org, project: id.project, parent: id.identifier }) },
    { kind: 'trigger', scope: (id) => ({ org: id.org, project: id.project, parent: id.identifier }) },
  ],
  environment: [
    { kind: 'infrastructure', scope: (id) => ({ org: id.org, project: id.project, parent: id.identifier }) },
  ],
  project: (['connector', 'service', 'environment', 'template', 'pipeline'] as const).map((kind) => ({
    kind,
    scope: (id: ResourceKey) => ({ org: id.org, project: id.identifier }),
  })),
};

/**
 * What `id` holds on the platform now, as `kind identifier` (the first few), leaving out what this prune deletes
 * before it (`going`: with a dry run those are still there).
 */
async function heldBy(client: Client, id: ResourceKey, going: ReadonlySet<string>): Promise<string[]> {
  const held: string[] = [];
  for (const child of CHILDREN[id.kind] ?? []) {
    const scope = child.scope(id);
    const page = await client.listPage({ kind: child.kind, ...scope }, 0, 10);
    for (const item of page.items) {
      const childId = {
        kind: child.kind,
        ...scope,
        identifier: item.identifier,
        ...(item.versionLabel ? { version: item.versionLabel } : {}),
      } as ResourceKey;
      if (!going.has(keyId(childId)))
        held.push(`${kindRow(child.kind).label} ${item.identifier}${item.versionLabel ? `@${item.versionLabel}` : ''}`);
    }
  }
  return held;
}

/**
 * Lists the orphans (`prune` false), or deletes them one at a time, children before parents. With `dryRun`, the same
 * checks run and nothing is deleted (`deleted` means "would be").
 */
export async function pruneOrphans(
  client: Client,
  orphans: readonly Orphan[],
  { prune, dryRun }: { prune: boolean; dryRun: boolean },
): Promise<OrphanResult[]> {
  const results: OrphanResult[] = [];
  const going = new Set<string>();
  for (const orphan of orphans) {
    const base = { file: orphan.file, kind: orphan.id.kind, name: keyName(orphan.id), id: orphan.id };
    if (!prune) {
      results.push({ ...base, outcome: 'orphaned' });
      continue;
    }
    try {
      const remote = await client.read(orphan.id);
      if (!remote) {
        going.add(keyId(orphan.id));
        results.push({ ...base, outcome: 'gone' });
        continue;
      }
      const changed = semanticDiff(orphan.document, remote.document);
      if (changed.length > 0 && !(orphan.sent && semanticDiff(orphan.sent, remote.document).length === 0)) {
        results.push({
          ...base,
          outcome: 'kept',
          message: `changed on the platform since pipewright published it (${changed.length} difference${changed.length === 1 ? '' : 's'}, e.g. ${changed[0]!.place ?? changed[0]!.path}): it is no longer what pipewright published, so it was not deleted; delete it in the platform if it should go`,
        });
        continue;
      }
      const held = await heldBy(client, orphan.id, going);
      if (held.length > 0) {
        results.push({
          ...base,
          outcome: 'kept',
          message: `it holds what pipewright did not publish (${held.join(', ')}), which a delete would take along: not deleted; delete or move those first, or delete it in the platform`,
        });
        continue;
      }
      going.add(keyId(orphan.id));
      if (dryRun) {
        results.push({ ...base, outcome: 'deleted' });
        continue;
      }
      const deleted = await client.delete(orphan.id);
      results.push({
        ...base,
        outcome: 'deleted',
        ...(deleted.correlationId ? { correlationId: deleted.correlationId } : {}),
      });
    } catch (error) {
      results.push({ ...base, outcome: 'failed', error: failure(error) });
    }
  }
  return results;
}
