import { kindRow } from '../catalog/kinds.js';
import type { Client, RemoteResource } from '../platform/client.js';

import { defaultGitFile, kindApi, storableInGit, type GitTarget } from '../platform/endpoints.js';
import { ApiError, isAlreadyExists, isGitConflict } from '../platform/envelope.js';
import { KeyedLock } from './keyed-lock.js';
import { DocumentRefusal } from './publish-failure.js';
import type { PublishItem } from './publish-item.js';
import { semanticDiff, type Change } from './semantic-diff.js';
import { keyName, type ResourceKey } from '../catalog/resource-key.js';

/**
 * Writes of documents kept as files in Git (`--store remote`: pipelines, and their input sets, which the platform
 * stores where their pipeline is). One at a time per connector, repository and branch: parallel commits to one
 * branch fail on the platform with a blob-id conflict (terraform-provider-harness issue #970, platform-facts-3.md
 * §2 D4).
 */

/** Where Git-stored documents go (`--store remote`): connector, repository, branch, and a new pipeline's file. */
export interface GitSettings {
  readonly connectorRef: string;
  readonly repoName: string;
  readonly branch: string;
  /** The file of a new pipeline; an existing one stays where the platform says it is. Input sets use the platform's layout. */
  readonly filePath?: (id: ResourceKey) => string;
}

/** The name of a document in config `gitFiles`: `pipeline:default/shop/deploy`, `inputSet:default/shop/deploy/eu`. */
export const gitFileName = (id: ResourceKey): string => `${id.kind}:${keyName(id)}`;

/** Names pipewright and the source, so `git log` says where a commit came from. */
const commitMessage = (item: PublishItem): string => {
  const { kind, identifier, version } = item.document.id;
  return `pipewright: publish ${kindRow(kind).label} ${identifier}${version ? `@${version}` : ''} from ${item.source ?? item.file}`;
};

const gitTarget = (item: PublishItem, git: GitSettings, filePath?: string): GitTarget => {
  const { id } = item.document;
  return {
    connectorRef: git.connectorRef,
    repoName: git.repoName,
    branch: git.branch,
    // Services, environments and infrastructures are only updated in Git: their file is the stored entity's.
    filePath:
      filePath ??
      (id.kind === 'pipeline' || !storableInGit(id.kind) ? git.filePath?.(id) : undefined) ??
      defaultGitFile(id),
    commitMsg: commitMessage(item),
  };
};

type Written = { outcome: 'created' | 'updated'; correlationId?: string; data?: unknown };
const withCorrelation = (id: string | undefined) => (id ? { correlationId: id } : {});

export class GitWriter {
  readonly #lock = new KeyedLock();
  readonly #client: Client;
  readonly #git: GitSettings;

  constructor(client: Client, git: GitSettings) {
    this.#client = client;
    this.#git = git;
  }

  get settings(): GitSettings {
    return this.#git;
  }

  /** Creates or updates `item` in Git, after the other writes to its branch. */
  write(
    item: PublishItem,
    remote: RemoteResource | undefined,
    changes?: readonly Change[],
  ): Promise<Written & { changes?: readonly Change[] }> {
    const key = `${this.#git.connectorRef}\u0000${this.#git.repoName}\u0000${this.#git.branch}`;
    return this.#lock.run(key, async () => ({
      ...(remote ? await this.#update(item, remote) : await this.#create(item)),
      ...(changes ? { changes } : {}),
    }));
  }

  /** An update naming the blob and commit it replaces; never blind. */
  async #update(item: PublishItem, remote: RemoteResource): Promise<Written> {
    const { document } = item;
    const target = gitTarget(item, this.#git, remote.storage?.filePath);
    const send = (from: RemoteResource) =>
      this.#client.update(document, {
        git: target,
        gitVersion: from.storage?.version ?? {},
        ...(from.public ? { public: true } : {}),
      });
    try {
      const updated = await send(remote);
      return { outcome: 'updated', ...withCorrelation(updated.correlationId), data: updated.data };
    } catch (error) {
      if (!isGitConflict(error)) throw error;
      const now = await this.#client.read(document.id, { branch: this.#git.branch });
      // A retried update whose first answer was lost meets its own commit: the file holds our text.
      if (now && semanticDiff(document.value, now.document).length === 0)
        return { outcome: 'updated', ...withCorrelation(now.correlationId) };
      // The file still says what it said when it was read: only the branch moved on (another commit to it). One
      // more try with the blob the platform names now; a file someone changed is never overwritten.
      if (now && semanticDiff(remote.document, now.document).length === 0) {
        const updated = await send(now);
        return { outcome: 'updated', ...withCorrelation(updated.correlationId), data: updated.data };
      }
      throw error;
    }
  }

  async #create(item: PublishItem): Promise<Written> {
    const { document } = item;
    try {
      const created = await this.#client.create(document, { git: gitTarget(item, this.#git) });
      return { outcome: 'created', ...withCorrelation(created.correlationId), data: created.data };
    } catch (error) {
      if (!isAlreadyExists(error) && !(error instanceof ApiError && isGitConflict(error))) throw error;
    }
    // A retried create whose first answer was lost finds its own write; anything else is someone else's.
    const found = await this.#client.read(document.id, { branch: this.#git.branch });
    if (found && semanticDiff(document.value, found.document).length === 0)
      return { outcome: 'created', ...withCorrelation(found.correlationId) };
    throw new DocumentRefusal(
      'git conflict',
      `${kindRow(document.id.kind).label} ${document.id.identifier} appeared in Git while it was being created, with other content: not overwritten; run publish again to compare it`,
    );
  }
}

