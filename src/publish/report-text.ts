import { kindRow, RESOURCE_KINDS } from '../catalog/kinds.js';
import { countOutcomes, type DocumentResult, type Outcome, type PublishReport } from './publish.js';
import type { OrphanOutcome, OrphanResult } from './prune.js';
import { formatChanges } from './semantic-diff.js';
import { authAdvice } from './settings.js';

const VERB: Readonly<Record<Outcome, string>> = {
  created: 'created',
  updated: 'updated',
  unchanged: 'unchanged',
  failed: 'FAILED',
};
const DRY_VERB: Readonly<Record<Outcome, string>> = {
  created: 'would create',
  updated: 'would update',
  unchanged: 'unchanged',
  failed: 'FAILED',
};

export const correlation = (id: string | undefined) => (id ? ` (correlationId ${id})` : '');
/** Kind names line up in a column as wide as the longest. */
const KIND_WIDTH = Math.max(...RESOURCE_KINDS.map((kind) => kind.length));

/** `reason: message`, the words a reader scans for first, unless the message already starts with them. */
export const failureText = (error: DocumentResult['error']): string => {
  const message = error?.message ?? 'failed';
  return error?.reason && !message.startsWith(error.reason) ? `${error.reason}: ${message}` : message;
};

/** What `--policy-check` found beyond a denial the failure line already says: warnings, and denials of unwritten documents. */
function policyLines(result: DocumentResult): string[] {
  const lines: string[] = [];
  for (const set of result.policy?.sets ?? []) {
    const name = set.policySet ?? set.policySetId ?? 'a policy set';
    if (result.outcome !== 'failed')
      for (const text of set.denials) lines.push(`    policy set ${name} denies it: ${text}`);
    for (const text of set.warnings) lines.push(`    policy set ${name} warns: ${text}`);
  }
  return lines;
}

/** A failure the dry run predicts itself (it writes nothing, so a denial can only be the policy pre-flight's). */
export const isPrediction = (result: DocumentResult, dryRun: boolean): boolean =>
  dryRun && (result.error?.reason === 'missing dependency' || result.error?.reason === 'denied by policy');

/** One line per document for CI logs; with dry-run, the semantic diff of an update under it. */
export function resultLines(result: DocumentResult, dryRun: boolean): string[] {
  const predicted = isPrediction(result, dryRun);
  const verb = (predicted ? 'would fail' : (dryRun ? DRY_VERB : VERB)[result.outcome]).padEnd(dryRun ? 12 : 9);
  const head = `${verb} ${result.kind.padEnd(KIND_WIDTH)} ${result.name}  ${result.file}`;
  const warnings = [...(result.warnings ?? []).map((warning) => `    warning: ${warning}`), ...policyLines(result)];
  if (result.outcome === 'failed')
    return [
      `${head}\n    ${failureText(result.error)}${correlation(result.error?.correlationId)}`,
      // Drift: what someone changed on the platform, so the source can take it in.
      ...(result.error?.reason === 'drift' && result.changes ? formatChanges(result.changes, '      ') : []),
      ...warnings,
    ];
  if (dryRun && result.outcome === 'updated' && result.changes)
    return [head, ...formatChanges(result.changes), ...warnings];
  if (dryRun && result.outcome === 'created')
    return [
      `${head}  (not on the platform yet)`,
      ...(result.changes ? formatChanges(result.changes) : []),
      ...warnings,
    ];
  return [head, ...warnings];
}

const ORPHAN_VERB: Readonly<Record<OrphanOutcome, string>> = {
  orphaned: 'orphan',
  deleted: 'deleted',
  gone: 'gone',
  kept: 'kept',
  failed: 'FAILED',
};

/**
 * Kinds whose deleted identifiers the platform keeps (a create with one answers "already exists or has been
 * deleted": harness-core PMSPipelineServiceImpl.java L184-185, NGTriggerServiceImpl.java L203): a delete of one is
 * said to be final before and when it happens, since its source can never be published again under that name.
 */
const KEEPS_DELETED_IDENTIFIERS: ReadonlySet<string> = new Set(['pipeline', 'trigger']);

const keptIdentifierLine = (result: OrphanResult, dryRun: boolean): string =>
  `    the platform keeps a deleted ${result.kind}'s identifier: ${result.name} ${dryRun ? 'could' : 'can'} never be ` +
  `published again under it (restore it in the platform, or use another identifier)`;

/** A recorded resource whose source is gone, and what became of it. */
export function orphanLines(result: OrphanResult, dryRun: boolean): string[] {
  const lines = orphanOutcomeLines(result, dryRun);
  return result.outcome === 'deleted' && KEEPS_DELETED_IDENTIFIERS.has(result.kind)
    ? [...lines, keptIdentifierLine(result, dryRun)]
    : lines;
}

