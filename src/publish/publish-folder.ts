import { keyId, type ResourceKey } from '../catalog/resource-key.js';
import { DEFAULT_OUT_DIR, type PipewrightConfig } from '../compile/config.js';
import { configOutDir, loadConfig } from '../compile/load-config.js';
import type { Client } from '../platform/client.js';
import { asUserError, connect, preflight, type ConnectOptions } from './connect.js';
import type { PublishItem } from './publish-item.js';
import { publishDocuments, type DocumentResult, type PublishOptions, type PublishReport } from './publish.js';
import { lastPublishedLookup, PublishedRecord, recordPath, unconfirmedLookup } from './published-record.js';
import { findOrphans, pruneOrphans, type OrphanResult } from './prune.js';
import { readOutputFolder } from './read-output.js';
import type { SkippedEntry } from '../compile/layout.js';
import { expandFilePath, gitFilesOf, resolveGit, tuningFromEnv, type GitFlags } from './settings.js';

/** What `publishFolder` is asked to do: the `pipewright publish` flags, as options. */
export interface PublishFolderOptions extends ConnectOptions, GitFlags {
  readonly dryRun?: boolean | undefined;
  readonly concurrency?: number | undefined;
  readonly failOnDrift?: boolean | undefined;
  readonly prune?: boolean | undefined;
  readonly policyCheck?: boolean | undefined;
  /** The project's config; default: `pipewright.config.ts` of the working folder, when there is one. */
  readonly config?: PipewrightConfig | undefined;
  /** What happens as it happens (the CLI's lines and bar); nothing is printed by publishFolder itself. */
  readonly onEvent?: ((event: PublishEvent) => void) | undefined;
}

/** One step of a run, in the order it happens. */
export type PublishEvent =
  | { readonly type: 'warning'; readonly message: string }
  | { readonly type: 'begin'; readonly documents: number; readonly target: PublishTarget; readonly dryRun: boolean }
  | { readonly type: 'start'; readonly item: PublishItem }
  | { readonly type: 'result'; readonly result: DocumentResult }
  | { readonly type: 'orphan'; readonly result: OrphanResult };

/** Where a run published: the folder, the platform and account, and what the report's advice needs. */
export interface PublishTarget {
  readonly dir: string;
  readonly baseUrl: string;
  readonly accountId: string;
  /** Files changed after compile (their sha256 differs from manifest.json), published as they are. */
  readonly edited: readonly string[];
  /** Where the key came from (HARNESS_API_KEY or a file), for the advice when the platform refuses it. */
  readonly keySource: string;
}

/** A run's report and where it ran. */
export interface PublishFolderReport extends PublishReport {
  readonly target: PublishTarget;
}

/**
 * Publishes a compiled folder as `pipewright publish` does: reads the folder, proves the platform is there,
 * publishes each kind in dependency order against the record of the last publish, lists (or with `prune` deletes)
 * what the record has and the folder no longer does, and writes the record. `dir` defaults to the config's outDir.
 */
export async function publishFolder(
  dir: string | undefined,
  options: PublishFolderOptions = {},
): Promise<PublishFolderReport> {
  try {
    const loaded = options.config ? undefined : await loadConfig();
    const config = options.config ?? loaded!.config;
    // From a subfolder of the project, the config's outDir is beside the config (configOutDir).
    const folder = dir ?? (loaded ? configOutDir(loaded) : (config.outDir ?? DEFAULT_OUT_DIR));
    const { items, edited, skipped } = await readOutputFolder(folder);
    const tuning = tuningFromEnv();
    // Settings are checked before any request: a missing Git setting is named at once, with nothing sent.
    const storage = resolveGit(options, config);
    const { client, keySource } = await connect(options, config, tuning);
    if (items.length > 0) await preflight(client, items[0]!.document.id);
    const target = { dir: folder, baseUrl: client.baseUrl, accountId: client.accountId, edited, keySource };
    announce(options, target, items.length);
    if (skipped.length > 0) warn(options, skippedWarning(folder, skipped));
    const record = await PublishedRecord.open(folder, target, (message) => warn(options, message));
    if (options.failOnDrift && record.size === 0) warn(options, driftWithoutRecord(client, folder));
    const before = record.snapshot();
    const report = await publishDocuments(client, items, runOptions(options, config, storage, tuning, record, items));
    const orphans = await orphansOf(client, before, items, skipped, report, options);
    if (!report.dryRun) await keepRecord(record, orphans, options);
    return { ...report, ...(orphans ? { orphans } : {}), requests: client.requests, target };
  } catch (error) {
    throw asUserError(error);
  }
}

const warn = (options: PublishFolderOptions, message: string) => options.onEvent?.({ type: 'warning', message });

function announce(options: PublishFolderOptions, target: PublishTarget, documents: number): void {
  for (const file of target.edited)
    warn(
      options,
      `${target.dir}/${file} was changed after compile (its sha256 differs from manifest.json); publishing it as it is`,
    );
  options.onEvent?.({ type: 'begin', documents, target, dryRun: options.dryRun ?? false });
}

