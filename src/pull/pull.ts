import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { kindRow, publishRank, type ResourceKind } from '../catalog/kinds.js';
import { keyName } from '../catalog/resource-key.js';
import { DEFAULT_OUT_DIR, type PipewrightConfig } from '../compile/config.js';
import { loadConfig } from '../compile/load-config.js';
import { DiagnosticError, type Diagnostic } from '../core/diagnostics.js';
import type { Client } from '../platform/client.js';
import { ApiError, isStopping } from '../platform/envelope.js';
import { asUserError, connect, preflight, requestFailed, type ConnectOptions } from '../publish/connect.js';
import { recordPath } from '../publish/published-record.js';
import { authAdvice, gitFileName } from '../publish/settings.js';
import { importEstate, unmodelledPath, UNMODELLED_DIR, type ImportedEstate } from './pull-import.js';
import { heldFindings } from './pull-held.js';
import type { FileOutcome } from './pull-project.js';
import { finishInterrupted } from './pull-stage.js';
import {
  readEstate,
  type PullProgress,
  type PullReadResult,
  type PullScope,
  type Refused,
  type Skipped,
} from './pull-reads.js';
import { readWarnings, recordPulled, writeProject } from './pull-write.js';

/** What `pull` is asked to do: the `pipewright pull` flags, as options. */
export interface PullOptions extends ConnectOptions {
  /** Only this organization (default: every organization of the account, and the account's own resources). */
  readonly org?: string | undefined;
  /** With `org`: only this project. */
  readonly project?: string | undefined;
  /** The project folder to write; pulling again into it rewrites only what changed. */
  readonly out: string;
  /** Replace modules edited by hand since the last pull (without it they are kept). */
  readonly force?: boolean | undefined;
  /** Lists and reads in flight at once (default 4). */
  readonly concurrency?: number | undefined;
  /** What happens as it happens (the CLI's first line and progress); pull prints nothing itself. */
  readonly onEvent?: ((event: PullEvent) => void) | undefined;
}

export type PullEvent =
  | { readonly type: 'begin'; readonly baseUrl: string; readonly accountId: string }
  | { readonly type: 'progress'; readonly progress: PullProgress };

/** What a pull did: counts per kind, the files and what happened to each, and the warnings. */
export interface PullResult {
  readonly outDir: string;
  readonly baseUrl: string;
  readonly accountId: string;
  /** Requests sent (retries included). */
  readonly requests: number;
  readonly documents: number;
  /** Documents written as modules, per kind, in publish order. */
  readonly kinds: Readonly<Partial<Record<ResourceKind, number>>>;
  readonly unmodelled: ReadonlyArray<{ kind: ResourceKind; name: string; file: string }>;
  /** The folder of the documents kept as YAML. */
  readonly unmodelledDir: string;
  readonly skipped: readonly Skipped[];
  /** Resources whose identity the platform's rules refuse: nothing written for them, and the pull fails. */
  readonly refused: readonly Refused[];
  /** Which version of each template is the stable one, as the platform says. */
  readonly stableTemplates: readonly string[];
  /** What the platform holds and pipewright refuses, kept in each module as a suppression (`pull-held`). */
  readonly held: ReadonlyArray<{
    kind: ResourceKind;
    name: string;
    file: string;
    code: string;
    messages: readonly string[];
  }>;
  /** Files of an earlier pull whose resource is no longer on the platform (kept). */
  readonly deleted: readonly string[];
  /** Modules an earlier pull wrote under another path, removed. */
  readonly moved: readonly string[];
  readonly files: readonly FileOutcome[];
  /** The publish record written, so that the first publish after a pull writes nothing. */
  readonly record: string;
  /**
   * A pull interrupted while it switched its files, found in the project before this one: `finished` (its switch
   * completed from its journal) or `undone` (it stopped before committing; nothing of it had reached the project).
   */
  readonly interrupted?: 'finished' | 'undone';
  /** Import's warnings, then pull's (skipped, kept as YAML, edited, overwritten, gone). */
  readonly warnings: readonly Diagnostic[];
}

/**
 * Pulls an account, organization or project into a project folder as `pipewright pull` does: connects, reads
 * every resource of the scope, imports them as modules (YAML for what cannot be code), writes what changed and
 * keeps edits by hand, and writes the publish record, so that publish right after writes nothing.
 */
export async function pull(options: PullOptions): Promise<PullResult> {
  const scope = scopeOf(options);
  // A pull interrupted while it switched its files is finished (or undone) before the project is read.
  const interrupted = finishInterrupted(options.out);
  const { existing, client, read } = await readPlatform(options, scope);
  const connection = { baseUrl: client.baseUrl, accountId: client.accountId };
  const estate = await importEstate(
    read.documents,
    read.unreadable,
    options.out,
    projectConfig(client, read),
    heldFindings(read.documents),
  );
  const warnings = readWarnings(options.out, read.skipped, read.refused, estate);
  const changes = writeProject(options.out, estate.files, options.force ?? false, { ...connection, scope });
  // Beside the folder publish reads: the project's own outDir when it has a config of its own already.
  const outDir = join(options.out, existing.outDir ?? DEFAULT_OUT_DIR);
  const recordWarnings = await recordPulled(outDir, connection, estate, scope);
  return {
    ...summary(options.out, client, read, estate),
    ...{ deleted: changes.deleted, moved: changes.moved, files: changes.outcomes, record: recordPath(outDir) },
    ...(interrupted ? { interrupted } : {}),
    warnings: [...estate.warnings, ...warnings, ...changes.warnings, ...recordWarnings],
  };
}

