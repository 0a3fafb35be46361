import { randomBytes, webcrypto } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { EntryDocument } from './build-batch.js';

/** A new spool folder's path for a compile into `outDir`: beside it, so that its files can be renamed into place. */
export const spoolFolder = (outDir: string): string =>
  join(dirname(outDir), `.${basename(outDir)}.pipewright-spool-${process.pid}-${randomBytes(4).toString('hex')}`);

/**
 * The texts of the documents compile renders, written to files as soon as each is rendered (by Node's thread pool,
 * with their sha256, while this thread builds the next entries) and renamed into place when the output is written.
 * A worker batch writes its own, and answers with their paths: at 5000 pipelines of 30-40 KB the texts were
 * 150-200 MB of the main thread's heap while the workers still ran, and as many megabytes copied between threads.
 * In one thread, writing 300 files synchronously at the end took 50 ms of it.
 */
export class Spool {
  #count = 0;

  /** `prefix` keeps apart the files of workers writing into one folder. */
  constructor(
    readonly folder: string,
    private readonly prefix = '',
  ) {}

  /** Writes one text to a file of its own: its path and the sha256 of its bytes. */
  async write(text: string): Promise<{ spooled: string; sha256: string }> {
    if (this.#count === 0) mkdirSync(this.folder, { recursive: true });
    const spooled = join(this.folder, `${this.prefix}${this.#count++}.yaml`);
    const bytes = Buffer.from(text);
    const [digest] = await Promise.all([webcrypto.subtle.digest('SHA-256', bytes), writeFile(spooled, bytes)]);
    return { spooled, sha256: Buffer.from(digest).toString('hex') };
  }

  /** Removes what is left (everything, unless the output was written). */
  remove(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/** A document's YAML text, wherever it is kept. */
export const textOf = (document: EntryDocument): string => (document.spooled ? readFileSync(document.spooled, 'utf8') : document.text);
