import {
  ApiError,
  isGitConflict,
  isGitEnforced,
  isLimit,
  isMissingPipelineBranch,
  isNoFilePath,
  isStoreTypeMismatch,
  isVersionConflict,
} from '../platform/envelope.js';
import type { Change } from './semantic-diff.js';

/** Why a document failed, in words a CI job can match on (`--json` `error.reason`). */
export type FailureReason =
  | 'denied by policy'
  | 'no entity in the answer'
  | 'version conflict'
  | 'git conflict'
  | 'limit'
  | 'storage mismatch'
  | 'drift'
  | 'git experience'
  | 'disabled by the platform'
  | 'needs pipelineBranchName'
  | 'soft deleted'
  | 'not attempted'
  | 'missing dependency';

export interface DocumentFailure {
  readonly message: string;
  readonly status?: number;
  readonly code?: string;
  readonly correlationId?: string;
  readonly attempts?: number;
  readonly reason?: FailureReason;
}

/** A document publish will not write, or whose write did not end as asked, for a reason of its own. */
export class DocumentRefusal extends Error {
  override name = 'DocumentRefusal';
  readonly reason: FailureReason;
  readonly changes?: readonly Change[];
  readonly correlationId?: string;
  constructor(
    reason: FailureReason,
    message: string,
    extra: { changes?: readonly Change[]; correlationId?: string } = {},
  ) {
    super(message);
    this.reason = reason;
    if (extra.changes) this.changes = extra.changes;
    if (extra.correlationId) this.correlationId = extra.correlationId;
  }
}

/** Advice after the server's words, for the answers a user must act on differently. */
function reasonOf(error: unknown): { reason?: FailureReason; advice?: string } {
  if (error instanceof DocumentRefusal) return { reason: error.reason };
  if (!(error instanceof ApiError)) return {};
  if (error.kind === 'denied')
    return {
      reason: 'denied by policy',
      advice: 'change the document to satisfy the policy, or ask whoever owns the policy set',
    };
  if (error.kind === 'rejected' && error.status === 200) return { reason: 'no entity in the answer' };
  if (isVersionConflict(error))
    return {
      reason: 'version conflict',
      advice: 'it was changed again between the re-read and the retry; run publish again',
    };
  if (isGitConflict(error))
    return {
      reason: 'git conflict',
      advice:
        'the file changed in Git since publish read it (a push or an edit in the UI); nothing was overwritten: run publish --dry-run to see the difference, then publish again',
    };
  if (isGitEnforced(error))
    return {
      reason: 'git experience',
      advice:
        'this scope enforces Git Experience: publish pipelines and input sets with --store remote (with --git-connector, --repo, --branch); templates, services and environments cannot be published inline there, so an administrator must turn "Enforce git experience" off for the scope or keep them in Git by other means',
    };
  if (isNoFilePath(error))
    return {
      reason: 'git experience',
      advice:
        'the scope\'s "Default Store Type For Entities" is Remote and the platform took this create as a Git one; pipewright sends storeType=INLINE, so an older server or a proxy dropped it: publish with --store remote, or set the default store type to Inline',
    };
  if (isStoreTypeMismatch(error))
    return {
      reason: 'storage mismatch',
      advice:
        'an input set is stored where its pipeline is: publish with --store remote when the pipeline is in Git, without it when it is inline',
    };
  if (isMissingPipelineBranch(error))
    return {
      reason: 'needs pipelineBranchName',
      advice:
        "the trigger's pipeline is stored in Git: give the trigger pipelineBranchName (the branch its runs read the pipeline from)",
    };
  if (isLimit(error))
    return {
      reason: 'limit',
      advice: 'a licence or plan limit was hit; it was not retried: raise the limit or remove unused resources',
    };
  return {};
}

/** What the report says of a failed document: the message with the call that failed and the advice, and the details. */
export function failure(error: unknown): DocumentFailure {
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
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(error instanceof DocumentRefusal && error.correlationId ? { correlationId: error.correlationId } : {}),
    ...(reason ? { reason } : {}),
  };
}