/** Moving a document between the platform and Git is a deliberate act: publish says so and leaves it. */
export function checkStorage(
  item: PublishItem,
  remote: RemoteResource,
  wanted: 'inline' | 'remote',
  git: GitSettings | undefined,
): void {
  const storage = remote.storage;
  if (!storage) return;
  const { label } = kindRow(item.document.id.kind);
  const name = `${label} ${item.document.id.identifier}`;
  const where =
    storage.store === 'remote'
      ? `in Git (${[storage.repoName, storage.filePath].filter(Boolean).join(', ') || 'a repository'})`
      : 'inline, in the platform';
  if (storage.store !== wanted)
    throw new DocumentRefusal(
      'storage mismatch',
      `${name} is stored ${where}, and this run publishes ${wanted === 'remote' ? 'to Git (--store remote)' : 'inline'}: it was left as it is; moving a ${label} ${wanted === 'remote' ? 'into Git' : 'out of Git'} is done in the platform (Move to Git / update-git-metadata), then publish ${wanted === 'remote' ? 'with --store remote' : 'without --store remote'}`,
    );
  if (wanted === 'remote' && git && storage.repoName && storage.repoName !== git.repoName)
    throw new DocumentRefusal(
      'storage mismatch',
      `${name} is stored in Git repository ${storage.repoName}, not ${git.repoName} (--repo): it was left as it is; move it in the platform, or publish with --repo ${storage.repoName}`,
    );
}

/**
 * A service, environment or infrastructure definition stored in Git without a `gitFiles` entry would be written
 * inline, and an update without `storeType=REMOTE` changes the platform's own copy, never the file (harness-core
 * ServiceRepositoryCustomImpl.java L117-123, EnvironmentRepositoryCustomImpl.java L129-135,
 * InfrastructureRepositoryCustomImpl.java L128-134): the platform would answer 200 and keep running the file. A
 * template version in Git without one would be sent without its branch and file. Refused before the write; an
 * unchanged one is no concern.
 */
export function checkWrittenInline(item: PublishItem, remote: RemoteResource): void {
  const { kind, identifier } = item.document.id;
  if (storableInGit(kind) || remote.storage?.store !== 'remote') return;
  const place = [remote.storage.repoName, remote.storage.filePath].filter(Boolean).join(', ') || 'a repository';
  const { label } = kindRow(kind);
  const effect = kindApi(kind).updatedInGit
    ? 'the update would name neither its branch nor its file'
    : "an update would change the platform's copy, not the file";
  throw new DocumentRefusal(
    'storage mismatch',
    `${label} ${identifier}${item.document.id.version ? `@${item.document.id.version}` : ''} is stored in Git (${place}), and the config's gitFiles names no place for it, so it would be written inline: ${effect}; it was left as it is; pull again to write its gitFiles entry, or add '${gitFileName(item.document.id)}' to gitFiles`,
  );
}

/**
 * pipewright creates services, environments, infrastructure definitions and template versions inline only: one whose `gitFiles` entry
 * says it lives in Git but that the platform no longer has is not created again in the platform's copy.
 */
export function checkCreatableInGit(item: PublishItem): void {
  const { kind, identifier } = item.document.id;
  if (storableInGit(kind)) return;
  const { label, plural } = kindRow(kind);
  throw new DocumentRefusal(
    'storage mismatch',
    `${label} ${identifier} has a gitFiles entry but the platform has no such ${label}: pipewright creates ${plural} inline only, and updates in Git those that live there; create it in the platform (in Git), or remove its gitFiles entry to create it inline`,
  );
}
