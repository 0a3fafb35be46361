import { closeSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isRecord } from '../core/is-record.js';

/**
 * The publish record's journal (`out.published.journal`, beside the record): one JSON line per write as it
 * happens, each flushed to the disk before the run goes on, so that a run killed midway (a cancelled CI job, a
 * lost machine) leaves what it did where the next run finds it. The record proper is rewritten once, at the end
 * (published-record.ts), and the journal removed; the next run folds in a journal it finds before anything else.
 */

/** `unconfirmed`: sent, no answer yet (or never: the answer was lost); `confirmed`: the platform holds it. */
export type JournalState = 'unconfirmed' | 'confirmed';

export interface JournalLine {
  readonly baseUrl: string;
  readonly accountId: string;
  /** The resource's identity (`keyId`). */
  readonly key: string;
  readonly file: string;
  readonly state: JournalState;
  readonly sha256: string;
  readonly document: Record<string, unknown>;
}

export const journalPath = (recordFile: string): string => recordFile.replace(/\.json$/, '.journal');

const isLine = (value: unknown): value is JournalLine =>
  isRecord(value) &&
  typeof value.baseUrl === 'string' &&
  typeof value.accountId === 'string' &&
  typeof value.key === 'string' &&
  typeof value.file === 'string' &&
  (value.state === 'unconfirmed' || value.state === 'confirmed') &&
  typeof value.sha256 === 'string' &&
  isRecord(value.document);

/**
 * The lines of a journal, in the order they were written. A line that is not one (the last line of a run killed
 * while writing it, or an edit by hand) is skipped and named in `skipped`: the lines around it still count.
 */
export async function readJournal(path: string): Promise<{ lines: JournalLine[]; skipped: number[] }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { lines: [], skipped: [] };
    throw error;
  }
  const lines: JournalLine[] = [];
  const skipped: number[] = [];
  text.split('\n').forEach((raw, at) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
    }
    if (isLine(value)) lines.push(value);
    else skipped.push(at + 1);
  });
  return { lines, skipped };
}

/**
 * Appends lines to a journal, each written whole and fsynced before `append` returns. Synchronous on purpose: a
 * line is small, and a write the run goes on from must be on the disk first (the pool's other writes wait that long).
 */
export class JournalWriter {
  readonly path: string;
  #fd: number | undefined;

  constructor(path: string) {
    this.path = path;
  }

  append(line: JournalLine): void {
    this.#fd ??= this.#open();
    writeSync(this.#fd, `${JSON.stringify(line)}\n`);
    fsyncSync(this.#fd);
  }

  /** Opened for appending; a last line cut short by a killed run is ended first, so the next line stays whole. */
  #open(): number {
    const fd = openSync(this.path, 'a+');
    const { size } = fstatSync(fd);
    const last = Buffer.alloc(1);
    if (size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) writeSync(fd, '\n');
    return fd;
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}
