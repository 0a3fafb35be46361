import { loadConfig } from '../compile/load-config.js';
import { DEFAULT_OUT_DIR, type PipewrightConfig } from '../compile/config.js';
import { BaseUrlError } from '../platform/base-url.js';
import { createClient, type Client, type ClientOptions } from '../platform/client.js';

import { ProgressBar } from '../publish/progress.js';
import { countOutcomes, publishDocuments, type PublishReport } from '../publish/publish.js';
import { lastPublishedLookup, readRecord, recordPath, writeRecord } from '../publish/published-record.js';
import { findOrphans, pruneOrphans } from '../publish/prune.js';
import { readOutputFolder } from '../publish/read-output.js';
import { jsonReport, orphanLines, orphansFailed, resultLines, summaryTable } from '../publish/report-text.js';
import { markdownReport } from '../publish/report-markdown.js';
import type { RetryEvent } from '../platform/retry.js';
import {
  authAdvice,
  expandFilePath,
  gitFilesOf,
  resolveConnection,
  resolveGit,
  SettingsError,
  tuningFromEnv,
} from '../publish/settings.js';
import type { Probe } from '../platform/transport.js';
import { DiagnosticError, diagnosticOf } from '../core/diagnostics.js';
import { EXIT } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import type { ResourceKey } from '../catalog/resource-key.js';

export interface PublishFlags {
  readonly baseUrl?: string;
  readonly account?: string;
  readonly apiKeyFile?: string;
  readonly dryRun?: boolean;
  readonly json?: boolean;
  /** `markdown`: nothing on stdout until the report, in Markdown. */
  readonly format?: 'text' | 'markdown';
  readonly rate?: number;
  readonly concurrency?: number;
  readonly store?: string;
  readonly gitConnector?: string;
  readonly repo?: string;
  readonly branch?: string;
  readonly failOnDrift?: boolean;
  readonly prune?: boolean;
  readonly policyCheck?: boolean;
  readonly debug?: boolean;
}

/** What to check when the preflight found no platform at the address. */
export const PREFLIGHT_HINT: Readonly<Record<Exclude<Probe, { ok: true }>['problem'], string>> = {
  refused:
    'nothing listens there: check the host and port in --base-url, HARNESS_BASE_URL or baseUrl in pipewright.config.ts, and that the platform (or your tunnel) is running',
  unresolved:
    'check the host name in --base-url, HARNESS_BASE_URL or baseUrl in pipewright.config.ts (and the DNS of this machine)',
  tls: "check that the address is the platform's; a private CA is trusted with NODE_EXTRA_CA_CERTS=/path/to/ca.pem",
  timeout: 'no answer in time: check the address, and any firewall or proxy between this machine and the platform',
  network: 'check the address and the network between this machine and the platform',
  'blocked-port':
    'check the port in --base-url, HARNESS_BASE_URL or baseUrl in pipewright.config.ts; the platform is not served on it',
  'not-json':
    "something answers there, but not the platform's API: give the address of the platform itself, e.g. https://app.harness.io (a self-hosted install with its path prefix), without /gateway or /ng/api",
  'bare-404':
    "something answers there, but not the platform's API: give the address of the platform itself, e.g. https://app.harness.io (a self-hosted install with its path prefix), without /gateway or /ng/api",
};

/** Settings problems are the user's to fix: a diagnostic of their code, printed without a stack. */
export function asUserError(error: unknown): unknown {
  if (error instanceof SettingsError) return DiagnosticError.of(error.code, error.message, error.hint);
  if (error instanceof BaseUrlError) return DiagnosticError.of('invalid-setting', error.message, error.hint);
  return error;
}

