import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { sha256 } from '../compile/layout.js';
import { isRecord } from '../core/is-record.js';
import { keyId, type ResourceKey } from '../catalog/resource-key.js';
import { DocumentError, publishKeyOf } from '../platform/document.js';
import type { PublishItem } from './publish-item.js';
import { journalPath, JournalWriter, readJournal, type JournalLine, type JournalState } from './record-journal.js';
import { syncFolder } from '../core/sync-folder.js';

/**
 * What pipewright last published, or pull last read, per resource, kept beside the output folder (`out` ->
 * `out.published.json`): compile replaces the folder as a whole, so a record inside it would not survive.
 * `--fail-on-drift` compares the platform with it to tell "changed by us" (the source changed) from "changed by
 * someone else" (the platform changed); it is also the list of what pipewright published, which orphans and
 * `--prune` come from (prune.ts).
 *
 * Entries are keyed by the resource's one identity (`keyId`), so a run over a narrower scope (one organization
 * pulled, a folder holding a subset) replaces only the entries of what it covered and keeps the others. A run
 * journals each write as it goes (record-journal.ts) and rewrites the record once at the end; the next run folds
 * in the journal of a run that never got to its end.
 */

/** A document and the sha256 of its YAML. */
interface RecordedDocument {
  readonly sha256: string;
  readonly document: Record<string, unknown>;
}

export interface RecordEntry {
  /** The output file it was published from (or pull would compile it to). */
  readonly file: string;
  /** What the platform was last known to hold from pipewright: a write it answered, or what pull read. */
  readonly confirmed?: RecordedDocument;
  /**
   * A write sent whose answer never came (the run was killed, the connection dropped, retries ran out): the
   * platform may hold it or not. A later run that finds exactly this there takes it as its own.
   */
  readonly unconfirmed?: RecordedDocument;
}

interface RecordFile {
  readonly generator: 'pipewright-published';
  readonly version: 2;
  readonly baseUrl: string;
  readonly accountId: string;
  readonly resources: Readonly<Record<string, RecordEntry>>;
}

/** Where the record is kept: the platform and account it is about. */
export interface RecordTarget {
  readonly baseUrl: string;
  readonly accountId: string;
}

export const recordPath = (dir: string): string =>
  join(dirname(resolve(dir)), `${basename(resolve(dir))}.published.json`);

const isDocument = (value: unknown): value is RecordedDocument =>
  isRecord(value) && typeof value.sha256 === 'string' && isRecord(value.document);

/** The identity of a recorded document, or undefined for one without (a record edited by hand). */
function identityOf(document: Record<string, unknown>): ResourceKey | undefined {
  try {
    return publishKeyOf(document);
  } catch (error) {
    if (error instanceof DocumentError) return undefined;
    throw error;
  }
}

/** The entries of a version 2 file, as written. */
function entriesOf(resources: unknown): Map<string, RecordEntry> {
  const entries = new Map<string, RecordEntry>();
  if (!isRecord(resources)) return entries;
  for (const [key, value] of Object.entries(resources)) {
    if (!isRecord(value) || typeof value.file !== 'string') continue;
    const confirmed = isDocument(value.confirmed) ? { confirmed: value.confirmed } : {};
    const unconfirmed = isDocument(value.unconfirmed) ? { unconfirmed: value.unconfirmed } : {};
    if (confirmed.confirmed || unconfirmed.unconfirmed)
      entries.set(key, { file: value.file, ...confirmed, ...unconfirmed });
  }
  return entries;
}

/**
 * The entries of a version 1 file (keyed by output file, confirmed writes only), keyed by identity. Of two files
 * of one resource (compile moved it), the one the file's order gives last wins, as the old lookup by file did.
 */
function migrated(documents: unknown): Map<string, RecordEntry> {
  const entries = new Map<string, RecordEntry>();
  if (!isRecord(documents)) return entries;
  for (const [file, value] of Object.entries(documents)) {
    if (!isDocument(value)) continue;
    const id = identityOf(value.document);
    if (id) entries.set(keyId(id), { file, confirmed: { sha256: value.sha256, document: value.document } });
  }
  return entries;
}

/** The record file's entries for this target; none when it is missing or about another platform or account. */
async function readRecordFile(path: string, target: RecordTarget, warn: (message: string) => void) {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'ENOENT')
      warn(`could not read ${path} (${code ?? String(error)}): this run has no record to compare with`);
    return new Map<string, RecordEntry>();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed) || parsed.generator !== 'pipewright-published') {
    warn(
      `${path} is not a publish record (not JSON from pipewright): ignored, and replaced at the end of this run; the drift check has nothing to compare with`,
    );
    return new Map<string, RecordEntry>();
  }
  if (parsed.baseUrl !== target.baseUrl || parsed.accountId !== target.accountId) return new Map<string, RecordEntry>();
  return parsed.version === 1 ? migrated(parsed.documents) : entriesOf(parsed.resources);
}

const recorded = (item: PublishItem): RecordedDocument => ({
  sha256: sha256(item.document.yaml),
  document: item.document.value,
});

