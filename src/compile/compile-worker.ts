// A worker thread's whole job: one batch of entry files, answered as one message. The thread (and every
// builder the user's modules created) is gone after it, so a large compile's heap stays the size of a batch.
import { parentPort, workerData } from 'node:worker_threads';
import { buildEntries } from './build-batch.js';
import { DiagnosticError } from './diagnostics.js';
import type { RenderOptions } from './render-output.js';
import type { WorkerAnswer } from './worker-pool.js';

const { files, options } = workerData as { files: string[]; options: RenderOptions };

let answer: WorkerAnswer;
try {
  answer = { ok: await buildEntries(files, options) };
} catch (error) {
  const stack = (cause: unknown) => (cause instanceof Error ? cause.stack : undefined);
  answer =
    error instanceof DiagnosticError
      ? { diagnostics: error.diagnostics, stack: stack(error.cause) }
      : { failure: error instanceof Error ? error.message : String(error), stack: stack(error) };
}
parentPort!.postMessage(answer);
