import { loadConfig } from '../compile/load-config.js';
import { DEFAULT_OUT_DIR } from '../config.js';
import { BaseUrlError } from '../publish/base-url.js';
import { createClient } from '../publish/client.js';
import { ProgressBar } from '../publish/progress.js';
import { countOutcomes, publishDocuments, type PublishReport } from '../publish/publish.js';
import { readOutputFolder } from '../publish/read-output.js';
import { jsonReport, resultLines, summaryTable } from '../publish/report-text.js';
import type { RetryEvent } from '../publish/retry.js';
import { authAdvice, resolveConnection, SettingsError, tuningFromEnv } from '../publish/settings.js';
import { EXIT, UserError } from './errors.js';

export interface PublishFlags {
  readonly baseUrl?: string;
  readonly account?: string;
  readonly apiKeyFile?: string;
  readonly dryRun?: boolean;
  readonly json?: boolean;
  readonly rate?: number;
  readonly concurrency?: number;
  readonly debug?: boolean;
}

/** Settings problems are the user's to fix: printed as one message and a hint, no stack. */
export function asUserError(error: unknown): unknown {
  if (error instanceof SettingsError || error instanceof BaseUrlError) return new UserError(error.message, error.hint);
  return error;
}

/** Retries are logged only with --debug: in CI a flaky minute would otherwise bury the per-document lines. */
const retryLogger = (debug: boolean) =>
  debug
    ? ({ error, attempt, delayMs }: RetryEvent) =>
        process.stderr.write(`debug: ${error.request}: ${error.message}; attempt ${attempt + 1} in ${delayMs} ms\n`)
    : undefined;

export async function runPublish(dirArg: string | undefined, flags: PublishFlags): Promise<number> {
  let report: PublishReport;
  let context: { baseUrl: string; accountId: string; dir: string; edited: string[]; keySource: string };
  const tty = Boolean(process.stderr.isTTY) && !flags.json;
  let bar: ProgressBar | undefined;
  try {
    const { config } = await loadConfig();
    const dir = dirArg ?? config.outDir ?? DEFAULT_OUT_DIR;
    const { items, edited } = await readOutputFolder(dir);
    const connection = await resolveConnection(flags, config);
    const tuning = tuningFromEnv();
    const onRetry = retryLogger(flags.debug ?? false);
    const client = createClient({
      baseUrl: connection.baseUrl,
      accountId: connection.accountId,
      apiKey: connection.apiKey,
      rateLimit: flags.rate ?? config.rateLimit ?? 1000,
      retry: tuning.retry,
      ...(tuning.timeoutMs !== undefined ? { timeoutMs: tuning.timeoutMs } : {}),
      ...(onRetry ? { onRetry } : {}),
    });
    context = { baseUrl: client.baseUrl, accountId: client.accountId, dir, edited, keySource: connection.keySource };
    for (const file of edited)
      process.stderr.write(`warning: ${dir}/${file} was changed after compile (its sha256 differs from manifest.json); publishing it as it is\n`);
    if (!flags.json)
      process.stdout.write(
        `${flags.dryRun ? 'dry run: reading' : 'publishing'} ${items.length} document${items.length === 1 ? '' : 's'} from ${dir} ${flags.dryRun ? 'against' : 'to'} ${client.baseUrl} (account ${client.accountId})\n`,
      );
    bar = tty ? new ProgressBar(process.stderr, items.length) : undefined;
    report = await publishDocuments(client, items, {
      dryRun: flags.dryRun ?? false,
      concurrency: flags.concurrency ?? 4,
      onStart: (item) => bar?.started(item.file),
      onResult: (result) => {
        if (bar) bar.finished(result);
        else if (!flags.json) process.stdout.write(`${resultLines(result, flags.dryRun ?? false).join('\n')}\n`);
      },
    });
  } catch (error) {
    bar?.clear();
    throw asUserError(error);
  }
  bar?.clear();
  if (flags.json) process.stdout.write(`${JSON.stringify(jsonReport(report, context), null, 2)}\n`);
  else {
    // On a terminal the bar replaced the per-document lines; what needs reading afterwards is the diff and the failures.
    if (tty)
      for (const result of report.results)
        if (result.outcome === 'failed' || (report.dryRun && result.outcome === 'updated'))
          process.stdout.write(`${resultLines(result, report.dryRun).join('\n')}\n`);
    process.stdout.write(`\n${summaryTable(report)}`);
  }
  if (report.stopped) process.stderr.write(`pipewright: publish stopped early: ${authAdvice(report.stopped.kind, context.keySource)}\n`);
  return countOutcomes(report.results).failed > 0 ? EXIT.failed : EXIT.ok;
}
