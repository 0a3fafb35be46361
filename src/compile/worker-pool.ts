import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerScript } from '../core/worker-script.js';
import type { EntryResult } from './entry-result.js';
import { DiagnosticError, withoutRepeats, type Diagnostic } from '../core/diagnostics.js';
import type { RenderOptions } from './render-output.js';
import {
  definitionLimitMs,
  noticeAfter,
  stillEvaluatingLine,
  timeoutError,
  type EvaluationProgress,
} from './definition-limit.js';

/** A worker's batch: its entry files, how to render them, and where to write their texts (spool.ts), if anywhere. */
export interface WorkerData {
  readonly files: readonly string[];
  readonly options: RenderOptions;
  readonly spool?: string;
  readonly prefix?: string;
}

/** A worker's one message: its batch's results, the diagnostics that stopped it, or an unexpected failure. */
export type WorkerAnswer =
  | { readonly ok: EntryResult[] }
  | { readonly diagnostics: readonly Diagnostic[]; readonly stack?: string | undefined }
  | { readonly failure: string; readonly stack?: string | undefined };

/**
 * Below this many entry files a compile stays in one thread. Workers bound the heap and keep the cost linear in
 * the number of files. On two cores one thread already keeps the second one busy (esbuild bundles the next chunk
 * in its own process, V8 collects and compiles beside it): 1000 imported pipelines took 3.2 s in one thread
 * against 3.9 s in two workers, 2000 took the same time either way (docs/performance.md). With more cores,
 * workers add what one thread cannot use.
 */
const minFilesForWorkers = (lanes: number): number => (lanes <= 2 ? 2000 : 1000);

/**
 * Files per worker, about: bounds each worker's heap (at most 1.5 times this), whatever the size of the
 * repository, while keeping the cost of starting workers small. Each new worker loads the library and runs its
 * code cold: at 5000 imported pipelines, batches of about 833 took 19.8 s of CPU against 23.5 s for 500, and
 * peaked at 582 MiB against 502 MiB (docs/performance.md).
 */
const BATCH_TARGET = 800;

/**
 * How to split `files` into worker batches, or undefined to build them in this thread.
 * `PIPEWRIGHT_BATCH_SIZE=n` sets the files per batch (0: never use workers).
 */
export function planBatches(
  files: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  lanes = threads(),
): string[][] | undefined {
  const chosen = batchSizeSetting(env.PIPEWRIGHT_BATCH_SIZE);
  if (chosen === 0 || files.length === 0) return undefined;
  if (chosen === undefined && files.length < minFilesForWorkers(lanes)) return undefined;
  // A whole number of rounds of `lanes` batches, so that the lanes finish together (1001 files are two
  // batches of 501, not 500 + 500 + a lone 1 that runs while the other lane waits).
  const count = chosen
    ? Math.ceil(files.length / chosen)
    : lanes * Math.max(1, Math.round(files.length / (lanes * BATCH_TARGET)));
  // Sizes differ by one at most: 5001 files are 501 + 9 x 500, not 9 x 501 + 492.
  const batches: string[][] = [];
  for (let index = 0, start = 0; index < count; index++) {
    const size = chosen ?? Math.floor(files.length / count) + (index < files.length % count ? 1 : 0);
    batches.push(files.slice(start, start + size));
    start += size;
  }
  return batches;
}

function batchSizeSetting(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  throw new DiagnosticError([
    {
      code: 'invalid-setting',
      severity: 'error',
      message: `PIPEWRIGHT_BATCH_SIZE is ${JSON.stringify(value)}, not a whole number`,
      path: [],
      hint: 'set it to the number of entry files each worker thread compiles, 0 to compile in one thread, or unset it',
    },
  ]);
}

/** Worker threads at once: one per core, at most 8. */
const threads = () => Math.max(1, Math.min(availableParallelism(), 8));

/**
 * One batch in a new worker thread. Settles when the thread has exited, not when it answers: the lane's next
 * worker starts only once this one's heap is gone, so at most one heap per lane is alive.
 */
