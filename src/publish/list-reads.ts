import type { Client, RemoteResource } from '../platform/client.js';
import { kindApi, remoteDocument, storageOf, updatableInGit, type ListScope } from '../platform/endpoints.js';
import { runPool } from '../core/pool.js';
import { keyId } from '../catalog/resource-key.js';
import type { PublishItem } from './publish-item.js';

/**
 * What the platform holds for documents of kinds whose list answers carry the whole document (connectors,
 * services, environments, infrastructure definitions, triggers: platform-facts-3.md §3), read a page of up to 100
 * at a time instead of one GET per document. Projects keep their GET (its ETag is what an update's If-Match sends
 * back); pipelines, templates and input sets keep theirs (their lists hold no YAML).
 */

/** Whether documents of the item's kind can be read from a list. */
const listable = (item: PublishItem) =>
  item.document.id.kind !== 'project' && kindApi(item.document.id.kind).list.complete;

export class ListReads {
  readonly #client: Client;
  readonly #concurrency: number;
  /** What a list said of a document: what the platform holds, or null (not there). Absent: read it with a GET. */
  readonly #found = new Map<PublishItem, RemoteResource | null>();

  constructor(client: Client, concurrency: number) {
    this.#client = client;
    this.#concurrency = concurrency;
  }

  /**
   * Lists the scopes of a wave that hold two documents or more. Paging stops as soon as the pages left outnumber the
   * documents not yet found (GETs are then cheaper); what a list could not settle is left to a GET, as is a list
   * that fails (the GET reports the failure in the document's own words).
   */
  async prefetch(wave: readonly PublishItem[]): Promise<void> {
    const groups = new Map<string, { scope: ListScope; items: PublishItem[] }>();
    for (const item of wave) {
      if (!listable(item)) continue;
      const { kind, org, project, parent } = item.document.id;
      const scope: ListScope = {
        kind,
        ...(org ? { org } : {}),
        ...(project ? { project } : {}),
        ...(parent ? { parent } : {}),
      };
      // A scope is a key without an identifier: the one key function names it.
      const key = keyId({ ...scope, identifier: '' });
      const group = groups.get(key) ?? { scope, items: [] };
      group.items.push(item);
      groups.set(key, group);
    }
    await runPool(
      [...groups.values()].filter((group) => group.items.length >= 2),
      this.#concurrency,
      (group) => this.#read(group.scope, group.items).catch(() => undefined),
    );
  }

  /** What a list said of this document: the resource, null (not there), or undefined (unknown: GET it). */
  take(item: PublishItem): RemoteResource | null | undefined {
    const found = this.#found.get(item);
    this.#found.delete(item);
    return found;
  }

  async #read(scope: ListScope, items: readonly PublishItem[]): Promise<void> {
    const wanted = new Map(items.map((item) => [item.document.id.identifier, item]));
    const listed = new Set<string>();
    const seen = new Map<PublishItem, RemoteResource>();
    let complete = false;
    let index = -1;
    for await (const page of this.#client.pages(scope)) {
      index++;
      for (const entry of page.items) {
        listed.add(entry.identifier);
        const item = wanted.get(entry.identifier);
        // One stored in Git: the list holds the platform's copy, which a push to the file leaves behind; its GET
        // reads the file (docs/publishing.md, "Services, environments and infrastructure definitions in Git").
        if (!item || entry.entity.storeType === 'REMOTE') continue;
        try {
          // Its storage too: a gitFiles entry for one the platform holds inline is a storage mismatch, not a Git write.
          const storage = updatableInGit(scope.kind) ? { storage: storageOf(scope.kind, entry.data) } : {};
          seen.set(item, { document: remoteDocument(scope.kind, entry.data), data: entry.data, ...storage });
        } catch {
          // An item this client cannot read: its GET will say why.
        }
      }
      if (page.last) {
        complete = true;
        break;
      }
      const missing = items.length - seen.size;
      const pagesLeft = page.totalPages !== undefined ? page.totalPages - index - 1 : Infinity;
      if (missing === 0 || pagesLeft > missing) break;
    }
    for (const item of items) {
      const remote = seen.get(item);
      if (remote) this.#found.set(item, remote);
      // The whole list was read and does not hold it: it is not there.
      else if (complete && !listed.has(item.document.id.identifier)) this.#found.set(item, null);
    }
  }
}
