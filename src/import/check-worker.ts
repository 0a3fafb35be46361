// A worker thread of a large import: it type-checks groups of generated modules, or formats them, one
// request at a time, for as long as the import runs (the library's declarations stay parsed between groups).
import { parentPort, workerData } from 'node:worker_threads';
import { formatModules, localChecker, type ModuleChecker, type ModuleProblems } from './check-modules.js';
import type { MarkedModule, MarkedText } from './type-check.js';

export type WorkerRequest =
  | { readonly id: number; readonly check: readonly MarkedModule[] }
  | { readonly id: number; readonly format: readonly MarkedText[] };
export type WorkerAnswer =
  | { readonly id: number; readonly problems: ModuleProblems }
  | { readonly id: number; readonly formatted: string[] }
  | { readonly id: number; readonly failure: string; readonly stack?: string | undefined };

const { outDir } = workerData as { outDir: string };
let check: ModuleChecker | undefined;

const work = async (request: WorkerRequest): Promise<WorkerAnswer> => {
  if ('check' in request) return { id: request.id, problems: await (check ??= localChecker(outDir))(request.check) };
  return { id: request.id, formatted: await formatModules(request.format, outDir) };
};

// One request at a time: a group's program must not be built while another is still alive.
let queue = Promise.resolve();
parentPort!.on('message', (request: WorkerRequest) => {
  queue = queue.then(() =>
    work(request).then(
      (answer) => parentPort!.postMessage(answer),
      (error: unknown) =>
        parentPort!.postMessage({
          id: request.id,
          failure: error instanceof Error ? error.message : String(error),
          stack: error instanceof Error ? error.stack : undefined,
        } satisfies WorkerAnswer),
    ),
  );
});
