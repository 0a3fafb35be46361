import { compile } from '../compile/compile.js';
import { DiagnosticError, formatDiagnostics } from '../compile/diagnostics.js';
import { loadConfig } from '../compile/load-config.js';
import { DEFAULT_OUT_DIR } from '../config.js';
import { EXIT, UserError, useColor } from './errors.js';

export interface CompileFlags {
  readonly out?: string;
  readonly check?: boolean;
  readonly schemaModeline?: boolean;
  readonly json?: boolean;
}

export async function runCompile(entries: string[], flags: CompileFlags): Promise<number> {
  const { config, file: configFile } = await loadConfig();
  const chosen = entries.length > 0 ? entries : (config.include ?? []);
  if (chosen.length === 0)
    throw new UserError(
      configFile ? `${configFile} has no include globs and no entries were given` : 'no entries given and no pipewright.config.ts found',
      'pass files, e.g. pipewright compile "pipelines/**/*.ts", or set include in pipewright.config.ts',
    );
  const outDir = flags.out ?? config.outDir ?? DEFAULT_OUT_DIR;
  let result;
  try {
    result = await compile({
      entries: chosen,
      outDir,
      check: flags.check ?? false,
      schemaModeline: flags.schemaModeline ?? config.schemaModeline ?? false,
    });
  } catch (error) {
    if (flags.json && error instanceof DiagnosticError) {
      process.stdout.write(`${JSON.stringify({ ok: false, diagnostics: error.diagnostics }, null, 2)}\n`);
      return EXIT.failed;
    }
    throw error;
  }
  const { changes, diagnostics, documents } = result;
  const upToDate = changes.written.length === 0 && changes.removed.length === 0;
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ok: !flags.check || upToDate, outDir, changes, diagnostics }, null, 2)}\n`);
  } else {
    if (diagnostics.length) process.stderr.write(formatDiagnostics(diagnostics, { color: useColor(process.stderr) }));
    if (flags.check) {
      const lines = [
        ...changes.written.map((f) => `  changed  ${f}`),
        ...changes.removed.map((f) => `  orphan   ${f}`),
      ];
      process.stdout.write(
        upToDate
          ? `${outDir} is up to date (${documents.length} documents)\n`
          : `${outDir} is out of date:\n${lines.join('\n')}\nrun pipewright compile to update it\n`,
      );
    } else {
      process.stdout.write(
        `compiled ${documents.length} document${documents.length === 1 ? '' : 's'} to ${outDir}: ` +
          `${changes.written.length} written, ${changes.unchanged.length} unchanged, ${changes.removed.length} removed\n`,
      );
    }
  }
  return flags.check && !upToDate ? EXIT.failed : EXIT.ok;
}
