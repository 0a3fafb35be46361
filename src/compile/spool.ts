import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EntryDocument, EntryResult } from './build-batch.js';

/** A new spool folder's path for a compile into `outDir`: beside it, so that its files can be renamed into place. */
export const spoolFolder = (outDir: string): string =>
  join(dirname(outDir), `.${basename(outDir)}.pipewright-spool-${process.pid}-${randomBytes(4).toString('hex')}`);

/**
 * The texts of worker batches' documents, written to files by the worker that made them (its answer carries their
 * paths) and renamed into place when the output is written. At 5000 pipelines of 30-40 KB the texts were 150-200
 * MB of the main thread's heap while the workers still ran, and as many megabytes copied between threads.
 */
export class Spool {
  #count = 0;

  /** `prefix` keeps apart the files of workers writing into one folder. */
  constructor(
    readonly folder: string,
    private readonly prefix = '',
  ) {}

  /** The result with each document's text moved to a file (an entry with errors has none: nothing is written). */
  keep(result: EntryResult): EntryResult {
    if (result.documents.every((document) => !document.text)) return result;
    if (this.#count === 0) mkdirSync(this.folder, { recursive: true });
    const documents = result.documents.map((document): EntryDocument => {
      if (!document.text) return document;
      const spooled = join(this.folder, `${this.prefix}${this.#count++}.yaml`);
      writeFileSync(spooled, document.text);
      return { ...document, text: '', spooled };
    });
    return { ...result, documents };
  }

  /** Removes what is left (everything, unless the output was written). */
  remove(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/** A document's YAML text, wherever it is kept. */
export const textOf = (document: EntryDocument): string => (document.spooled ? readFileSync(document.spooled, 'utf8') : document.text);

/** The writer thread's whole program: write each `[path, text]` it is sent; answer `null` with how that went. */
const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const { mkdirSync, writeFileSync } = require('node:fs');
let failure = null;
try { mkdirSync(workerData, { recursive: true }); } catch (error) { failure = String(error && error.message); }
parentPort.on('message', (message) => {
  if (message === null) return parentPort.postMessage(failure);
  if (failure !== null) return;
  try { writeFileSync(message[0], message[1]); } catch (error) { failure = String(error && error.message); }
});
`;

/**
 * Writes the texts of the documents built in this thread to spool files from a thread of its own, while this one
 * builds the next chunk, so that the output is renamed into place at the end instead of written then. A write
 * costs the kernel time (1000 files of 15 KB took 0.1-0.9 s of system time on the 2-core machines these figures
 * come from: docs/performance.md), which is then spent beside the build rather than after it. The documents keep
 * their texts (the checks across entries read them); `flush` names each document's spool file once the thread
 * has written it, and if the thread could not write, it names none and the output is written from the texts.
 */
export class WriteBehind {
  #worker: Worker | undefined;
  #count = 0;
  readonly #paths = new Map<EntryDocument, string>();

  constructor(readonly folder: string) {}

  /** Sends the document's text to be written (none for a document without text, or one already spooled). */
  send(document: EntryDocument): void {
    if (!document.text || document.spooled) return;
    this.#worker ??= new Worker(WRITER, { eval: true, workerData: this.folder });
    const spooled = join(this.folder, `w${this.#count++}.yaml`);
    this.#paths.set(document, spooled);
    this.#worker.postMessage([spooled, document.text]);
  }

  /**
   * Waits for every text sent to be written, then stops the thread: the spool file of each document sent (a
   * document rebuilt since is another object, written from its text), or none if any write failed.
   */
  async flush(): Promise<ReadonlyMap<EntryDocument, string>> {
    const worker = this.#worker;
    if (!worker) return this.#paths;
    this.#worker = undefined;
    const failure = await new Promise<unknown>((resolve) => {
      worker.once('message', resolve);
      worker.once('error', resolve);
      worker.postMessage(null);
    });
    await worker.terminate();
    return failure === null ? this.#paths : new Map();
  }

  /** Stops the thread if it still runs (a compile that failed before `flush`). */
  async close(): Promise<void> {
    await this.#worker?.terminate();
    this.#worker = undefined;
  }
}
