import { formatDiagnostics } from '../core/diagnostics.js';
import { pullProgressText } from '../pull/progress-text.js';
import { kindCounts, pull, type PullOptions, type PullResult } from '../pull/pull.js';
import { EXIT, useColor } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { requireOptional } from './optional-dependencies.js';
import { debugRetries, protectKeyFile, stderr, stdout } from './output.js';

export interface PullFlags extends Omit<PullOptions, 'onEvent' | 'onRetry'> {
  readonly json?: boolean;
  readonly debug?: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `pipewright pull`: pull, with a progress line on a terminal, and its result as text or a --json envelope. */
export async function runPull(flags: PullFlags): Promise<number> {
  requireOptional(['ts-morph', 'prettier'], 'pipewright pull');
  protectKeyFile(flags.apiKeyFile);
  const tty = Boolean(process.stderr.isTTY) && !flags.json;
  const what = flags.project
    ? `project ${flags.org}/${flags.project}`
    : flags.org
      ? `organization ${flags.org}`
      : 'the whole account';
  let drawn = 0;
  let result: PullResult;
  try {
    result = await pull({
      ...flags,
      onRetry: debugRetries(flags.debug ?? false),
      onEvent: (event) => {
        if (event.type === 'begin') {
          if (!flags.json)
            stderr(`pulling ${what} from ${event.baseUrl} (account ${event.accountId}) into ${flags.out}\n`);
          // A redraw at most every 100 ms: a thousand pages would otherwise flood a slow terminal.
        } else if (tty && Date.now() - drawn >= 100) {
          drawn = Date.now();
          stderr(`\r\x1b[2K${pullProgressText(event.progress, (process.stderr.columns || 100) - 1)}`);
        }
      },
    });
  } finally {
    if (tty) stderr('\r\x1b[2K');
  }
  return flags.json ? printJson(result) : printText(result);
}

function printJson(result: PullResult): number {
  printEnvelope('pull', result.refused.length === 0, result.warnings, {
    outDir: result.outDir,
    requests: result.requests,
    documents: result.documents,
    kinds: result.kinds,
    unmodelled: result.unmodelled,
    skipped: result.skipped,
    refused: result.refused,
    // Which version of each template is the stable one, as the platform says (its module says `stable: true` too).
    stableTemplates: result.stableTemplates,
    // What the platform holds and pipewright refuses, kept in each module as a suppression.
    held: result.held,
    deleted: result.deleted,
    // Modules an earlier pull wrote under another path, removed (this pull wrote their resource's module anew).
    moved: result.moved,
    files: result.files.map(({ path, outcome }) => ({ path, outcome })),
    record: result.record,
    ...(result.interrupted ? { interrupted: result.interrupted } : {}),
  });
  return result.refused.length ? EXIT.failed : EXIT.ok;
}

function printText(result: PullResult): number {
  if (result.warnings.length) stderr(formatDiagnostics(result.warnings, { color: useColor(process.stderr) }));
  const count = (what: PullResult['files'][number]['outcome']) => result.files.filter((o) => o.outcome === what).length;
  const kindText = kindCounts(result.kinds);
  const moved = result.moved.length;
  stdout(
    [
      ...(result.interrupted === 'finished'
        ? ['an interrupted pull was found and finished first: its files were switched in from its journal']
        : result.interrupted === 'undone'
          ? ['an interrupted pull was found and undone first: it had stopped before changing the project']
          : []),
      `pulled ${plural(result.documents, 'document')}${kindText.length ? ` (${kindText.join(', ')})` : ''} in ${plural(result.requests, 'request')}`,
      `files: ${count('created')} created, ${count('updated')} updated, ${count('unchanged')} unchanged, ${count('kept')} kept (edited by hand), ${count('overwritten')} overwritten`,
      ...(result.unmodelled.length ? [`${result.unmodelled.length} kept as YAML in ${result.unmodelledDir}`] : []),
      ...(result.skipped.length ? [`${result.skipped.length} skipped`] : []),
      ...(result.held.length
        ? [
            `${plural(result.held.length, 'finding')} the platform holds kept as suppressions (pipewright refuses them): ${[...new Set(result.held.map((h) => h.file))].join(', ')}`,
          ]
        : []),
      ...(result.deleted.length ? [`${result.deleted.length} no longer on the platform`] : []),
      ...(moved ? [`${plural(moved, 'module')} moved (the old path${moved === 1 ? '' : 's'} removed)`] : []),
      `next: cd ${result.outDir} && pipewright compile && pipewright publish --dry-run`,
      '',
    ].join('\n'),
  );
  return result.refused.length ? EXIT.failed : EXIT.ok;
}
