import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ts as TS } from 'ts-morph';
import type { Diagnostic } from './diagnostics.js';

/** This package's own type declarations: what `pipewright` means when the user's project cannot resolve it. */
const OWN_TYPES = fileURLToPath(new URL('../index.d.ts', import.meta.url));

const shown = (file: string, cwd: string) => relative(cwd, file).split(sep).join('/');

/** Defaults when there is no tsconfig.json: what `init` scaffolds. */
const DEFAULT_OPTIONS = (ts: typeof TS): TS.CompilerOptions => ({
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
});

export interface TypecheckOptions {
  /** Definition files (and the config file), relative to `cwd` or absolute. */
  readonly files: readonly string[];
  readonly cwd?: string;
}

/**
 * Runs the TypeScript checker over the definition files and what they import, with the nearest tsconfig.json.
 * Uses the compiler bundled with ts-morph (a dependency) so it works where `typescript` is not installed.
 */
export async function typecheck({ files, cwd = process.cwd() }: TypecheckOptions): Promise<Diagnostic[]> {
  // ts-morph's own copy of TypeScript, loaded only when asked for: it is large.
  const { Project, ts } = createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph');
  const found: Diagnostic[] = [];
  let options: TS.CompilerOptions = DEFAULT_OPTIONS(ts);
  const configPath = ts.findConfigFile(cwd, (file) => ts.sys.fileExists(file), 'tsconfig.json');
  if (configPath) {
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => found.push(toDiagnostic(ts, d, cwd)),
    });
    if (!parsed) return found;
    found.push(...parsed.errors.filter((d) => d.code !== 18003 /* no inputs: we pass our own */).map((d) => toDiagnostic(ts, d, cwd)));
    options = parsed.options;
  }
  options = { ...options, noEmit: true, declaration: false, composite: false, incremental: false };
  // Compile binds `pipewright` to the copy running it; type it the same way when the project cannot resolve it.
  const probe = join(cwd, '__pipewright_probe__.ts');
  if (!ts.resolveModuleName('pipewright', probe, options, ts.sys).resolvedModule)
    options = { ...options, paths: { ...options.paths, pipewright: [OWN_TYPES] } };
  // ts-morph's Project supplies the standard lib declarations from memory (a bare ts.createProgram would look
  // for them beside the compiler, where ts-morph does not ship them).
  const project = new Project({ compilerOptions: options });
  for (const file of files) project.addSourceFileAtPath(resolve(cwd, file));
  project.resolveSourceFileDependencies();
  for (const wrapped of project.getPreEmitDiagnostics()) {
    const d = wrapped.compilerObject;
    if (d.category !== ts.DiagnosticCategory.Error && d.category !== ts.DiagnosticCategory.Warning) continue;
    found.push(toDiagnostic(ts, d, cwd));
  }
  return found;
}

function toDiagnostic(ts: typeof TS, d: TS.Diagnostic, cwd: string): Diagnostic {
  let message = `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n    ')}`;
  let at: string | undefined;
  if (d.file && d.start !== undefined) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    at = `${shown(d.file.fileName, cwd)}:${line + 1}:${character + 1}`;
    const lineText = d.file.text.split(/\r?\n/)[line] ?? '';
    message += `\n    ${lineText}\n    ${' '.repeat(character)}^`;
  } else if (d.file) at = shown(d.file.fileName, cwd);
  return {
    code: 'type-error',
    severity: d.category === ts.DiagnosticCategory.Warning ? 'warning' : 'error',
    message,
    path: [],
    ...(at ? { at } : {}),
    hint: 'fix the types at this location (tsc reports the same); compile without --typecheck skips this check',
  };
}
