import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ts as TS } from 'ts-morph';
import type { Diagnostic } from '../core/diagnostics.js';
import type { DiagnosticLocation } from '../core/source-location.js';

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
  /** Definition files, relative to `cwd` or absolute. */
  readonly files: readonly string[];
  /** pipewright.config.ts, checked with the definitions' options; it plays no part in finding the tsconfig. */
  readonly configFile?: string;
  readonly cwd?: string;
}

/** The deepest folder holding every one of `files` (absolute). */
function commonFolder(files: readonly string[]): string {
  const [first = [], ...rest] = files.map((file) => dirname(file).split(sep));
  let length = first.length;
  for (const parts of rest) {
    let same = 0;
    while (same < length && parts[same] === first[same]) same += 1;
    length = same;
  }
  return first.slice(0, length).join(sep) || sep;
}

/**
 * The tsconfig.json the checker reads: the nearest one above the definitions' common folder, as an editor picks
 * the nearest tsconfig.json above a file. So `pipelines/tsconfig.json` (what `init` writes when the repository's
 * own tsconfig.json does not cover pipelines/) wins over the root one; with none there, the root one is used.
 */
export function tsconfigFor(files: readonly string[], cwd = process.cwd()): string | undefined {
  for (
    let dir = files.length > 0 ? commonFolder(files.map((file) => resolve(cwd, file))) : resolve(cwd);
    ;
    dir = dirname(dir)
  ) {
    if (existsSync(join(dir, 'tsconfig.json'))) return join(dir, 'tsconfig.json');
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Runs the TypeScript checker over the definition files and what they import, with the nearest tsconfig.json.
 * Uses the compiler bundled with ts-morph (a dependency) so it works where `typescript` is not installed.
 */
export async function typecheck({ files, configFile, cwd = process.cwd() }: TypecheckOptions): Promise<Diagnostic[]> {
  // ts-morph's own copy of TypeScript, loaded only when asked for: it is large.
  const requireHere = createRequire(import.meta.url);
  const { ts } = requireHere('ts-morph') as typeof import('ts-morph');
  const found: Diagnostic[] = [];
  let options: TS.CompilerOptions = DEFAULT_OPTIONS(ts);
  const configPath = tsconfigFor(files, cwd);
  const toFound = (d: TS.Diagnostic) => toDiagnostic(ts, d, cwd, configPath);
  if (configPath) {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => found.push(toFound(d)) },
    );
    if (!parsed) return found;
    found.push(...parsed.errors.filter((d) => d.code !== 18003 /* no inputs: we pass our own */).map(toFound));
    options = parsed.options;
  }
  // A check, not a build: a tsconfig made for building (a monorepo's composite base) must not ask for output.
  options = {
    ...options,
    noEmit: true,
    declaration: false,
    declarationMap: false,
    emitDeclarationOnly: false,
    composite: false,
    incremental: false,
  };
  // Compile binds `pipewright` to the copy running it; type it the same way when the project cannot resolve it.
  const probe = join(cwd, '__pipewright_probe__.ts');
  if (!ts.resolveModuleName('pipewright', probe, options, ts.sys).resolvedModule)
    options = { ...options, paths: { ...options.paths, pipewright: [OWN_TYPES] } };
  const program = ts.createProgram({
    rootNames: [...files, ...(configFile ? [configFile] : [])].map((file) => resolve(cwd, file)),
    options,
    host: hostWithLibFiles(ts, options, requireHere.resolve('ts-morph')),
  });
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (d.category !== ts.DiagnosticCategory.Error && d.category !== ts.DiagnosticCategory.Warning) continue;
    found.push(toFound(d));
  }
  return found;
}

/**
 * A standard compiler host (so ES module detection from package.json "type" works as in tsc), except that the
 * lib declarations (lib.es2022.d.ts, ...) come from @ts-morph/common, which ships them as data: ts-morph's
 * bundled compiler has no lib folder beside it. (ts-morph's own Project host would supply them too, but it
 * ignores package.json "type", so every file would be checked as CommonJS.)
 */
function hostWithLibFiles(ts: typeof TS, options: TS.CompilerOptions, tsMorphEntry: string): TS.CompilerHost {
  const { getLibFiles } = createRequire(tsMorphEntry)('@ts-morph/common') as {
    getLibFiles(): Array<{ fileName: string; text: string }>;
  };
  // TypeScript names files with `/` on every platform; keep the keys that way and look up the same way.
  const posix = (file: string) => file.replace(/\\/g, '/');
  const libDir = posix(resolve('/', '__pipewright_typescript_lib__'));
  const libs = new Map(getLibFiles().map((lib) => [`${libDir}/${lib.fileName}`, lib.text]));
  const libText = (file: string) => libs.get(posix(file));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getDefaultLibLocation = () => libDir;
  host.getDefaultLibFileName = (o) => `${libDir}/${ts.getDefaultLibFileName(o)}`;
  host.fileExists = (file) => libText(file) !== undefined || fileExists.call(host, file);
  host.readFile = (file) => libText(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, languageVersion, onError, shouldCreate) => {
    const lib = libText(file);
    return lib === undefined
      ? getSourceFile.call(host, file, languageVersion, onError, shouldCreate)
      : ts.createSourceFile(file, lib, languageVersion);
  };
  return host;
}

/** TS6059 (not under rootDir) and TS6307 (not listed in the project): the tsconfig is another folder's. */
const OUTSIDE_PROJECT = new Set([6059, 6307]);

/**
 * Where to look and what `tsc` would say: the tsconfig named, since `tsc -p` only checks what its include
 * lists, and a repository's own tsconfig.json often leaves pipelines/ out.
 */
function hintFor(code: number, configPath: string | undefined, cwd: string): string {
  const config = configPath ? shown(configPath, cwd) : undefined;
  if (OUTSIDE_PROJECT.has(code) && config)
    return (
      `${config}'s rootDir or include leaves the definitions out (so \`tsc -p ${config}\` never checks them): give them ` +
      `a tsconfig.json of their own beside them that extends it, with rootDir the folder above them and ` +
      `pipewright.config.ts (pipewright init writes pipelines/tsconfig.json so)`
    );
  const options = config ? `the compiler options of ${config}` : 'strict defaults (no tsconfig.json was found)';
  return `fix the types at this location (checked with ${options}); compile without --typecheck skips this check`;
}

function toDiagnostic(ts: typeof TS, d: TS.Diagnostic, cwd: string, configPath: string | undefined): Diagnostic {
  let message = `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n    ')}`;
  let location: DiagnosticLocation | undefined;
  if (d.file && d.start !== undefined) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    location = { file: shown(d.file.fileName, cwd), line: line + 1, column: character + 1 };
    if (d.length) {
      // TypeScript counts from 0, its end like an editor's: just after the last character.
      const end = d.file.getLineAndCharacterOfPosition(d.start + d.length);
      location = { ...location, endLine: end.line + 1, endColumn: end.character + 1 };
    }
    const lineText = d.file.text.split(/\r?\n/)[line] ?? '';
    message += `\n    ${lineText}\n    ${' '.repeat(character)}^`;
  } else if (d.file) location = { file: shown(d.file.fileName, cwd) };
  return {
    code: 'type-error',
    severity: 'error',
    message,
    path: [],
    ...(location ? { location } : {}),
    hint: hintFor(d.code, configPath, cwd),
  };
}
