import { kindRow, publishRank } from '../catalog/kinds.js';
import type { PullProgress } from './pull-reads.js';

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