/** The entry after a journal line. */
function applied(entry: RecordEntry | undefined, line: Pick<JournalLine, 'file' | 'state'> & RecordedDocument) {
  const document = { sha256: line.sha256, document: line.document };
  if (line.state === 'confirmed') return { file: line.file, confirmed: document };
  return { ...entry, file: line.file, unconfirmed: document };
}

/**
 * The record of one output folder for one platform and account, as a run goes: read with the journal of an
 * interrupted run folded in, changed by the run (each change journaled at once), compacted at the end.
 */
export class PublishedRecord {
  readonly path: string;
  readonly target: RecordTarget;
  readonly #entries: Map<string, RecordEntry>;
  readonly #journal: JournalWriter;
  readonly #warn: (message: string) => void;
  #journalFailed = false;

  private constructor(
    path: string,
    target: RecordTarget,
    entries: Map<string, RecordEntry>,
    warn: (message: string) => void,
  ) {
    this.path = path;
    this.target = { baseUrl: target.baseUrl, accountId: target.accountId };
    this.#entries = entries;
    this.#journal = new JournalWriter(journalPath(path));
    this.#warn = warn;
  }

  /**
   * The record beside `dir` with the journal an interrupted run left folded in. A journal line that cannot be
   * read is skipped with a warning; one about another platform or account is left out.
   */
  static async open(dir: string, target: RecordTarget, warn: (message: string) => void): Promise<PublishedRecord> {
    const path = recordPath(dir);
    const entries = await readRecordFile(path, target, warn);
    const journal = await readJournal(journalPath(path)).catch((error: unknown) => {
      const code = (error as { code?: string }).code;
      warn(
        `could not read ${journalPath(path)} (${code ?? String(error)}): what an interrupted run wrote is not known`,
      );
      return { lines: [], skipped: [] };
    });
    for (const line of journal.skipped)
      warn(
        `${journalPath(path)} line ${line} is not a journal line (a run stopped while writing it?): skipped; the other lines are kept`,
      );
    for (const line of journal.lines)
      if (line.baseUrl === target.baseUrl && line.accountId === target.accountId)
        entries.set(line.key, applied(entries.get(line.key), line));
    return new PublishedRecord(path, target, entries, warn);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A copy of the entries as they are now (a run's drift check reads the record as it was when the run began). */
  snapshot(): ReadonlyMap<string, RecordEntry> {
    return new Map(this.#entries);
  }

  /** Just before a document's write is sent: if its answer never comes, the record knows what was sent. */
  sending(item: PublishItem): void {
    this.#change(item, 'unconfirmed');
  }

  /** The platform holds the document (it answered the write, or already held it). */
  confirmed(item: PublishItem): void {
    this.#change(item, 'confirmed');
  }

  #change(item: PublishItem, state: JournalState): void {
    const key = keyId(item.document.id);
    const line = { ...this.target, key, file: item.file, state, ...recorded(item) };
    this.#entries.set(key, applied(this.#entries.get(key), line));
    if (this.#journalFailed) return;
    try {
      this.#journal.append(line);
    } catch (error) {
      // The run goes on; only a run killed before its end loses what the journal would have kept.
      this.#journalFailed = true;
      const code = (error as { code?: string }).code;
      this.#warn(
        `could not write ${this.#journal.path}${code ? ` (${code})` : ''}: if this run is interrupted, the next one will not know what it wrote`,
      );
    }
  }

  /** Entries that leave the record: resources pruned, or found gone. */
  remove(keys: Iterable<string>): void {
    for (const key of keys) this.#entries.delete(key);
  }

  /**
   * What a read of the platform found over a scope (pull): entries `covers` says are in it are replaced by
   * `items`, those outside it are kept.
   */
  replaceScope(covers: (id: ResourceKey) => boolean, items: readonly PublishItem[]): void {
    for (const [key, entry] of this.#entries) {
      const document = entry.confirmed?.document ?? entry.unconfirmed?.document;
      const id = document && identityOf(document);
      if (!id || covers(id)) this.#entries.delete(key);
    }
    for (const item of items)
      this.#entries.set(keyId(item.document.id), { file: item.file, confirmed: recorded(item) });
  }

  /**
   * Writes the record whole (a temporary file, flushed, renamed over the old one: an interrupted run leaves the
   * previous record and its journal), then removes the journal it now holds.
   */
  async compact(): Promise<string> {
    this.#journal.close();
    const resources = Object.fromEntries([...this.#entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const record: RecordFile = { generator: 'pipewright-published', version: 2, ...this.target, resources };
    const temporary = `${this.path}.tmp`;
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(`${JSON.stringify(record, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.path);
    syncFolder(dirname(this.path));
    await rm(this.#journal.path, { force: true });
    return this.path;
  }
}

/** What an earlier run recorded for an item, confirmed: the drift check's "what pipewright published". */
export const lastPublishedLookup =
  (record: ReadonlyMap<string, RecordEntry>) =>
  (item: PublishItem): Record<string, unknown> | undefined =>
    record.get(keyId(item.document.id))?.confirmed?.document;

/** What an earlier run sent for an item and never heard back about. */
export const unconfirmedLookup =
  (record: ReadonlyMap<string, RecordEntry>) =>
  (item: PublishItem): Record<string, unknown> | undefined =>
    record.get(keyId(item.document.id))?.unconfirmed?.document;
