import { keyId } from '../catalog/resource-key.js';
import { checkAcross, type AcrossRecord } from '../check/check-across.js';
import { validateDocument } from '../check/check-document.js';
import { runtimeInputs } from '../check/rules-input-sets.js';
import { isDocumentCode, type DocumentCode } from '../core/diagnostic-codes.js';
import type { PulledDocument } from './pull-reads.js';

/**
 * What the platform holds that pipewright refuses: across documents (the platform keeps an input set whose values
 * are no longer runtime inputs of its pipeline), or in one document (a rule the platform does not enforce when it
 * saves, e.g. a container step in a Custom stage); compile would fail the whole project on either. Each finding is
 * kept in the document's module as a suppression with its reason (import writes `.suppress(code, reason)` and a
 * comment), and pull lists it: the project compiles, publish sends what the platform has, and nothing is silent.
 */

/** One document's findings of one code, as its module's suppression. */
export interface HeldFinding {
  readonly document: PulledDocument;
  readonly code: DocumentCode;
  /** What is wrong, one line per finding (the check's messages). */
  readonly messages: readonly string[];
  /** The suppression's reason, as written in the module. */
  readonly reason: string;
}

/** Messages past this many are counted in a reason, not listed. */
const LISTED = 3;

/** The errors the check across documents finds among the pulled documents, grouped per document and code. */
export function heldFindings(documents: readonly PulledDocument[]): HeldFinding[] {
  const records = documents.map((document): AcrossRecord<PulledDocument> => ({
    key: document.key,
    place: document,
    document: document.value,
    ...(document.key.kind === 'pipeline' ? { runtimeInputs: () => runtimeInputs(document.value) } : {}),
  }));
  const words = { first: () => 'on the platform', targetDefined: () => 'on the platform' };
  const grouped = new Map<string, { document: PulledDocument; code: DocumentCode; messages: string[] }>();
  // One document's own check first: the same grouping and suppression as the check across documents.
  const single = documents.flatMap((document) =>
    validateDocument(document.key.kind, document.value).map((diagnostic) => ({
      diagnostic,
      record: { key: document.key, place: document },
    })),
  );
  for (const { diagnostic, record } of [...single, ...checkAcross(records, words)]) {
    // Only what fails compile: warnings are said by compile, and change nothing the project can do.
    if (diagnostic.severity !== 'error' || !isDocumentCode(diagnostic.code)) continue;
    const id = `${keyId(record.key)}\n${diagnostic.code}`;
    const group = grouped.get(id) ?? { document: record.place, code: diagnostic.code, messages: [] };
    group.messages.push(diagnostic.message);
    grouped.set(id, group);
  }
  return [...grouped.values()].map((group) => ({ ...group, reason: reasonOf(group.messages) }));
}

const reasonOf = (messages: readonly string[]): string => {
  const more = messages.length - LISTED;
  return `the platform holds it so (kept by pipewright pull): ${messages.slice(0, LISTED).join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
};
