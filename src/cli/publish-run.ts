import { diagnosticOf } from '../core/diagnostics.js';
import { ProgressBar } from '../publish/progress.js';
import { countOutcomes } from '../publish/publish.js';
import { publishFolder, type PublishFolderReport, type PublishFolderOptions } from '../publish/publish-folder.js';
import { jsonReport, orphanLines, orphansFailed, resultLines, summaryTable } from '../publish/report-text.js';
import { markdownReport } from '../publish/report-markdown.js';
import { authAdvice } from '../publish/settings.js';
import { EXIT } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { debugRetries, protectKeyFile, redactingStderr, stderr, stdout } from './output.js';

export interface PublishFlags extends Omit<PublishFolderOptions, 'config' | 'onEvent' | 'onRetry'> {
  readonly json?: boolean;
  /** `markdown`: nothing on stdout until the report, in Markdown. */
  readonly format?: 'text' | 'markdown';
  readonly debug?: boolean;
}

/** A document the platform did not take, as a diagnostic of the --json envelope (the report has the details). */
const publishDiagnostics = (report: PublishFolderReport) => [
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

/** `pipewright publish`: publishFolder, with its events as lines (or a bar on a terminal) and its report printed. */
export async function runPublish(dir: string | undefined, flags: PublishFlags): Promise<number> {
  // Markdown and JSON are read by a program or a page: stdout holds the report alone, and no bar runs.
  const quiet = Boolean(flags.json) || flags.format === 'markdown';
  const tty = Boolean(process.stderr.isTTY) && !quiet;
  const dryRun = flags.dryRun ?? false;
  protectKeyFile(flags.apiKeyFile);
  let bar: ProgressBar | undefined;
  let report: PublishFolderReport;
  try {
    report = await publishFolder(dir, {
      ...flags,
      onRetry: debugRetries(flags.debug ?? false),
      onEvent: (event) => {
        if (event.type === 'warning') stderr(`warning: ${event.message}\n`);
        else if (event.type === 'begin') {
          const { documents, target } = event;
          if (!quiet)
            stdout(
              `${dryRun ? 'dry run: reading' : 'publishing'} ${documents} document${documents === 1 ? '' : 's'} from ${target.dir} ${dryRun ? 'against' : 'to'} ${target.baseUrl} (account ${target.accountId})\n`,
            );
          bar = tty ? new ProgressBar(redactingStderr(), documents) : undefined;
        } else if (event.type === 'start') bar?.started(event.item.file);
        else if (event.type === 'result') {
          if (bar) bar.finished(event.result);
          else if (!quiet) stdout(`${resultLines(event.result, dryRun).join('\n')}\n`);
        } else {
          bar?.clear();
          if (!quiet) stdout(`${orphanLines(event.result, dryRun).join('\n')}\n`);
        }
      },
    });
  } finally {
    bar?.clear();
  }
  const { target } = report;
  if (flags.json) {
    const { ok, ...fields } = jsonReport(report, target);
    printEnvelope('publish', ok, publishDiagnostics(report), fields);
  } else if (flags.format === 'markdown') stdout(markdownReport(report, target));
  else {
    // On a terminal the bar replaced the per-document lines; what needs reading afterwards is the diff and the failures.
    if (tty)
      for (const result of report.results)
        if (result.outcome === 'failed' || (report.dryRun && result.outcome === 'updated'))
          stdout(`${resultLines(result, report.dryRun).join('\n')}\n`);
    stdout(`\n${summaryTable(report)}`);
  }
  if (report.stopped)
    stderr(`pipewright: publish stopped early: ${authAdvice(report.stopped.kind, target.keySource)}\n`);
  return countOutcomes(report.results).failed > 0 || orphansFailed(report.orphans) ? EXIT.failed : EXIT.ok;
}
