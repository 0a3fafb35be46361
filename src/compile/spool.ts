import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EntryDocument, EntryResult } from './entry-result.js';
import { sha256 } from './layout.js';

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

/**
 * The writer thread's whole program: write each `[path, bytes]` of the lists it is sent, and hash them; answer `null`
 * with the hashes in the order sent, or what failed.
 */
const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { mkdirSync, writeFileSync } = require('node:fs');
let failure = null;
const hashes = [];
try { mkdirSync(workerData, { recursive: true }); } catch (error) { failure = String(error && error.message); }
parentPort.on('message', (message) => {
  if (message === null) return parentPort.postMessage({ failure, hashes });
  for (const [path, bytes] of message) {
    if (failure !== null) return;
    try {
      hashes.push(createHash('sha256').update(bytes).digest('hex'));
      writeFileSync(path, bytes);
    } catch (error) { failure = String(error && error.message); }
  }
});
`;

const encoder = new TextEncoder();

/** Texts queued before they are sent to the writer. */
const POST_EVERY = 16;

/** What became of a document sent to the writer: the sha256 of its text, and its spool file if it was written. */
export interface WrittenBehind {
  readonly sha256: string;
  readonly spooled?: string;
}

/**
 * Writes the texts of the documents built in this thread to spool files from a thread of its own, while this one
 * builds the next chunk, so that the output is renamed into place at the end instead of written then; the thread
 * hashes each text too. A write costs the kernel time (1000 files of 15 KB took 0.1-0.9 s of system time on the
 * 2-core machines these figures come from: docs/performance.md), which is then spent beside the build rather
 * than after it. The documents keep their texts (the checks across entries read them); their manifest entries
 * are sent without a hash, which `flush` gives, with each spool file, once the thread has written it. If the
 * thread could not write, `flush` hashes the texts here and names no file: the output is written from the texts.
 */
export class WriteBehind {
  #worker: Worker | undefined;
  readonly #sent: Array<{ document: EntryDocument; spooled: string }> = [];
  #queue: Array<[string, Uint8Array]> = [];

  constructor(readonly folder: string) {}

  /** Queues the document's text to be written and hashed (none for a document without text); `post` sends the queue. */
  send(document: EntryDocument): void {
    if (!document.text) return;
    const spooled = join(this.folder, `w${this.#sent.length}.yaml`);
    this.#sent.push({ document, spooled });
    // Its UTF-8 bytes, handed over (a string would be copied, and cost this thread more than the encoding).
    this.#queue.push([spooled, encoder.encode(document.text)]);
    if (this.#queue.length >= POST_EVERY) this.post();
  }

  /**
   * Sends what was queued, as one message: a message costs this thread tens of microseconds, and a long queue
   * leaves the writer idle, then behind at the end of the build (a chunk of 128 texts took it 0.1 s to write).
   */
  post(): void {
    if (this.#queue.length === 0) return;
    this.#worker ??= new Worker(WRITER, { eval: true, workerData: this.folder });
    this.#worker.postMessage(
      this.#queue,
      this.#queue.map(([, bytes]) => bytes.buffer as ArrayBuffer),
    );
    this.#queue = [];
  }

  /**
   * Waits for every text sent to be written, then stops the thread: what became of each document sent (a document
   * rebuilt since is another object, hashed and written from its text as usual).
   */
  async flush(): Promise<ReadonlyMap<EntryDocument, WrittenBehind>> {
    this.post();
    const worker = this.#worker;
    this.#worker = undefined;
    const answer = worker
      ? await new Promise<unknown>((resolve) => {
          worker.once('message', resolve);
          worker.once('error', resolve);
          worker.postMessage(null);
        })
      : undefined;
    await worker?.terminate();
    const { failure, hashes } = (answer ?? {}) as { failure?: unknown; hashes?: unknown };
    const written = failure === null && Array.isArray(hashes) && hashes.length === this.#sent.length;
    return new Map(
      this.#sent.map(({ document, spooled }, index) => [
        document,
        written ? { sha256: hashes[index] as string, spooled } : { sha256: sha256(document.text) },
      ]),
    );
  }

  /** Stops the thread if it still runs (a compile that failed before `flush`). */
  async close(): Promise<void> {
    this.#queue = [];
    await this.#worker?.terminate();
    this.#worker = undefined;
  }
}