function orphanOutcomeLines(result: OrphanResult, dryRun: boolean): string[] {
  const verb = (dryRun && result.outcome === 'deleted' ? 'would delete' : ORPHAN_VERB[result.outcome]).padEnd(
    dryRun ? 12 : 9,
  );
  const head = `${verb} ${result.kind.padEnd(KIND_WIDTH)} ${result.name}  (published from ${result.file})`;
  switch (result.outcome) {
    case 'orphaned':
      return [
        `${head}: its source is gone; publish --prune deletes it` +
          (KEEPS_DELETED_IDENTIFIERS.has(result.kind) ? ' (for good: the platform keeps its identifier)' : ''),
      ];
    case 'gone':
      return [`${head}: already gone from the platform; dropped from the record`];
    case 'kept':
      return [`${head}\n    ${result.message}`];
    case 'failed':
      return [`${head}\n    ${failureText(result.error)}${correlation(result.error?.correlationId)}`];
    default:
      return [head];
  }
}

/** Whether what happened to the orphans fails the run: a delete `--prune` asked for that did not happen. */
export const orphansFailed = (orphans: readonly OrphanResult[] | undefined): boolean =>
  (orphans ?? []).some((o) => o.outcome === 'failed' || o.outcome === 'kept');

/**
 * The table at the end: counts per kind and outcome (a row for each kind the run had documents of), then every
 * failure with its correlationId.
 */
export function summaryTable(report: PublishReport): string {
  const outcomes: Outcome[] = ['created', 'updated', 'unchanged', 'failed'];
  const header = report.dryRun ? ['', 'would create', 'would update', 'unchanged', 'failed'] : ['', ...outcomes];
  const rows = [header];
  for (const kind of RESOURCE_KINDS) {
    const ofKind = report.results.filter((r) => r.kind === kind);
    if (ofKind.length === 0) continue;
    const counts = countOutcomes(ofKind);
    rows.push([kindRow(kind).plural, ...outcomes.map((o) => String(counts[o]))]);
  }
  const total = countOutcomes(report.results);
  rows.push(['total', ...outcomes.map((o) => String(total[o]))]);
  const widths = header.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  if (report.requests !== undefined)
    lines.push('', `${report.requests} request${report.requests === 1 ? '' : 's'} to the platform`);
  const orphans = report.orphans ?? [];
  if (orphans.length > 0) {
    const counts = new Map<string, number>();
    for (const o of orphans) {
      const verb = report.dryRun && o.outcome === 'deleted' ? 'would delete' : o.outcome;
      counts.set(verb, (counts.get(verb) ?? 0) + 1);
    }
    lines.push(
      '',
      `orphans (recorded, source gone): ${orphans.length} (${[...counts].map(([verb, n]) => `${verb} ${n}`).join(', ')})`,
    );
  }
  const failed = report.results.filter((r) => r.outcome === 'failed');
  if (failed.length > 0) {
    lines.push('', `${failed.length} failed:`);
    for (const r of failed)
      lines.push(`  ${r.kind} ${r.name} (${r.file}): ${failureText(r.error)}${correlation(r.error?.correlationId)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The `--json` report. */
export function jsonReport(
  report: PublishReport,
  context: { baseUrl: string; accountId: string; dir: string; edited: readonly string[]; keySource: string },
) {
  const counts = countOutcomes(report.results);
  return {
    ok: counts.failed === 0 && !orphansFailed(report.orphans),
    dryRun: report.dryRun,
    dir: context.dir,
    baseUrl: context.baseUrl,
    accountId: context.accountId,
    counts,
    ...(report.requests !== undefined ? { requests: report.requests } : {}),
    // A CI job reading only the JSON needs the advice too: it names where the key came from, never the key.
    ...(report.stopped
      ? { stopped: { ...report.stopped, advice: authAdvice(report.stopped.kind, context.keySource) } }
      : {}),
    ...(context.edited.length ? { editedAfterCompile: context.edited } : {}),
    documents: report.results.map((r) => ({
      file: r.file,
      kind: r.kind,
      org: r.id.org ?? null,
      project: r.id.project ?? null,
      identifier: r.id.identifier,
      ...(r.id.parent ? { parent: r.id.parent } : {}),
      ...(r.id.version ? { version: r.id.version } : {}),
      outcome: r.outcome,
      ...(r.correlationId ? { correlationId: r.correlationId } : {}),
      ...(r.changes && (r.outcome === 'updated' || r.outcome === 'created') ? { changes: r.changes } : {}),
      ...(r.changes && r.error?.reason === 'drift' ? { drift: r.changes } : {}),
      ...(r.error ? { error: r.error } : {}),
      ...(r.warnings?.length ? { warnings: r.warnings } : {}),
      ...(r.policy ? { policy: r.policy } : {}),
    })),
    ...(report.orphans?.length
      ? {
          orphans: report.orphans.map((o) => ({
            file: o.file,
            kind: o.kind,
            org: o.id.org ?? null,
            project: o.id.project ?? null,
            identifier: o.id.identifier,
            ...(o.id.parent ? { parent: o.id.parent } : {}),
            ...(o.id.version ? { version: o.id.version } : {}),
            outcome: o.outcome,
            ...(o.message ? { message: o.message } : {}),
            ...(o.error ? { error: o.error } : {}),
            ...(o.correlationId ? { correlationId: o.correlationId } : {}),
          })),
        }
      : {}),
  };
}
