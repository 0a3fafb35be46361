import { Worker } from 'node:worker_threads';
import { workerScript } from '../core/worker-script.js';
import { formatModules, type ModuleChecker, type ModuleProblems } from './check-modules.js';
import type { MarkedModule, MarkedText } from './type-check.js';
import type { WorkerAnswer, WorkerRequest } from './check-worker.js';

/**
 * The checker's old-generation heap, in MiB. Its programs are bounded (`import-yaml.ts` bounds a group's
 * text), and V8 lets a heap grow to its limit before collecting hard, so the limit bounds the import's memory.
 */
const CHECKER_HEAP_MB = 256;
/** Formatting holds one module at a time. */
const FORMATTER_HEAP_MB = 96;

type Settle = { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void };
type Request = { readonly check: readonly MarkedModule[] } | { readonly format: readonly MarkedText[] };

/** One worker thread and the requests it has not answered yet; a dead lane's requests fail. */
function lane(outDir: string, heapMb: number) {
  const worker = new Worker(workerScript(import.meta.url, 'import/check-worker'), {
    workerData: { outDir },
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  });
  const waiting = new Map<number, Settle>();
  let next = 0;
  let dead: Error | undefined;
  const fail = (error: Error) => {
    dead ??= error;
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
  };
  worker.on('message', (answer: WorkerAnswer) => {
    const job = waiting.get(answer.id)!;
    waiting.delete(answer.id);
    if ('failure' in answer)
      job.reject(Object.assign(new Error(answer.failure), answer.stack ? { stack: answer.stack } : {}));
    else job.resolve(answer);
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('an import worker exited')));
  return {
    send: (request: Request): Promise<WorkerAnswer> =>
      new Promise((resolve, reject) => {
        if (dead) return reject(dead);
        const id = next++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, ...request } as WorkerRequest);
      }),
    close: async () => {
      dead ??= new Error('the import is over');
      await worker.terminate();
    },
  };
}

export interface ImportPool {
  readonly check: ModuleChecker;
  readonly format: (modules: readonly MarkedText[]) => Promise<string[]>;
  /**
   * Formats the next waiting chunk in this thread (false: none waits): the generating thread, once it has nothing
   * left to generate, takes its share of the formatting instead of waiting for the worker's backlog.
   */
  readonly formatHere: () => Promise<boolean>;
  readonly close: () => Promise<void>;
}

/**
 * Modules are formatted in chunks of this many (a tenth of a second of work or so), and the worker holds at most
 * a few chunks at a time: enough that it never waits for this thread, busy generating, to hand it the next one,
 * few enough that what is left when this thread is done generating is shared between the two.
 */
const FORMAT_CHUNK = 16;
const CHUNKS_IN_WORKER = 3;

interface FormatJob {
  readonly modules: readonly MarkedText[];
  readonly done: (formatted: Promise<string[]>) => void;
}

/**
 * Two worker threads beside this one, which generates the modules: one type-checks groups, the other removes
 * their marks and formats them meanwhile. The three steps cost about the same, so on two cores neither core waits long. With
 * `native` (TypeScript 7's compiler, in a process of its own) there is no checking worker. Work a worker or the
 * native compiler could not do (out of memory, say) is done in this thread instead.
 */
export function createImportPool(
  outDir: string,
  fallback: ModuleChecker,
  {
    heapMb = { checker: CHECKER_HEAP_MB, formatter: FORMATTER_HEAP_MB },
    native,
  }: { heapMb?: { checker: number; formatter: number }; native?: ModuleChecker } = {},
): ImportPool {
  const checker = native ? undefined : lane(outDir, heapMb.checker);
  const formatter = lane(outDir, heapMb.formatter);
  const waiting: FormatJob[] = [];
  let inWorker = 0;
  /** Gives the worker chunks up to its share. */
  const feed = (): void => {
    const job = inWorker < CHUNKS_IN_WORKER ? waiting.shift() : undefined;
    if (!job) return;
    inWorker++;
    const formatted = formatter.send({ format: job.modules }).then(
      (answer) => (answer as { formatted: string[] }).formatted,
      () => formatModules(job.modules, outDir),
    );
    job.done(formatted);
    void formatted
      .finally(() => {
        inWorker--;
        feed();
      })
      .catch(() => undefined);
    feed();
  };
  const check: ModuleChecker =
    native ??
    ((modules) =>
      checker!.send({ check: modules }).then((answer) => (answer as { problems: ModuleProblems }).problems));
  return {
    check: (modules) => check(modules).catch(() => fallback(modules)),
    format: async (modules) => {
      const chunks: Array<Promise<string[]>> = [];
      for (let start = 0; start < modules.length; start += FORMAT_CHUNK)
        chunks.push(new Promise((done) => waiting.push({ modules: modules.slice(start, start + FORMAT_CHUNK), done })));
      feed();
      return (await Promise.all(chunks)).flat();
    },
    formatHere: async () => {
      const job = waiting.pop();
      if (!job) return false;
      const formatted = formatModules(job.modules, outDir);
      job.done(formatted);
      await formatted.catch(() => undefined);
      return true;
    },
    close: async () => {
      await Promise.all([checker?.close(), formatter.close()]);
    },
  };
}