/** A document the platform did not take, as a diagnostic of the --json envelope (the report has the details). */
const publishDiagnostics = (report: PublishReport) => [
  ...report.results.flatMap((result) =>
    result.outcome === 'failed' && result.error
      ? [
          diagnosticOf('publish-failed', 'error', {
            message: result.error.message,
            path: [],
            location: { file: result.file },
            subject: `${result.kind} "${result.id.identifier}"`,
          }),
        ]
      : [],
  ),
  // A delete --prune asked for that did not happen.
  ...(report.orphans ?? []).flatMap((orphan) =>
    orphan.outcome === 'failed' || orphan.outcome === 'kept'
      ? [
          diagnosticOf('publish-failed', 'error', {
            message: orphan.error?.message ?? orphan.message ?? 'not deleted',
            path: [],
            location: { file: orphan.file },
            subject: `${orphan.kind} "${orphan.id.identifier}"`,
          }),
        ]
      : [],
  ),
];

/** Retries are logged only with --debug: in CI a flaky minute would otherwise bury the per-document lines. */
export const retryLogger = (debug: boolean) =>
  debug
    ? ({ error, attempt, delayMs }: RetryEvent) =>
        process.stderr.write(`debug: ${error.request}: ${error.message}; attempt ${attempt + 1} in ${delayMs} ms\n`)
    : undefined;

/**
 * The platform client publish and pull share: the connection, the rate limit (flag, then config, then 1000 a
 * minute), the environment's tuning (retries, timeout, list page size), retries logged only with --debug.
 */
export function platformClient(
  connection: Pick<ClientOptions, 'baseUrl' | 'accountId' | 'apiKey'>,
  flags: { readonly rate?: number | undefined; readonly debug?: boolean | undefined },
  config: PipewrightConfig,
  tuning: ReturnType<typeof tuningFromEnv> = tuningFromEnv(),
): Client {
  const onRetry = retryLogger(flags.debug ?? false);
  return createClient({
    baseUrl: connection.baseUrl,
    accountId: connection.accountId,
    apiKey: connection.apiKey,
    rateLimit: flags.rate ?? config.rateLimit ?? 1000,
    retry: tuning.retry,
    ...(tuning.timeoutMs !== undefined ? { timeoutMs: tuning.timeoutMs } : {}),
    ...(tuning.listPageSize !== undefined ? { listPageSize: tuning.listPageSize } : {}),
    ...(onRetry ? { onRetry } : {}),
  });
}

