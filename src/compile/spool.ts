import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