/** The documents compile --keep-going skipped: not published here, and never pruned. */
const skippedWarning = (dir: string, skipped: readonly SkippedEntry[]) =>
  `${dir} was compiled with --keep-going: ${skipped.length} skipped ${skipped.length === 1 ? 'document is' : 'documents are'} not published and not pruned (${skipped
    .map((entry) => entry.file ?? entry.source)
    .join(', ')}); fix ${[...new Set(skipped.map((entry) => entry.source))].join(', ')} and compile again`;

const driftWithoutRecord = (client: Client, dir: string) =>
  `--fail-on-drift: no record of an earlier publish to ${client.baseUrl} (${recordPath(dir)}); changes made on the platform cannot be told from changes of the source in this run`;

/** The options of publishDocuments from the command's: storage, drift, policies, the record, the events. */
function runOptions(
  options: PublishFolderOptions,
  config: PipewrightConfig,
  storage: ReturnType<typeof resolveGit>,
  tuning: ReturnType<typeof tuningFromEnv>,
  record: PublishedRecord,
  items: readonly PublishItem[],
): PublishOptions {
  const git = storage.git;
  const dryRun = options.dryRun ?? false;
  const byFile = new Map(items.map((item) => [item.file, item]));
  // The drift check compares with the record as the run found it, not with what the run itself writes.
  const before = record.snapshot();
  const template = git?.filePath;
  const gitFileOf = gitFilesOf(config);
  return {
    dryRun,
    concurrency: options.concurrency ?? 4,
    store: storage.store,
    ...(git
      ? {
          git: {
            connectorRef: git.connectorRef,
            repoName: git.repoName,
            branch: git.branch,
            ...(template ? { filePath: (id: ResourceKey) => expandFilePath(template, id) } : {}),
          },
        }
      : {}),
    failOnDrift: options.failOnDrift ?? false,
    policyCheck: options.policyCheck ?? false,
    ...(tuning.webhookPauseMs !== undefined ? { webhookPauseMs: tuning.webhookPauseMs } : {}),
    lastPublished: lastPublishedLookup(before),
    unconfirmed: unconfirmedLookup(before),
    ...(gitFileOf ? { gitFileOf } : {}),
    onWarning: (message) => warn(options, message),
    onStart: (item) => options.onEvent?.({ type: 'start', item }),
    ...(dryRun ? {} : { onSend: (item: PublishItem) => record.sending(item) }),
    onResult: (result) => {
      // A failed document keeps its entry: what the platform held before, and what was sent if it was.
      if (!dryRun && result.outcome !== 'failed') record.confirmed(byFile.get(result.file)!);
      options.onEvent?.({ type: 'result', result });
    },
  };
}

/**
 * What an earlier publish recorded and this folder no longer has: listed, or deleted with `prune` (not when the
 * run stopped: the platform is not answering, or not taking the key).
 */
async function orphansOf(
  client: Client,
  record: ReturnType<PublishedRecord['snapshot']>,
  items: readonly PublishItem[],
  skipped: readonly SkippedEntry[],
  report: PublishReport,
  options: PublishFolderOptions,
): Promise<readonly OrphanResult[] | undefined> {
  const orphans = findOrphans(record, items, skipped);
  if (orphans.length === 0) return undefined;
  // A skipped source that made no document may define any of them: nothing is deleted until it compiles.
  const unknown = skipped.filter((entry) => entry.identifier === undefined).map((entry) => entry.source);
  if (unknown.length > 0 && options.prune)
    warn(
      options,
      `--prune deletes nothing: compile --keep-going skipped ${unknown.join(', ')}, which made no document, so what it defines is not known; fix it and compile again`,
    );
  const outcomes = await pruneOrphans(client, orphans, {
    prune: (options.prune ?? false) && !report.stopped && unknown.length === 0,
    dryRun: report.dryRun,
  });
  for (const result of outcomes) options.onEvent?.({ type: 'orphan', result });
  return outcomes;
}

/**
 * The record, for the next run's drift check and orphans: what this run confirmed and sent is in it already (and
 * in its journal); orphans deleted or gone leave it; written whole, and the journal removed.
 */
async function keepRecord(
  record: PublishedRecord,
  orphans: readonly OrphanResult[] | undefined,
  options: PublishFolderOptions,
): Promise<void> {
  record.remove((orphans ?? []).filter((o) => o.outcome === 'deleted' || o.outcome === 'gone').map((o) => keyId(o.id)));
  try {
    await record.compact();
  } catch (error) {
    // The documents are published, and the journal still holds what this run did: the next run folds it in.
    const code = (error as { code?: string }).code;
    warn(
      options,
      `could not write ${record.path}${code ? ` (${code})` : ''}: the next --fail-on-drift run has no record to compare with`,
    );
  }
}