export async function runPublish(dirArg: string | undefined, flags: PublishFlags): Promise<number> {
  let report: PublishReport;
  let context: { baseUrl: string; accountId: string; dir: string; edited: string[]; keySource: string };
  // Markdown and JSON are read by a program or a page: stdout holds the report alone, and no bar runs.
  const quiet = Boolean(flags.json) || flags.format === 'markdown';
  const tty = Boolean(process.stderr.isTTY) && !quiet;
  let bar: ProgressBar | undefined;
  try {
    const { config } = await loadConfig();
    const dir = dirArg ?? config.outDir ?? DEFAULT_OUT_DIR;
    const { items, edited } = await readOutputFolder(dir);
    const connection = await resolveConnection(flags, config);
    const storage = resolveGit(flags, config);
    const tuning = tuningFromEnv();
    const client = platformClient(connection, flags, config, tuning);
    // One request first: a wrong address fails once, at once, instead of once per document after every retry.
    if (items.length > 0) {
      const found = await client.probe(items[0]!.document.id);
      if (!found.ok)
        throw DiagnosticError.of(
          'no-platform',
          `no platform at ${client.baseUrl}: ${found.detail}`,
          PREFLIGHT_HINT[found.problem],
        );
    }
    context = { baseUrl: client.baseUrl, accountId: client.accountId, dir, edited, keySource: connection.keySource };
    for (const file of edited)
      process.stderr.write(
        `warning: ${dir}/${file} was changed after compile (its sha256 differs from manifest.json); publishing it as it is\n`,
      );
    if (!quiet)
      process.stdout.write(
        `${flags.dryRun ? 'dry run: reading' : 'publishing'} ${items.length} document${items.length === 1 ? '' : 's'} from ${dir} ${flags.dryRun ? 'against' : 'to'} ${client.baseUrl} (account ${client.accountId})\n`,
      );
    const record = await readRecord(dir, client.baseUrl, client.accountId);
    if (flags.failOnDrift && record.size === 0)
      process.stderr.write(
        `warning: --fail-on-drift: no record of an earlier publish to ${client.baseUrl} (${recordPath(dir)}); changes made on the platform cannot be told from changes of the source in this run\n`,
      );
    const git = storage.git;
    const template = git?.filePath;
    const gitFileOf = gitFilesOf(config);
    bar = tty ? new ProgressBar(process.stderr, items.length) : undefined;
    report = await publishDocuments(client, items, {
      dryRun: flags.dryRun ?? false,
      concurrency: flags.concurrency ?? 4,
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
      failOnDrift: flags.failOnDrift ?? false,
      policyCheck: flags.policyCheck ?? false,
      ...(tuning.webhookPauseMs !== undefined ? { webhookPauseMs: tuning.webhookPauseMs } : {}),
      lastPublished: lastPublishedLookup(record),
      ...(gitFileOf ? { gitFileOf } : {}),
      onStart: (item) => bar?.started(item.file),
      onResult: (result) => {
        if (bar) bar.finished(result);
        else if (!quiet) process.stdout.write(`${resultLines(result, flags.dryRun ?? false).join('\n')}\n`);
      },
    });
    // What an earlier publish recorded and this folder no longer has: listed, or deleted with --prune (not when the
    // run stopped: the platform is not answering, or not taking the key).
    const orphans = findOrphans(record, items);
    if (orphans.length > 0) {
      const outcomes = await pruneOrphans(client, orphans, {
        prune: (flags.prune ?? false) && !report.stopped,
        dryRun: report.dryRun,
      });
      report = { ...report, orphans: outcomes };
      bar?.clear();
      if (!quiet)
        for (const result of outcomes) process.stdout.write(`${orphanLines(result, report.dryRun).join('\n')}\n`);
    }
    // Every request of the command, the preflight and the orphans' included.
    report = { ...report, requests: client.requests };
    const removed = (report.orphans ?? [])
      .filter((o) => !report.dryRun && (o.outcome === 'deleted' || o.outcome === 'gone'))
      .map((o) => o.file);
    if (!report.dryRun)
      try {
        await writeRecord(
          dir,
          { baseUrl: client.baseUrl, accountId: client.accountId },
          record,
          items,
          report.results,
          removed,
        );
      } catch (error) {
        // The documents are published; only the next --fail-on-drift loses its reference.
        const code = (error as { code?: string }).code;
        process.stderr.write(
          `warning: could not write ${recordPath(dir)}${code ? ` (${code})` : ''}: the next --fail-on-drift run has no record to compare with\n`,
        );
      }
  } catch (error) {
    bar?.clear();
    throw asUserError(error);
  }
  bar?.clear();
  if (flags.json) {
    const { ok, ...fields } = jsonReport(report, context);
    printEnvelope('publish', ok, publishDiagnostics(report), fields);
  } else if (flags.format === 'markdown') process.stdout.write(markdownReport(report, context));
  else {
    // On a terminal the bar replaced the per-document lines; what needs reading afterwards is the diff and the failures.
    if (tty)
      for (const result of report.results)
        if (result.outcome === 'failed' || (report.dryRun && result.outcome === 'updated'))
          process.stdout.write(`${resultLines(result, report.dryRun).join('\n')}\n`);
    process.stdout.write(`\n${summaryTable(report)}`);
  }
  if (report.stopped)
    process.stderr.write(`pipewright: publish stopped early: ${authAdvice(report.stopped.kind, context.keySource)}\n`);
  return countOutcomes(report.results).failed > 0 || orphansFailed(report.orphans) ? EXIT.failed : EXIT.ok;
}
