import type { ImportResult } from '../import/import-yaml.js';
import { readImportInputs } from '../import/import-inputs.js';
import {
  countsText,
  DiagnosticError,
  formatDiagnostic,
  groupDiagnostics,
  sortDiagnostics,
} from '../core/diagnostics.js';
import { EXIT, useColor } from './errors.js';
import { jsonDiagnostic, printEnvelope } from './json-envelope.js';
import { requireOptional } from './optional-dependencies.js';
import { stdout, stderr } from './output.js';

export interface ImportFlags {
  readonly out: string;
  readonly mode: 'files' | 'project';
  readonly json?: boolean;
  /** Replace modules edited by hand since the last import (without it they are kept). */
  readonly force?: boolean;
}

const STATUS_WORDS = { typed: 'typed', 'partly-raw': 'partly raw', 'needs-attention': 'needs attention' } as const;

/** `3 typed, 1 partly raw, 1 needs attention`: how many modules are in each state. */
function statusSummary(modules: ImportResult['modules']): string {
  const count = (status: keyof typeof STATUS_WORDS) => modules.filter((module) => module.status === status).length;
  return `${count('typed')} typed, ${count('partly-raw')} partly raw, ${count('needs-attention')} need${count('needs-attention') === 1 ? 's' : ''} attention`;
}

/**
 * The findings of each module under its path, then those about files (each says where it went), then one line
 * counting them all: the block ends as compile's findings do, so the summary that follows starts a line of its own.
 */
function findingsText(result: ImportResult, color: boolean): string {
  const byModule = result.modules.filter((module) => module.diagnostics.length);
  const aboutFiles = result.diagnostics.filter((d) => !result.modules.some((module) => module.diagnostics.includes(d)));
  const ofFiles = sortDiagnostics(groupDiagnostics(aboutFiles.filter((d) => !d.suppressed)));
  const blocks = byModule.map(
    (module) =>
      `${module.written ? module.path : `${module.path} (not written)`} from ${module.source}: ${STATUS_WORDS[module.status]}\n${sortDiagnostics(
        module.diagnostics,
      )
        .map((d) => `  ${formatDiagnostic(d, { color }).replace(/\n/g, '\n  ')}`)
        .join('\n')}`,
  );
  if (ofFiles.length) blocks.push(ofFiles.map((d) => formatDiagnostic(d, { color })).join('\n'));
  const counts = countsText(
    [...byModule.flatMap((module) => module.diagnostics), ...ofFiles],
    aboutFiles.filter((d) => d.suppressed).length,
  );
  return blocks.length ? `${blocks.join('\n\n')}\n\n${counts}\n` : `${counts}\n`;
}

export async function runImport(files: string[], flags: ImportFlags): Promise<number> {
  if (flags.mode !== 'files' && flags.mode !== 'project')
    throw DiagnosticError.of('usage', `--mode must be files or project, not "${flags.mode}"`);
  requireOptional(['ts-morph', 'prettier'], 'pipewright import');
  // Loaded after the check: generating code needs prettier and ts-morph.
  const { importYaml } = await import('../import/import-yaml.js');
  const result = await importYaml({
    inputs: await readImportInputs(files, flags.mode),
    outDir: flags.out,
    mode: flags.mode,
    keepEdits: { force: flags.force ?? false },
  });
  // A document refused before it became a path (its identity, a link out of the folder) fails the run; the
  // others are written.
  const refused = result.diagnostics.some(
    (d) => d.severity === 'error' && (d.code === 'unsafe-identity' || d.code === 'path-outside'),
  );
  const exit = refused ? EXIT.failed : EXIT.ok;
  if (flags.json) {
    printEnvelope('import', !refused, result.diagnostics, {
      outDir: flags.out,
      mode: flags.mode,
      documents: result.documents,
      written: result.written,
      files: result.files,
      modules: result.modules.map(({ path, written, source, kind, status, diagnostics }) => ({
        path,
        written,
        source,
        kind,
        status,
        diagnostics: diagnostics.map(jsonDiagnostic),
      })),
    });
    return exit;
  }
  if (result.diagnostics.length) stderr(findingsText(result, useColor(process.stderr)));
  const status = new Map(result.modules.map((module) => [module.path, module.status]));
  const line = ({ path, outcome }: { path: string; outcome: string }) => {
    const state = status.get(path);
    const notes = [
      ...(state && state !== 'typed' ? [STATUS_WORDS[state]] : []),
      ...(outcome === 'kept' ? ['kept: edited by hand, --force replaces it'] : []),
      ...(outcome === 'unchanged' ? ['unchanged'] : []),
      ...(outcome === 'overwritten' ? ['replaced your edits (--force)'] : []),
    ];
    return `  ${path}${notes.length ? `  (${notes.join('; ')})` : ''}`;
  };
  stdout(
    `imported ${result.documents} document${result.documents === 1 ? '' : 's'} into ${flags.out} (${statusSummary(result.modules)}):\n${(result.files ?? []).map(line).join('\n')}\n`,
  );
  return exit;
}
