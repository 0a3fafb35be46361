import { diagnosticOf } from '../core/diagnostics.js';
import { runPipeline, type RunEvent, type RunResult } from '../run/run.js';
import {
  changeLine,
  endLine,
  failureText,
  inputsLine,
  liveLines,
  markdownReport,
  waitingLine,
} from '../run/run-report.js';
import { EXIT } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { debugRetries, protectKeyFile, redactingStderr, stderr, stdout } from './output.js';
import { parseAssignment } from './render-run.js';

export interface RunFlags {
  readonly org?: string;
  readonly project?: string;
  readonly inputSet?: readonly string[];
  readonly inputs?: string;
  readonly set?: readonly string[];
  readonly branch?: string;
  readonly timeout?: number;
  /** commander's `--no-wait`: false when given. */
  readonly wait?: boolean;
  readonly detach?: boolean;
  readonly baseUrl?: string;
  readonly account?: string;
  readonly apiKeyFile?: string;
  readonly rate?: number;
  readonly out?: string;
  readonly json?: boolean;
  readonly format?: 'text' | 'markdown';
  /** The global `--debug`: each retry of a request is printed. */
  readonly debug?: boolean;
}

/** A terminal's live view: the stages and steps redrawn in place on stderr at each read. */
class LiveView {
  readonly #stream = redactingStderr();
  #height = 0;

  draw(lines: readonly string[]): void {
    const width = Math.max(20, (this.#stream.columns ?? 100) - 1);
    const fitted = lines.map((line) => (line.length > width ? `${line.slice(0, width - 1)}…` : line));
    this.clear();
    this.#stream.write(`${fitted.join('\n')}\n`);
    this.#height = fitted.length;
  }

  clear(): void {
    if (this.#height) this.#stream.write(`\x1b[${this.#height}F\x1b[J`);
    this.#height = 0;
  }
}

/** The run as a diagnostic of the --json envelope when it did not succeed. */
const runDiagnostics = (result: RunResult) =>
  result.ok
    ? []
    : [
        diagnosticOf('run-failed', 'error', {
          message: `${result.outcome}${failureText(result)}`,
          path: [],
          subject: `execution ${result.planExecutionId} of pipeline "${result.pipeline.identifier}"`,
          hint: `see ${result.url}`,
        }),
      ];

/**
 * `pipewright run`: runPipeline, with the execution's id and URL at once, then a line per change (or, on a
 * terminal, a live view), each wait for a person with where to act, and the end; `--json` and `--format markdown`
 * print only the report on stdout (the id and URL still go to stderr at once). Ctrl-C and SIGTERM end the wait.
 */
export async function runRun(pipelineArg: string, flags: RunFlags): Promise<number> {
  const quiet = Boolean(flags.json) || flags.format === 'markdown';
  const live = !quiet && Boolean(process.stderr.isTTY) ? new LiveView() : undefined;
  // What is read as it happens goes to stdout in text mode, to stderr when stdout holds a report.
  const say = quiet ? stderr : stdout;
  protectKeyFile(flags.apiKeyFile);
  const values = (flags.set ?? []).map(parseAssignment);
  const stop = new AbortController();
  let url = '';
  const onSignal = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted) {
      // A second Ctrl-C: the user will not wait for the abort's answer (the interrupt may already be sent).
      stderr(`\n${signal} again: stopped without waiting; check the execution at ${url || 'the platform'}\n`);
      process.exit(EXIT.failed);
    }
    live?.clear();
    stderr(`\n${signal}: ${flags.detach ? 'leaving the execution running (--detach)' : 'aborting the execution'}\n`);
    stop.abort(new Error(signal));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const onEvent = (event: RunEvent) => {
    switch (event.type) {
      case 'checked':
        say(`${inputsLine(event.inputs, event.from)}\n`);
        return;
      case 'started':
        url = event.url;
        say(`started execution ${event.planExecutionId}\n  ${event.url}\n`);
        return;
      case 'snapshot':
        live?.draw(liveLines(event.snapshot));
        return;
      case 'change':
        if (!live && !quiet) stdout(`${changeLine(event.stage, event.step)}\n`);
        return;
      case 'waiting':
        live?.clear();
        say(`${waitingLine(event.status, url, event.stage, event.step)}\n`);
        return;
    }
  };
  let result: RunResult;
  try {
    result = await runPipeline({
      pipeline: pipelineArg,
      org: flags.org,
      project: flags.project,
      inputSets: flags.inputSet ?? [],
      inputsFile: flags.inputs,
      values,
      branch: flags.branch,
      wait: flags.wait !== false,
      timeoutMs: flags.timeout,
      signal: stop.signal,
      detach: flags.detach,
      picture: flags.format === 'markdown',
      outDir: flags.out,
      baseUrl: flags.baseUrl,
      account: flags.account,
      apiKeyFile: flags.apiKeyFile,
      rate: flags.rate,
      onRetry: debugRetries(flags.debug ?? false),
      onEvent,
    });
  } finally {
    live?.clear();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (flags.json) {
    const { ok, picture: _picture, ...fields } = result;
    printEnvelope('run', ok, runDiagnostics(result), fields);
  } else if (flags.format === 'markdown') stdout(markdownReport(result));
  else if (live) for (const line of liveLines(snapshotOf(result))) stdout(`${line}\n`);
  (result.ok ? say : stderr)(`${endLine(result)}\n`);
  return result.ok ? EXIT.ok : EXIT.failed;
}

/** The result's stages and steps in the live view's shape, printed once at the end on a terminal. */
const snapshotOf = (result: RunResult) => ({
  planExecutionId: result.planExecutionId,
  status: result.status,
  stages: result.stages,
  steps: result.stages.flatMap((stage) => stage.steps),
});