function runWorker(file: string, work: WorkerData): Promise<WorkerAnswer> {
  const { files } = work;
  const limitMs = definitionLimitMs();
  return new Promise((resolve) => {
    const worker = new Worker(file, { workerData: work });
    let answer: WorkerAnswer | undefined;
    // The definition limit: the worker says what it evaluates; a loop there cannot be stopped from inside it.
    let timers: NodeJS.Timeout[] = [];
    const clear = () => {
      for (const timer of timers) clearTimeout(timer);
      timers = [];
    };
    const watch = (evaluating: readonly string[]) => {
      timers.push(
        setTimeout(() => process.stderr.write(stillEvaluatingLine(evaluating, limitMs)), noticeAfter(limitMs)),
        setTimeout(() => {
          answer ??= { diagnostics: timeoutError(evaluating, limitMs).diagnostics };
          void worker.terminate();
        }, limitMs),
      );
    };
    worker.on('message', (message: WorkerAnswer | EvaluationProgress) => {
      clear();
      if ('evaluating' in message) {
        if (message.evaluating && limitMs > 0) watch(message.evaluating);
        return;
      }
      answer ??= message;
      // A definition may leave a timer running; the batch is done either way.
      void worker.terminate();
    });
    worker.once('error', (error) => {
      answer ??= { failure: error.message, stack: error.stack };
    });
    worker.once('exit', (code) => {
      clear();
      resolve(answer ?? { diagnostics: [exitedDiagnostic(files, code)] });
    });
  });
}

/**
 * The worker ended without a word: only user code does that (process.exit), and only the batch can be named: its
 * file when it had one, else the batch in the message (no file of it is known to be the one).
 */
const exitedDiagnostic = (files: readonly string[], code: number): Diagnostic => ({
  code: 'definition-exited',
  severity: 'error',
  message: `a definition ended its worker thread (exit code ${code}) before its batch was compiled${
    files.length === 1
      ? ''
      : `: ${files[0]} (or one of the ${files.length - 1} entry files after it, or what they import)`
  }`,
  path: [],
  ...(files.length === 1 ? { location: { file: files[0]! } } : {}),
  hint: 'remove the process.exit call from the definitions; throw an Error instead to stop the compile with a message',
});

/**
 * Builds batches in worker threads, a few at a time; the entries' results in batch order, their texts written to the
 * `spool` folder when one is given. After the first batch that fails no new one starts; the failures of those
 * that ran are reported together (a shared file's error, met by every batch, once).
 */
export async function runBatches(
  batches: readonly (readonly string[])[],
  options: RenderOptions,
  spool?: string,
): Promise<EntryResult[]> {
  const file = workerScript(import.meta.url, 'compile/compile-worker');
  const answers: WorkerAnswer[] = [];
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < batches.length) {
      const index = next++;
      // With a spool folder, the worker writes its texts there and answers with their paths (spool.ts).
      const answer = await runWorker(file, {
        files: batches[index]!,
        options,
        ...(spool ? { spool, prefix: `${index}-` } : {}),
      });
      answers[index] = answer;
      if (!('ok' in answer)) failed = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(threads(), batches.length) }, lane));
  const problems = answers.filter((answer) => answer && !('ok' in answer));
  const failure = problems.find((answer) => 'failure' in answer);
  if (failure && 'failure' in failure)
    throw Object.assign(new Error(failure.failure), failure.stack ? { stack: failure.stack } : {});
  if (problems.length > 0) {
    const found = withoutRepeats(problems.flatMap((answer) => ('diagnostics' in answer ? answer.diagnostics : [])));
    const stack = problems.map((answer) => ('stack' in answer ? answer.stack : undefined)).find(Boolean);
    throw new DiagnosticError(
      found,
      stack ? { cause: Object.assign(new Error('in a worker thread'), { stack }) } : undefined,
    );
  }
  return answers.flatMap((answer) => (answer as { ok: EntryResult[] }).ok);
}
