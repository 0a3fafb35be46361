import { kindRow, RESOURCE_KINDS } from '../catalog/kinds.js';
import { countOutcomes, type DocumentResult, type Outcome, type PublishReport } from './publish.js';
import type { OrphanResult } from './prune.js';
import { correlation, failureText, isPrediction } from './report-text.js';
import { formatChanges } from './semantic-diff.js';

/**
 * Publish's report as GitHub-flavoured Markdown, for a CI job summary (`>> "$GITHUB_STEP_SUMMARY"`) or a merge
 * request comment: the counts, then each document that would change or fail with its semantic diff, policy
 * results and orphans. The terminal report (report-text.ts) says the same in lines; this one is made to be read
 * on a pull request.
 */

export interface MarkdownContext {
  readonly baseUrl: string;
  readonly accountId: string;
  readonly dir: string;
}

/** Text in a Markdown paragraph or table cell: what would start a format, a link, an HTML tag or a cell is escaped. */
const text = (value: string): string => value.replace(/[\\`*_[\]<>|#~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');

/** A code span that holds any text: a fence of more backticks than the text has in a row. */
const code = (value: string): string => {
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${value.replace(/\r?\n/g, ' ')}${pad}${fence}`;
};

/** A fenced block that holds any text. */
const block = (language: string, lines: readonly string[]): string[] => {
  const longest = Math.max(2, ...lines.flatMap((line) => [...line.matchAll(/`+/g)].map((m) => m[0].length)));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${language}`, ...lines, fence];
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `pipeline default/shop/deploy` (`pipelines/default/shop/deploy.yaml`). */
const documentName = (result: Pick<DocumentResult, 'kind' | 'name' | 'file'>) =>
  `${kindRow(result.kind).label} ${code(result.name)} (${code(result.file)})`;

function countsTable(report: PublishReport): string[] {
  const outcomes: Outcome[] = ['created', 'updated', 'unchanged', 'failed'];
  const header = report.dryRun ? ['would create', 'would update', 'unchanged', 'failed'] : outcomes;
  const rows = [`| | ${header.join(' | ')} |`, `|---|${header.map(() => '---:').join('|')}|`];
  for (const kind of RESOURCE_KINDS) {
    const ofKind = report.results.filter((r) => r.kind === kind);
    if (ofKind.length === 0) continue;
    const counts = countOutcomes(ofKind);
    rows.push(`| ${kindRow(kind).plural} | ${outcomes.map((o) => counts[o]).join(' | ')} |`);
  }
  const total = countOutcomes(report.results);
  rows.push(`| **total** | ${outcomes.map((o) => `**${total[o]}**`).join(' | ')} |`);
  return rows;
}

/** What the policy sets said beyond a denial the failure already gives. */
function policyItems(result: DocumentResult): string[] {
  const items: string[] = [];
  for (const set of result.policy?.sets ?? []) {
    const name = code(set.policySet ?? set.policySetId ?? 'a policy set');
    if (result.outcome !== 'failed')
      for (const denial of set.denials) items.push(`policy set ${name} denies it: ${text(denial)}`);
    for (const warning of set.warnings) items.push(`policy set ${name} warns: ${text(warning)}`);
  }
  return items;
}

/** Diff lines shown per document: a summary has a size limit (1 MiB on GitHub), and a long diff is read in the log. */
const DIFF_LINES = 40;

/** A document's semantic diff as a folded `diff` block, indented under its list item. */
function diffBlock(title: string, result: DocumentResult): string[] {
  const all = formatChanges(result.changes ?? [], '');
  const shown =
    all.length > DIFF_LINES
      ? [...all.slice(0, DIFF_LINES), `... and ${all.length - DIFF_LINES} more (the job's log has them all)`]
      : all;
  return [
    '',
    `  <details><summary>${title}</summary>`,
    '',
    ...block('diff', shown).map((line) => `  ${line}`),
    '',
    '  </details>',
    '',
  ];
}

/** One document that changes: its name, the warnings under it, and its semantic diff folded in a `<details>`. */
function changedDocument(result: DocumentResult): string[] {
  const notes = [...(result.warnings ?? []).map((warning) => `warning: ${text(warning)}`), ...policyItems(result)];
  const head = `- ${documentName(result)}${result.changes?.length ? `: ${plural(result.changes.length, 'change')}` : ''}`;
  const lines = [head, ...notes.map((note) => `  - ${note}`)];
  if (result.changes?.length) lines.push(...diffBlock('diff', result));
  return lines;
}

function failedDocument(result: DocumentResult): string[] {
  const lines = [
    `- ${documentName(result)}: ${text(failureText(result.error))}${text(correlation(result.error?.correlationId))}`,
  ];
  // Drift: what someone changed on the platform, so that the source can take it in before the next publish.
  if (result.error?.reason === 'drift' && result.changes?.length)
    lines.push(...diffBlock('changed on the platform', result));
  for (const note of [...(result.warnings ?? []).map((warning) => `warning: ${text(warning)}`), ...policyItems(result)])
    lines.push(`  - ${note}`);
  return lines;
}

const ORPHAN_TEXT: Readonly<Record<OrphanResult['outcome'], (dryRun: boolean) => string>> = {
  orphaned: () => 'its source is gone; `publish --prune` deletes it',
  deleted: (dryRun) => (dryRun ? 'would be deleted' : 'deleted'),
  gone: () => 'already gone from the platform; dropped from the record',
  kept: () => 'kept',
  failed: () => 'FAILED',
};

function orphanItem(orphan: OrphanResult, dryRun: boolean): string {
  const detail =
    orphan.outcome === 'failed'
      ? `: ${text(failureText(orphan.error))}${text(correlation(orphan.error?.correlationId))}`
      : orphan.message
        ? `: ${text(orphan.message)}`
        : '';
  return `- ${kindRow(orphan.kind).label} ${code(orphan.name)} (published from ${code(orphan.file)}): ${ORPHAN_TEXT[orphan.outcome](dryRun)}${detail}`;
}

/** The whole report, ending with a newline. */
export function markdownReport(report: PublishReport, context: MarkdownContext): string {
  const dry = report.dryRun;
  const section = (title: string, items: readonly DocumentResult[], render: (r: DocumentResult) => string[]) =>
    items.length > 0 ? ['', `### ${title} (${items.length})`, '', ...items.flatMap(render)] : [];
  const failed = report.results.filter((r) => r.outcome === 'failed');
  const predicted = failed.filter((r) => isPrediction(r, dry));
  const drifted = failed.filter((r) => r.error?.reason === 'drift');
  const otherFailures = failed.filter((r) => !predicted.includes(r) && !drifted.includes(r));
  const lines = [
    `## pipewright ${dry ? 'plan' : 'publish'}: ${code(context.dir)} ${dry ? 'against' : 'to'} ${text(context.baseUrl)} (account ${code(context.accountId)})`,
    '',
    ...(dry ? ['A dry run: nothing was written. This is what a publish would do.', ''] : []),
    ...countsTable(report),
    ...section(dry ? 'Would fail' : 'Failed', [...predicted, ...otherFailures], failedDocument),
    ...section('Drift: changed on the platform since the last publish, left alone', drifted, failedDocument),
    ...section(
      dry ? 'Would create' : 'Created',
      report.results.filter((r) => r.outcome === 'created'),
      changedDocument,
    ),
    ...section(
      dry ? 'Would update' : 'Updated',
      report.results.filter((r) => r.outcome === 'updated'),
      changedDocument,
    ),
  ];
  // Unchanged documents are counted only, unless the policy sets had something to say of them.
  const unchangedNotes = report.results.filter(
    (r) => r.outcome === 'unchanged' && (r.warnings?.length || policyItems(r).length),
  );
  if (unchangedNotes.length > 0) lines.push(...section('Unchanged, with warnings', unchangedNotes, changedDocument));
  const orphans = report.orphans ?? [];
  if (orphans.length > 0)
    lines.push(
      '',
      `### Orphans: recorded, source gone (${orphans.length})`,
      '',
      ...orphans.map((o) => orphanItem(o, dry)),
    );
  if (report.stopped) lines.push('', `**Stopped early:** ${text(report.stopped.message)}`);
  if (report.requests !== undefined) lines.push('', `${plural(report.requests, 'request')} to the platform.`);
  // Lists leave blank lines of their own after a <details>: one blank line between blocks is enough.
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