function scopeOf(options: PullOptions): PullScope {
  if (options.project && !options.org)
    throw DiagnosticError.of(
      'usage',
      '--project needs --org (a project belongs to an organization)',
      'pass --org <org> --project <project>',
    );
  return { ...(options.org ? { org: options.org } : {}), ...(options.project ? { project: options.project } : {}) };
}

/**
 * Connects and reads the estate. Nothing is written from a partial read (a project missing what the platform
 * holds would publish as deletions): a failed request stops the pull with the one diagnostic of requestFailed.
 */
async function readPlatform(
  options: PullOptions,
  scope: PullScope,
): Promise<{ existing: PipewrightConfig; client: Client; read: PullReadResult }> {
  let keySource = 'HARNESS_API_KEY';
  try {
    // Pulling again: the project's own config says where it came from (flags and environment still win).
    const { config: existing } = existsSync(options.out) ? await loadConfig(options.out) : { config: {} };
    const connected = await connect(options, existing);
    keySource = connected.keySource;
    const { client } = connected;
    await preflight(client, { kind: 'project', org: scope.org ?? 'default', identifier: scope.project ?? 'default' });
    options.onEvent?.({ type: 'begin', baseUrl: client.baseUrl, accountId: client.accountId });
    const read = await readEstate(client, scope, {
      concurrency: options.concurrency ?? 4,
      onProgress: (progress) => options.onEvent?.({ type: 'progress', progress }),
    });
    return { existing, client, read: withoutKeyHolders(read, client) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw asUserError(error);
    const advice = isStopping(error.kind)
      ? authAdvice(error.kind, keySource, 'pull')
      : error.kind === 'transient'
        ? 'the platform kept failing this request after every retry (429, 5xx or no answer): nothing was written; check that it is up, then pull again (with a lower --rate if it kept answering 429)'
        : 'nothing was written; pull again once the request above can succeed';
    throw requestFailed(error, 'pull stopped', advice);
  }
}

/**
 * A document on the platform that holds the API key pull is using (pasted into a variable or a script, or echoed
 * by a server) is never written: a project is committed, and a key in a repository is worse than a missing module.
 * It is refused as `key-in-document`, with where the key is to be removed; the rest is pulled.
 */
function withoutKeyHolders(read: PullReadResult, client: Client): PullReadResult {
  const reason = 'it holds the API key this pull uses; a key is never written into the project';
  const holding = read.documents.filter((document) => client.holdsKey(document.yaml));
  const unreadable = read.unreadable.filter((item) => client.holdsKey(item.text));
  if (holding.length === 0 && unreadable.length === 0) return read;
  return {
    ...read,
    documents: read.documents.filter((document) => !holding.includes(document)),
    unreadable: read.unreadable.filter((item) => !unreadable.includes(item)),
    refused: [
      ...read.refused,
      ...holding.map((document) => ({
        kind: document.key.kind,
        name: keyName(document.key),
        reason,
        code: 'key-in-document' as const,
      })),
      ...unreadable.map((item) => ({ kind: item.kind, name: item.name, reason, code: 'key-in-document' as const })),
    ],
  };
}

/** The project's config: where it came from, and where each Git-stored document lives (for publish). */
function projectConfig(client: Client, read: PullReadResult): Record<string, unknown> {
  const gitFiles = Object.fromEntries(
    read.documents
      .filter((document) => document.git)
      .map((document) => [
        gitFileName(document.key),
        {
          connector: document.git!.connectorRef,
          repo: document.git!.repoName,
          branch: document.git!.branch,
          filePath: document.git!.filePath,
        },
      ])
      .sort(([a], [b]) => (a! < b! ? -1 : 1)),
  );
  return {
    baseUrl: client.baseUrl,
    accountId: client.accountId,
    ...(Object.keys(gitFiles).length ? { gitFiles } : {}),
  };
}

function summary(out: string, client: Client, read: PullReadResult, estate: ImportedEstate) {
  const perKind = new Map<ResourceKind, number>();
  for (const document of estate.imported) perKind.set(document.key.kind, (perKind.get(document.key.kind) ?? 0) + 1);
  return {
    outDir: out,
    baseUrl: client.baseUrl,
    accountId: client.accountId,
    requests: client.requests,
    documents: estate.imported.length,
    kinds: Object.fromEntries([...perKind].sort(([a], [b]) => publishRank(a) - publishRank(b))),
    unmodelled: estate.unmodelled.map((item) => ({ kind: item.kind, name: item.name, file: unmodelledPath(item) })),
    unmodelledDir: join(out, UNMODELLED_DIR),
    skipped: read.skipped,
    refused: read.refused,
    stableTemplates: estate.imported.filter((document) => document.stable).map((document) => keyName(document.key)),
    held: estate.held.map((held) => ({
      kind: held.document.key.kind,
      name: keyName(held.document.key),
      file: held.module,
      code: held.code,
      messages: held.messages,
    })),
  };
}

/** `3 pipelines, 1 connector`: the kinds of a result, in publish order. */
export const kindCounts = (kinds: PullResult['kinds']): string[] =>
  Object.entries(kinds).map(
    ([kind, n]) => `${n} ${n === 1 ? kindRow(kind as ResourceKind).label : kindRow(kind as ResourceKind).plural}`,
  );
