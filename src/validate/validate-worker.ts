// A worker thread's whole job: validate one batch of YAML files and answer the results as one message.
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerAnswer } from '../compile/worker-pool.js';
import { validateBatch, type ValidatedBatch } from './validate-files.js';

const { files } = workerData as { files: string[] };

let answer: { ok: ValidatedBatch } | WorkerAnswer;
try {
  answer = { ok: validateBatch(files) };
} catch (error) {
  answer = { failure: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
}
parentPort!.postMessage(answer);
