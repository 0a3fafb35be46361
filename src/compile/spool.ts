import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { EntryDocument, EntryResult } from './build-batch.js';

/**
 * The texts of worker batches' documents, kept in files beside the output folder from the moment a batch answers
 * until the output is written (they are then renamed into place). At 5000 pipelines of 30-40 KB the texts were
 * 150-200 MB of this thread's heap while the workers still ran.
 */
export class Spool {
  readonly #folder: string;
  #count = 0;

  constructor(outDir: string) {
    this.#folder = join(dirname(outDir), `.${basename(outDir)}.pipewright-spool-${process.pid}-${randomBytes(4).toString('hex')}`);
  }

  /** The result with each document's text moved to a file (an entry with errors has none: nothing is written). */
  keep(result: EntryResult): EntryResult {
    if (result.documents.every((document) => !document.text)) return result;
    if (this.#count === 0) mkdirSync(this.#folder, { recursive: true });
    const documents = result.documents.map((document): EntryDocument => {
      if (!document.text) return document;
      const spooled = join(this.#folder, `${this.#count++}.yaml`);
      writeFileSync(spooled, document.text);
      return { ...document, text: '', spooled };
    });
    return { ...result, documents };
  }

  /** Removes what is left (everything, unless the output was written). */
  remove(): void {
    if (this.#count > 0) rmSync(this.#folder, { recursive: true, force: true });
  }
}

/** A document's YAML text, wherever it is kept. */
export const textOf = (document: EntryDocument): string => (document.spooled ? readFileSync(document.spooled, 'utf8') : document.text);
