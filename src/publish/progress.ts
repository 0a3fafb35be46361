import type { DocumentResult, Outcome } from './publish.js';

/**
 * A one-line progress bar for a terminal, redrawn in place on stderr. CI logs get one line per document
 * instead (see report-text.ts); this is only used when stderr is a TTY.
 */
export class ProgressBar {
  readonly #stream: NodeJS.WriteStream;
  readonly #total: number;
  readonly #counts: Record<Outcome, number> = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  #done = 0;
  #current = '';

  constructor(stream: NodeJS.WriteStream, total: number) {
    this.#stream = stream;
    this.#total = total;
  }

  started(file: string): void {
    this.#current = file;
    this.#draw();
  }

  finished(result: DocumentResult): void {
    this.#done++;
    this.#counts[result.outcome]++;
    this.#draw();
  }

  /** Removes the bar so the summary starts on a clean line. */
  clear(): void {
    this.#stream.write('\r\x1b[2K');
  }

  #draw(): void {
    const width = 24;
    const filled = this.#total === 0 ? width : Math.round((this.#done / this.#total) * width);
    const c = this.#counts;
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.#done}/${this.#total}  created ${c.created} updated ${c.updated} unchanged ${c.unchanged} failed ${c.failed}  ${this.#current}`;
    const columns = this.#stream.columns || 100;
    this.#stream.write(`\r\x1b[2K${line.slice(0, columns - 1)}`);
  }
}
