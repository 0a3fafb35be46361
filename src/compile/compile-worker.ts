// A worker thread's whole job: one batch of entry files, answered as one message. The thread (and every
// builder the user's modules created) is gone after it, so a large compile's heap stays the size of a batch.
import { parentPort, workerData } from 'node:worker_threads';
import { buildEntries } from './build-batch.js';
import { DiagnosticError } from '../core/diagnostics.js';
import { Spool } from './spool.js';
import type { WorkerAnswer, WorkerData } from './worker-pool.js';

const { files, options, spool, prefix } = workerData as WorkerData;

let answer: WorkerAnswer;
try {
  const results = await buildEntries(files, options);
  // The texts go to the spool here, not through the main thread's heap.
  const kept = spool ? new Spool(spool, prefix) : undefined;
  answer = { ok: kept ? results.map((result) => kept.keep(result)) : results };
} catch (error) {
  const stack = (cause: unknown) => (cause instanceof Error ? cause.stack : undefined);
  answer =
    error instanceof DiagnosticError
      ? { diagnostics: error.diagnostics, stack: stack(error.cause) }
      : { failure: error instanceof Error ? error.message : String(error), stack: stack(error) };
}
parentPort!.postMessage(answer);
