import { readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { sha256 } from '../compile/layout.js';

import type { DocumentResult } from './publish.js';
import type { PublishItem } from './publish-item.js';
import { keyId, keyName } from '../catalog/resource-key.js';
import { publishKeyOf } from '../platform/document.js';

/**
 * What the last publish sent, kept beside the output folder (`out` -> `out.published.json`): compile replaces the
 * folder as a whole, so a record inside it would not survive. `--fail-on-drift` compares the platform with it to
 * tell "changed by us" (the source changed) from "changed by someone else" (the platform changed); it is also
 * the list of what pipewright published, which orphans and `--prune` come from (prune.ts).
 */

interface RecordEntry {
  readonly sha256: string;
  readonly document: Record<string, unknown>;
}

interface RecordFile {
  readonly generator: 'pipewright-published';
  readonly version: 1;
  readonly baseUrl: string;
  readonly accountId: string;
  readonly documents: Readonly<Record<string, RecordEntry>>;
}

export const recordPath = (dir: string): string =>
  join(dirname(resolve(dir)), `${basename(resolve(dir))}.published.json`);

const isEntry = (value: unknown): value is RecordEntry =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as RecordEntry).sha256 === 'string' &&
  typeof (value as RecordEntry).document === 'object' &&
  (value as RecordEntry).document !== null;

/** The record for this platform and account; empty when missing, unreadable or about another account. */
export async function readRecord(dir: string, baseUrl: string, accountId: string): Promise<Map<string, RecordEntry>> {
  let parsed: Partial<RecordFile>;
  try {
    parsed = JSON.parse(await readFile(recordPath(dir), 'utf8')) as Partial<RecordFile>;
  } catch {
    return new Map();
  }
  if (
    parsed.generator !== 'pipewright-published' ||
    parsed.baseUrl !== baseUrl ||
    parsed.accountId !== accountId ||
    typeof parsed.documents !== 'object' ||
    !parsed.documents
  )
    return new Map();
  return new Map(Object.entries(parsed.documents).filter(([, entry]) => isEntry(entry)));
}

/**
 * What an earlier publish recorded for an item: by its output file, else by its resource, so the drift check
 * still applies to an output that moved (compile moves one whose path comes to differ from another's only in case).
 */
export function lastPublishedLookup(
  record: ReadonlyMap<string, RecordEntry>,
): (item: PublishItem) => Record<string, unknown> | undefined {
  let byResource: Map<string, Record<string, unknown>> | undefined;
  return (item) => {
    const entry = record.get(item.file);
    if (entry) return entry.document;
    if (!byResource) {
      byResource = new Map();
      for (const { document } of record.values()) {
        try {
          const id = keyId(publishKeyOf(document));
          if (!byResource.has(id)) byResource.set(id, document);
        } catch {
          // A recorded document without an identity (hand-edited record) is found by its file only.
        }
      }
    }
    return byResource.get(keyId(item.document.id));
  };
}

/**
 * Records what the platform now holds for every document that ended created, updated or unchanged; a failed one
 * keeps its earlier entry (the platform still holds that). An entry whose source is gone stays (it is an orphan,
 * listed by every publish) until `--prune` deletes it (`removed`); an entry for a resource now published from
 * another file is dropped. Written to a temporary file and renamed, so an interrupted run leaves the previous
 * record whole.
 */
export async function writeRecord(
  dir: string,
  context: { baseUrl: string; accountId: string },
  previous: ReadonlyMap<string, RecordEntry>,
  items: readonly PublishItem[],
  results: readonly DocumentResult[],
  removed: readonly string[] = [],
): Promise<string> {
  const documents: Record<string, RecordEntry> = Object.fromEntries(previous);
  for (const file of removed) delete documents[file];
  const byFile = new Map(items.map((item) => [item.file, item]));
  const identity = (value: Record<string, unknown>) => {
    try {
      const id = publishKeyOf(value);
      return `${id.kind}:${keyName(id)}`;
    } catch {
      return undefined;
    }
  };
  const published = new Map(items.map((item) => [identity(item.document.value), item.file]));
  for (const [file, entry] of Object.entries(documents)) {
    const now = published.get(identity(entry.document));
    if (now !== undefined && now !== file) delete documents[file];
  }
  for (const result of results) {
    const item = byFile.get(result.file);
    if (!item || result.outcome === 'failed') continue;
    documents[result.file] = { sha256: sha256(item.document.yaml), document: item.document.value };
  }
  const sorted = Object.fromEntries(
    Object.keys(documents)
      .sort()
      .map((file) => [file, documents[file]!]),
  );
  const record: RecordFile = { generator: 'pipewright-published', version: 1, ...context, documents: sorted };
  const path = recordPath(dir);
  await writeFile(`${path}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
  return path;
}
