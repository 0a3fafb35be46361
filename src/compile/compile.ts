import { dirname, join, relative, sep } from 'node:path';
import { glob } from 'tinyglobby';
import { buildAndValidate, type BuiltDocument } from './build-documents.js';
import { collectResources } from './collect.js';
import { DiagnosticError, hasErrors, type Diagnostic } from './diagnostics.js';
import { generatedFile } from './emit-yaml.js';
import { createManifest, outputPath, sha256, type Manifest } from './layout.js';
import { loadModules } from './load-modules.js';
import { planOutput, writeOutput, type OutputChanges } from './write-output.js';

export interface CompileOptions {
  /** Files or globs of TypeScript definition files. */
  readonly entries: readonly string[];
  readonly outDir: string;
  /** Compare only: report what would change, write nothing. */
  readonly check?: boolean;
  /**
   * Put a `# yaml-language-server: $schema=...` line in each file: `true` points at `schemas/` (what
   * `pipewright schema` writes) by a path relative to the file; a string is another folder or an http(s) base URL.
   */
  readonly schemaModeline?: boolean | string;
}

export interface CompileResult {
  readonly documents: readonly BuiltDocument[];
  readonly manifest: Manifest;
  readonly changes: OutputChanges;
  /** Warnings; errors are thrown as a DiagnosticError. */
  readonly diagnostics: readonly Diagnostic[];
}

/** The entry files, from paths and globs, sorted and without duplicates. */
export async function resolveEntries(entries: readonly string[]): Promise<string[]> {
  const files = await glob([...entries], { absolute: false, onlyFiles: true, expandDirectories: false });
  if (files.length === 0)
    throw new DiagnosticError([
      {
        code: 'no-entries',
        severity: 'error',
        message: `no files match ${entries.map((e) => JSON.stringify(e)).join(', ')}`,
        path: [],
        hint: 'pass .ts files or globs, e.g. pipewright compile "pipelines/**/*.ts", or set include in pipewright.config.ts',
      },
    ]);
  return [...new Set(files)].sort();
}

/** The folder `pipewright schema` writes to by default (src/cli/schema-command.ts). */
const DEFAULT_SCHEMA_DIR = 'schemas';

/** The $schema of a modeline: a URL under an http(s) base, or a path relative to the emitted file (as the editor resolves it). */
function schemaLocation(base: true | string, kind: string, outDir: string, file: string): string {
  const dir = base === true ? DEFAULT_SCHEMA_DIR : base;
  if (/^https?:\/\//.test(dir)) return `${dir.replace(/\/+$/, '')}/${kind}.schema.json`;
  return relative(dirname(join(outDir, file)), join(dir, `${kind}.schema.json`)).split(sep).join('/');
}

/** Loads, validates and emits: nothing is written unless every document is valid. */
export async function compile(options: CompileOptions): Promise<CompileResult> {
  const files = await resolveEntries(options.entries);
  const modules = await loadModules(files);
  const found = collectResources(modules);
  if (found.length === 0)
    throw new DiagnosticError([
      {
        code: 'no-resources',
        severity: 'error',
        message: `no resources exported from ${files.join(', ')}`,
        path: [],
        hint: 'export the builders to compile, e.g. export const deploy = pipeline({...})',
      },
    ]);
  const { documents, diagnostics } = buildAndValidate(found);
  if (hasErrors(diagnostics)) throw new DiagnosticError(diagnostics);
  const outputs = new Map<string, string>();
  const entries = documents.map((built) => {
    const file = outputPath(built.key);
    const modeline = options.schemaModeline
      ? `# yaml-language-server: $schema=${schemaLocation(options.schemaModeline, built.kind, options.outDir, file)}\n`
      : '';
    const text = modeline + generatedFile(built.document, built.file);
    outputs.set(file, text);
    const { kind, org, project, identifier } = built.key;
    return { file, kind, ...(org ? { org } : {}), ...(project ? { project } : {}), identifier, source: built.file, sha256: sha256(text) };
  });
  const manifest = createManifest(entries);
  const changes = options.check
    ? await planOutput(options.outDir, outputs, manifest)
    : await writeOutput(options.outDir, outputs, manifest);
  return { documents, manifest, changes, diagnostics };
}
