import { asRecord as asObject, asTrimmedText as text } from '../platform/answers.js';
import type { Client } from '../platform/client.js';
import type { PublishDocument } from '../platform/document.js';
import type { Envelope } from '../platform/envelope.js';
import { DocumentRefusal } from './publish-failure.js';

/**
 * A trigger write can succeed and still leave the trigger off: the platform validates it after saving it, and
 * on a failed validation sets `enabled: false` (in the stored YAML too) and keeps the reason only in
 * `triggerStatus.validationStatus` (NGTriggerServiceImpl.java L1239-1300). Reporting "created" would hide that a
 * trigger that should run never will (platform-facts-3.md §2 D3).
 */

/** Whether the document asks for a running trigger (`enabled` absent means on). */
const wantsEnabled = (document: PublishDocument): boolean => asObject(document.value.trigger)?.enabled !== false;

/** Throws when the answer to a trigger write says the platform turned the trigger off. */
export async function checkTriggerEnabled(
  client: Client,
  document: PublishDocument,
  envelope: Envelope,
  outcome: 'created' | 'updated',
): Promise<void> {
  if (document.id.kind !== 'trigger' || !wantsEnabled(document) || asObject(envelope.data)?.enabled !== false) return;
  // The reason is not in the write's answer: one more GET for it, and a report without it when that fails.
  let reason: string | undefined;
  try {
    const details = await client.triggerDetails(document.id);
    const status = asObject(asObject(asObject(details.data)?.triggerStatus)?.validationStatus);
    reason = text(status?.detailedMessage) ?? text(status?.statusResult);
  } catch {
    reason = undefined;
  }
  throw new DocumentRefusal(
    'disabled by the platform',
    `${outcome}, but the platform disabled the trigger (enabled: false) after its validation failed: ${reason ?? "the reason is in the trigger's status in the platform"}; a trigger keeps the withServiceV2 flag it was created with, and pipewright creates triggers with withServiceV2=true: if this one was created without it (by hand, or an older pipewright), delete it in the platform and publish again, otherwise fix what the reason names`,
    envelope.correlationId ? { correlationId: envelope.correlationId } : {},
  );
}
