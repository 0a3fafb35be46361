import { RESOURCE_KINDS } from '../catalog/kinds.js';
import { parseReference, platformText, type ReferenceTarget, type ResourceKey } from '../catalog/resource-key.js';
import { asRecord } from '../platform/answers.js';
import { kindApi } from '../platform/endpoints.js';
import type { PublishItem } from './publish-item.js';

/**
 * The order documents are sent in: kind after kind in the table's order (services and environments before
 * infrastructures, templates before pipelines, pipelines before their input sets and triggers), and within a kind
 * whose documents refer to each other (a stage template using a step template), what is referred to first.
 * Each wave is sent a few at a time; the next starts when it is done.
 */

interface Reference extends ReferenceTarget {
  /** Absent: the stable version, whichever that is. */
  readonly version?: string;
}

/** Every `{ <field>: ref, versionLabel }` inside a value, read from the referring document's scope (`parseReference`). */
function referencesIn(value: unknown, field: string, from: ResourceKey, out: Reference[] = []): Reference[] {
  if (Array.isArray(value)) for (const item of value) referencesIn(item, field, from, out);
  const record = asRecord(value);
  if (!record) return out;
  const text = platformText(record[field]);
  const target = text === undefined ? undefined : parseReference(text, from);
  if (target) {
    const version = platformText(record.versionLabel);
    out.push({ ...target, ...(version !== undefined ? { version } : {}) });
  }
  for (const child of Object.values(record)) referencesIn(child, field, from, out);
  return out;
}

const isReferred = (id: ResourceKey, ref: Reference): boolean =>
  id.identifier === ref.identifier &&
  id.org === ref.org &&
  id.project === ref.project &&
  (ref.version === undefined || id.version === ref.version);

/** One kind's documents in waves: a document comes after every document of the batch it refers to. */
function wavesOf(batch: readonly PublishItem[], field: string | undefined): PublishItem[][] {
  if (!field || batch.length < 2) return batch.length ? [[...batch]] : [];
  const needs = new Map(
    batch.map((item) => {
      const refs = referencesIn(item.document.value, field, item.document.id);
      return [
        item,
        batch.filter((other) => other !== item && refs.some((ref) => isReferred(other.document.id, ref))),
      ] as const;
    }),
  );
  const waves: PublishItem[][] = [];
  const placed = new Set<PublishItem>();
  while (placed.size < batch.length) {
    let wave = batch.filter((item) => !placed.has(item) && needs.get(item)!.every((other) => placed.has(other)));
    // A cycle: the platform refuses it whatever the order; send the rest together and let it say so.
    if (wave.length === 0) wave = batch.filter((item) => !placed.has(item));
    for (const item of wave) placed.add(item);
    waves.push(wave);
  }
  return waves;
}

/** The documents in publish order, as waves to send one after the other. */
export function publishWaves(items: readonly PublishItem[]): PublishItem[][] {
  return RESOURCE_KINDS.flatMap((kind) =>
    wavesOf(
      items.filter((item) => item.document.id.kind === kind),
      kindApi(kind).refersToOwnKind,
    ),
  );
}
