import { dirname, join, relative, sep } from 'node:path';
import { glob } from 'tinyglobby';
import { buildAndValidate, type BuiltDocument } from './build-documents.js';
import { entryKey, FileHashes, fingerprint, readCache, reusable, writeCache, type CachedEntry, type Reusable } from './compile-cache.js';
import { collectResources } from './collect.js';
import { DiagnosticError, hasErrors, type Diagnostic } from './diagnostics.js';
import { generatedFile } from './emit-yaml.js';
import type { ResourceKey } from './validate.js';
import { keyString } from './validate.js';
import { readFile } from 'node:fs/promises';
import { createManifest, MANIFEST_FILE, manifestText, outputPath, sha256, type Manifest, type ManifestEntry } from './layout.js';
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
  /**
   * Reuse the outputs of entry files that did not change since the last compile into the same folder
   * (default true; the environment variable PIPEWRIGHT_NO_CACHE=1 turns it off).
   */
  readonly cache?: boolean;
}

/** A document this compile did not rebuild: its entry file and imports are unchanged since the last one. */
export interface ReusedDocument {
  readonly reused: true;
  readonly kind: ResourceKey['kind'];
  readonly key: ResourceKey;
  /** Source file, relative to the working directory. */
  readonly file: string;
}

export interface CompileResult {
  /** Every document of the output: built in this compile, or reused unchanged from the last one. */
  readonly documents: readonly (BuiltDocument | ReusedDocument)[];
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
  const useCache = options.cache !== false && !process.env.PIPEWRIGHT_NO_CACHE;
  const print = useCache ? await fingerprint(options.outDir, { schemaModeline: options.schemaModeline ?? false }) : '';
  const hashes = new FileHashes();
  // Entries whose files and outputs are unchanged since the last compile are not loaded again.
  const reused = new Map<string, Reusable>();
  if (useCache) {
    const cached = await readCache(options.outDir, print);
    for (const file of files) {
      const entry = cached[entryKey(file)];
      const found = entry && reusable(entry, options.outDir, hashes);
      if (found) reused.set(entryKey(file), found);
    }
  }
  const fresh = files.filter((file) => !reused.has(entryKey(file)));
  const modules = fresh.length > 0 ? await loadModules(fresh) : [];
  const found = collectResources(modules);
  if (found.length === 0 && [...reused.values()].every((r) => r.entry.outputs.length === 0))
    throw new DiagnosticError([
      {
        code: 'no-resources',
        severity: 'error',
        message: `no resources exported from ${files.join(', ')}`,
        path: [],
        hint: 'export the builders to compile, e.g. export const deploy = pipeline({...})',
      },
    ]);
  const reusedKeys = [...reused.values()].flatMap((r) => r.entry.outputs.map(manifestKey));
  const { documents, diagnostics } = buildAndValidate(found, reusedKeys);
  // A rebuilt document taking the identity of a reused one is an error whose message needs both
  // resources: compile everything again, which reports it in full.
  const taken = new Set(reusedKeys.map(keyString));
  if (reused.size > 0 && documents.some((built) => taken.has(keyString(built.key)))) return compile({ ...options, cache: false });
  if (hasErrors(diagnostics)) throw new DiagnosticError(diagnostics);
  const outputs = new Map<string, string>();
  const entries: ManifestEntry[] = [];
  const produced = new Map<string, ManifestEntry[]>();
  for (const built of documents) {
    const file = outputPath(built.key);
    const modeline = options.schemaModeline
      ? `# yaml-language-server: $schema=${schemaLocation(options.schemaModeline, built.kind, options.outDir, file)}\n`
      : '';
    const text = modeline + generatedFile(built.document, built.file);
    outputs.set(file, text);
    const { kind, org, project, identifier } = built.key;
    const entry = { file, kind, ...(org ? { org } : {}), ...(project ? { project } : {}), identifier, source: built.file, sha256: sha256(text) };
    entries.push(entry);
    produced.set(built.file, [...(produced.get(built.file) ?? []), entry]);
  }
  const all: Array<BuiltDocument | ReusedDocument> = [...documents];
  for (const { entry, texts } of reused.values()) {
    for (const [file, text] of texts) outputs.set(file, text);
    for (const output of entry.outputs) {
      entries.push(output);
      all.push({ reused: true, kind: output.kind, key: manifestKey(output), file: output.source });
    }
  }
  const manifest = createManifest(entries);
  const changes =
    (modules.length === 0 && (await unchangedOutput(options.outDir, outputs, manifest))) ||
    (options.check ? await planOutput(options.outDir, outputs, manifest) : await writeOutput(options.outDir, outputs, manifest));
  // Warnings are not recorded per entry, so a compile that had some leaves no cache: the next one repeats them.
  if (useCache && !options.check && diagnostics.length === 0) {
    const record: Record<string, CachedEntry> = {};
    for (const [key, { entry }] of reused) record[key] = entry;
    for (const module of modules) {
      if (module.impure) continue;
      const dependencies: Record<string, string> = {};
      for (const dependency of module.dependencies) {
        const hash = hashes.get(dependency);
        if (hash === undefined) break;
        dependencies[dependency] = hash;
      }
      if (Object.keys(dependencies).length !== module.dependencies.length) continue;
      record[module.file] = { dependencies, outputs: produced.get(module.file) ?? [] };
    }
    await writeCache(options.outDir, print, record);
  }
  return { documents: all, manifest, changes, diagnostics };
}

/**
 * When every output was reused (each checked against its sha256 in the folder) and the manifest on disk
 * is the same text, writing would rebuild an identical tree: say so without reading every file again.
 */
async function unchangedOutput(outDir: string, outputs: ReadonlyMap<string, string>, manifest: Manifest): Promise<OutputChanges | undefined> {
  const existing = await readFile(join(outDir, MANIFEST_FILE), 'utf8').catch(() => undefined);
  if (existing !== manifestText(manifest)) return undefined;
  const unchanged = [...outputs.keys(), MANIFEST_FILE].sort((a, b) => (a < b ? -1 : 1));
  return { written: [], added: [], changed: [], unchanged, removed: [] };
}

const manifestKey = (entry: ManifestEntry): ResourceKey => ({
  kind: entry.kind,
  identifier: entry.identifier,
  ...(entry.org ? { org: entry.org } : {}),
  ...(entry.project ? { project: entry.project } : {}),
});
