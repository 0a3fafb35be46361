import { kindRow, publishRank } from '../catalog/kinds.js';
import type { DocumentResult, Outcome } from './publish.js';
import type { PullProgress } from '../pull/pull-reads.js';

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

/**
 * Pull's progress line: `pipelines 120 (3 pages) · input sets 98 (120 pages) · 512 requests`, kinds in the table's
 * order. Within `width` characters: past it the pages go, then the kinds with the fewest items (`…` says some
 * are left out), never the requests.
 */
export function pullProgressText(progress: PullProgress, width = Infinity): string {
  const kinds = [...progress.kinds.entries()].sort(([a], [b]) => publishRank(a) - publishRank(b));
  const requests = `${progress.requests} request${progress.requests === 1 ? '' : 's'}`;
  const full = [
    ...kinds.map(
      ([kind, { pages, items }]) => `${kindRow(kind).plural} ${items} (${pages} page${pages === 1 ? '' : 's'})`,
    ),
    requests,
  ].join(' · ');
  if (full.length <= width) return full;
  const counts = kinds.map(([kind, { items }]) => ({ items, text: `${kindRow(kind).plural} ${items}` }));
  const line = (shown: readonly { text: string }[], cut: boolean) =>
    [...shown.map((c) => c.text), ...(cut ? ['…'] : []), requests].join(' · ');
  // The largest counts say most of how far the pull is: the smallest go first, the rest stay in the table's order.
  const shown = [...counts];
  for (const smallest of [...counts].sort((a, b) => a.items - b.items)) {
    if (line(shown, shown.length < counts.length).length <= width) break;
    shown.splice(shown.indexOf(smallest), 1);
  }
  return line(shown, shown.length < counts.length);
}
