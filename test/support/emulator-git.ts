import { createHash } from 'node:crypto';
import type { GitFile, StoredResource } from './emulator-store.js';

/**
 * Git Experience as the platform answers it (platform-facts-2.md §5): a remote pipeline is a file in a repository;
 * its GET names the file's blob (`objectId`) and commit, an update must name the blob it replaces, a stale one
 * answers 409, a missing file 400 HINT.
 */

export interface Commit {
  readonly repoName: string;
  readonly branch: string;
  readonly filePath: string;
  readonly message: string;
  readonly objectId: string;
}

/** The Git blob id of a text, as `git hash-object` computes it. */
export const blobId = (content: string): string => {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
};

let commitSequence = 0;
export const nextCommitId = (): string =>
  createHash('sha1').update(`commit ${++commitSequence} ${Date.now()}`).digest('hex');

export const CREATE_GIT_PARAMS = [
  'storeType',
  'connectorRef',
  'repoName',
  'branch',
  'filePath',
  'commitMsg',
  'isNewBranch',
  'baseBranch',
  'isHarnessCodeRepo',
];
export const UPDATE_GIT_PARAMS = [
  'connectorRef',
  'branch',
  'filePath',
  'commitMsg',
  'isNewBranch',
  'baseBranch',
  'isHarnessCodeRepo',
  'lastObjectId',
  'lastCommitId',
  'resolvedConflictCommitId',
];

/** The error shape of a wrapped SCM error: HINT on top, the SCM error last (its code sets the HTTP status). */
export function scmError(
  hint: string,
  explanation: string,
  scmCode: string,
  scmMessage: string,
  correlationId: string,
) {
  return {
    status: 'ERROR',
    code: 'HINT',
    message: hint,
    correlationId,
    detailedMessage: null,
    responseMessages: [
      { code: 'HINT', level: 'ERROR', message: hint, exception: null, failureTypes: [] },
      { code: 'EXPLANATION', level: 'ERROR', message: explanation, exception: null, failureTypes: [] },
      { code: scmCode, level: 'ERROR', message: scmMessage, exception: null, failureTypes: [] },
    ],
    metadata: null,
  };
}

/** 400 HINT for a remote pipeline whose file or branch is gone. */
export const missingFile = (git: GitFile, correlationId: string) =>
  scmError(
    `Please check the requested file path [${git.filePath}] / branch [${git.branch}] / Github repo name [${git.repoName}] if they exist or not.`,
    `The requested file path [${git.filePath}] could not be found in the repository`,
    'SCM_BAD_REQUEST',
    'File not found',
    correlationId,
  );

/** 409 for an update naming a blob that is not the file's current one. */
export const staleBlob = (git: GitFile, correlationId: string) =>
  scmError(
    `Please check if the file [${git.filePath}] was updated in branch [${git.branch}] since it was read, and retry with its latest version.`,
    "The input blob id of the requested file doesn't match with current blob id of the file at head of the branch in Github repo",
    'SCM_CONFLICT_ERROR_V2',
    'Conflict: the file has changed',
    correlationId,
  );

/** A new Git file for `content`, with a fresh commit. */
export function newFile(where: Omit<GitFile, 'objectId' | 'commitId'>, content: string): GitFile {
  return { ...where, objectId: blobId(content), commitId: nextCommitId() };
}

/** The file after a commit of `content`. */
export function commitTo(resource: StoredResource, content: string): GitFile {
  return { ...resource.git!, objectId: blobId(content), commitId: nextCommitId(), missing: false };
}
