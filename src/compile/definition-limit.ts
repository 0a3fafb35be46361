import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { DiagnosticError } from '../core/diagnostics.js';
import { DEFAULT_DEFINITION_TIMEOUT_S } from './config.js';

/**
 * The time limit on evaluating the user's definitions (`definitionTimeout`). They run in this thread (a bundle is
 * imported), where a `while (true) {}` cannot be interrupted from JavaScript, so a watchdog thread watches each
 * evaluation: it names the files in a progress line when they run long, and at the limit stops them through the
 * inspector protocol (`Runtime.terminateExecution` on a session connected to the main thread, the way a debugger
 * stops a script), then tells this thread, which reports `definition-timeout`. The import never settles after
 * that; the race below ends the compile instead.
 */

let limitMs = DEFAULT_DEFINITION_TIMEOUT_S * 1000;

/** Sets the limit for the evaluations that follow (compile sets it from its options); 0 or less: no limit. */
export function setDefinitionTimeout(seconds: number): void {
  limitMs = seconds > 0 ? seconds * 1000 : 0;
}

/** The limit in milliseconds (0: none): the worker pool watches its batches with it. */
export const definitionLimitMs = (): number => limitMs;

/**
 * In a worker batch (worker-pool.ts): which files are being evaluated, told to the pool, which watches the time. A
 * worker's own timers cannot run while its thread loops; the pool's can, and `terminate()` stops any loop.
 */
export interface EvaluationProgress {
  readonly evaluating: readonly string[] | null;
}

// Plain CommonJS evaluated in the thread: it loads nothing of pipewright. Its progress line is written to the
// file descriptor directly (a worker's process.stderr goes through the main thread, which is busy).
const WATCHDOG = `
const { parentPort, workerData } = require('node:worker_threads');
const current = new Int32Array(workerData);
const { writeSync } = require('node:fs');
const { Session } = require('node:inspector');
let session;
let timers = [];
parentPort.on('message', (message) => {
  for (const timer of timers) clearTimeout(timer);
  timers = [];
  if (!message) return;
  const { label, limitMs, noticeMs, turn } = message;
  const seconds = (ms) => (ms / 1000).toString() + ' s';
  timers.push(setTimeout(() => {
    try { writeSync(2, 'pipewright: still evaluating ' + label + ' after ' + seconds(noticeMs) + ' (stopped at ' + seconds(limitMs) + ': definitionTimeout)\\n'); } catch {}
  }, noticeMs));
  timers.push(setTimeout(() => {
    // The evaluation may have ended a moment ago: never stop anything else.
    if (Atomics.load(current, 0) !== turn) return;
    parentPort.postMessage(turn);
    if (!session) { session = new Session(); session.connectToMainThread(); }
    session.post('Runtime.terminateExecution');
  }, limitMs));
});
`;

interface Watchdog {
  readonly worker: Worker;
  turn: number;
  readonly current: Int32Array;
  onTimeout?: ((turn: number) => void) | undefined;
}

let watchdog: Watchdog | undefined;

function startWatchdog(): Watchdog {
  if (watchdog) return watchdog;
  // The turn being evaluated, 0 between evaluations: set here the moment one ends, read there before stopping.
  const shared = new SharedArrayBuffer(4);
  const worker = new Worker(WATCHDOG, { eval: true, workerData: shared });
  const started: Watchdog = { worker, turn: 0, current: new Int32Array(shared) };
  worker.on('message', (turn: number) => started.onTimeout?.(turn));
  // It never keeps a finished compile alive (after the listener, which would hold it again).
  worker.unref();
  watchdog = started;
  return started;
}

/**
 * `evaluation` (the import of a bundle of `files`), stopped with a `definition-timeout` error when it runs longer
 * than the limit. Without a limit, the evaluation as it is.
 */
export async function withinLimit<T>(evaluation: () => Promise<T>, files: readonly string[]): Promise<T> {
  // The inspector session reaches the main thread only: in a worker batch the pool watches (worker-pool.ts).
  if (!isMainThread) {
    parentPort?.postMessage({ evaluating: files } satisfies EvaluationProgress);
    try {
      return await evaluation();
    } finally {
      parentPort?.postMessage({ evaluating: null } satisfies EvaluationProgress);
    }
  }
  if (limitMs === 0) return evaluation();
  const dog = startWatchdog();
  const turn = ++dog.turn;
  let stopped: (error: Error) => void = () => {};
  const timedOut = new Promise<never>((_, reject) => (stopped = reject));
  dog.onTimeout = (which) => {
    if (which === turn) stopped(timeoutError(files, limitMs));
  };
  Atomics.store(dog.current, 0, turn);
  dog.worker.postMessage({ label: evaluationLabel(files), limitMs, noticeMs: noticeAfter(limitMs), turn });
  try {
    return await Promise.race([evaluation(), timedOut]);
  } finally {
    Atomics.store(dog.current, 0, 0);
    dog.worker.postMessage(null);
    dog.onTimeout = undefined;
  }
}

/** The files being evaluated, as the progress line names them. */
const evaluationLabel = (files: readonly string[]): string =>
  files.length === 1 ? files[0]! : `${files[0]} (or one of ${files.length - 1} more entry files)`;

/** When the progress line is printed: half the limit, at most 10 s. */
export const noticeAfter = (limitMs: number): number => Math.min(10_000, limitMs / 2);

/** The progress line of an evaluation that runs long (the watchdog thread writes the same). */
export const stillEvaluatingLine = (files: readonly string[], limitMs: number): string =>
  `pipewright: still evaluating ${evaluationLabel(files)} after ${noticeAfter(limitMs) / 1000} s (stopped at ${limitMs / 1000} s: definitionTimeout)\n`;

export function timeoutError(files: readonly string[], ms: number): DiagnosticError {
  const seconds = ms / 1000;
  return new DiagnosticError([
    {
      code: 'definition-timeout',
      severity: 'error',
      message: `evaluating ${files.length === 1 ? files[0] : `the definitions ${files.join(', ')}`} did not finish within ${seconds} s and was stopped`,
      path: [],
      ...(files.length === 1 ? { location: { file: files[0]! } } : {}),
      hint: `look for a loop that never ends or a wait that never returns in the file or what it imports; if it only needs longer, raise the limit: --definition-timeout <seconds>, or definitionTimeout in pipewright.config.ts (now ${seconds})`,
    },
  ]);
}
