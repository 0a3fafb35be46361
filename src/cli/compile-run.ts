import type { CompileOptions, CompileResult } from '../compile/compile.js';
import { resolveInputs, type CompileInputs } from '../compile/compile-inputs.js';
import type { Removal } from '../compile/prune.js';
import { bundleAhead, startBundler } from '../compile/load-modules.js';
import {
  DiagnosticError,
  formatDiagnostics,
  hasErrors,
  sortDiagnostics,
  type Diagnostic,
} from '../core/diagnostics.js';
import type { PipewrightConfig } from '../compile/config.js';
import type { SkippedEntry } from '../compile/layout.js';
import { keyName } from '../catalog/resource-key.js';
import { EXIT, useColor } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { requireOptional } from './optional-dependencies.js';
import { repeatedWarningsLine, type WarningMemory } from './warning-memory.js';
import { stdout, stderr } from './output.js';

export interface CompileFlags {
  readonly out?: string;
  readonly check?: boolean;
  readonly schemaModeline?: boolean;
  readonly json?: boolean;
  readonly typecheck?: boolean;
  readonly watch?: boolean;
  readonly keepGoing?: boolean;
  readonly definitionTimeout?: number;
}

/** Runs the type checker when asked; type errors stop the compile before anything is written. */
async function maybeTypecheck(inputs: CompileInputs, flags: CompileFlags): Promise<Diagnostic[]> {
  if (!flags.typecheck) return [];
  requireOptional(['ts-morph'], 'compile --typecheck');
  const { typecheck } = await import('../compile/typecheck.js');
  const found = await typecheck({
    files: inputs.files,
    ...(inputs.configFile ? { configFile: inputs.configFile } : {}),
  });
  if (hasErrors(found)) throw new DiagnosticError(found);
  return found;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The `--check` report: every file that differs, and what compile would do about it. */
function checkSummary(outDir: string, result: CompileResult): string {
  const { changes, documents } = result;
  const total = changes.added.length + changes.changed.length + changes.removed.length;
  if (total === 0) return `${outDir} is up to date (${plural(documents.length, 'document')})\n`;
  const lines = [
    ...changes.changed.map((f) => `  changed  ${f}`),
    ...changes.added.map((f) => `  added    ${f}`),
    ...changes.removals.map((r) => `  orphan   ${r.file}  (${removalText(r)}; compile removes it)`),
  ];
  return (
    `${outDir} is out of date: ${plural(total, 'file')} differ` +
    ` (${changes.changed.length} changed, ${changes.added.length} added, ${changes.removed.length} orphaned)\n` +
    `${lines.join('\n')}\nrun pipewright compile to update it\n`
  );
}

/** Why a file goes, as the end of a sentence about it. */
function removalText({ source, reason, movedTo }: Removal): string {
  switch (reason) {
    case 'moved':
      return `its resource is now written to ${movedTo}`;
    case 'no-longer-exported':
      return `${source} no longer exports it`;
    case 'source-deleted':
      return `its source ${source} no longer exists`;
    case 'source-not-included':
      return `its source ${source} is not among the entries compiled (the config's include)`;
    case 'skipped':
      return `skipped: ${source} has errors, or it depends on what was skipped`;
  }
}

/** What a compile did: the counts, then each removed file and why; with --keep-going each document written and skipped. */
function compileSummary(outDir: string, { changes, documents, skipped }: CompileResult): string {
  const kept = changes.kept.length > 0 ? `; ${changes.kept.length} kept (from sources not compiled in this run)` : '';
  const removals = changes.removals.filter((r) => r.reason !== 'skipped');
  const lines =
    `compiled ${plural(documents.length, 'document')} to ${outDir}: ` +
    `${changes.written.length} written, ${changes.unchanged.length} unchanged, ${removals.length} removed${kept}` +
    (skipped.length > 0 ? `, ${skipped.length} skipped (--keep-going)` : '') +
    '\n' +
    removals.map((r) => `  removed  ${r.file}  (${removalText(r)})\n`).join('');
  if (skipped.length === 0) return lines;
  return (
    lines +
    documents.map((d) => `  compiled ${d.output}\n`).join('') +
    skipped.map((entry) => `  skipped  ${entry.file ?? entry.source}  (${skipReason(entry)})\n`).join('') +
    `fix the errors above and compile again: publish of ${outDir} publishes the compiled documents and never prunes the skipped\n`
  );
}

/** Why `--keep-going` did not write a document. */
const skipReason = (entry: SkippedEntry): string =>
  entry.reason === 'depends-on-skipped'
    ? `depends on ${entry.dependsOn}, skipped`
    : entry.file
      ? `${entry.source} has errors`
      : `${entry.source} has errors; it made no document`;

/** One compile of resolved inputs, printed; errors are thrown (DiagnosticError) for the caller to print. */
export async function compileInputs(
  inputs: CompileInputs,
  flags: CompileFlags,
  watching: Pick<CompileOptions, 'onInputs' | 'session'> & { readonly warnings?: WarningMemory } = {},
): Promise<number> {
  const typeWarnings = await maybeTypecheck(inputs, flags);
  // Loaded here, not above: while Node loads the checks (schemas, rules), esbuild bundles the first files (runCompile).
  const { compile } = await import('../compile/compile.js');
  const result = await compile({
    entries: inputs.entries,
    files: inputs.files,
    outDir: inputs.outDir,
    ...watching,
    check: flags.check ?? false,
    schemaModeline: flags.schemaModeline ?? inputs.config.schemaModeline ?? false,
    ...(inputs.config.rules ? { rules: inputs.config.rules } : {}),
    partial: inputs.partial,
    ...(flags.keepGoing ? { keepGoing: true } : {}),
    ...definitionTimeoutOf(flags, inputs.config),
  });
  const { changes, documents } = result;
  if (process.argv.includes('--debug')) for (const note of result.notes) stderr(`pipewright: debug: ${note}\n`);
  const diagnostics = sortDiagnostics([...typeWarnings, ...result.diagnostics]);
  const upToDate = changes.written.length === 0 && changes.removed.length === 0;
  const ok = (!flags.check || upToDate) && result.skipped.length === 0;
  if (flags.json) {
    printEnvelope('compile', ok, diagnostics, {
      outDir: inputs.outDir,
      check: flags.check ?? false,
      documents: documents.length,
      changes,
      ...(flags.keepGoing
        ? {
            compiled: documents.map((d) => ({ kind: d.kind, name: keyName(d.key), file: d.output, source: d.file })),
            skipped: result.skipped,
          }
        : {}),
    });
  } else {
    // A watch prints each warning once (warning-memory.ts); a single compile prints them all.
    const { fresh, repeated } = watching.warnings?.sift(diagnostics) ?? { fresh: diagnostics, repeated: [] };
    if (fresh.length) stderr(formatDiagnostics(fresh, { color: useColor(process.stderr) }));
    if (repeated.length) stderr(repeatedWarningsLine(repeated));
    if (flags.check) (upToDate ? stdout : stderr)(checkSummary(inputs.outDir, result));
    else stdout(compileSummary(inputs.outDir, result));
  }
  return ok ? EXIT.ok : EXIT.failed;
}

/** The limit on evaluating definitions: the flag, else the config's, else compile's default. */
const definitionTimeoutOf = (flags: CompileFlags, config: PipewrightConfig): { definitionTimeout?: number } => {
  const seconds = flags.definitionTimeout ?? config.definitionTimeout;
  return seconds === undefined ? {} : { definitionTimeout: seconds };
};

/** One compile (`--watch` is `watch.ts`'s). */
export async function runCompile(entries: string[], flags: CompileFlags): Promise<number> {
  // Failures are thrown: the CLI prints them, in the --json envelope with --json.
  startBundler();
  const inputs = await resolveInputs(entries, flags);
  bundleAhead(inputs.files);
  return compileInputs(inputs, flags);
}
