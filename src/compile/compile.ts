import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { moduleInfo, type BatchDocument, type ModuleInfo } from './build-batch.js';
import { buildAndValidate, type BuiltDocument } from './build-documents.js';
import type { RuleSettings } from './rule-settings.js';
import { entryKey, FileHashes, fingerprint, readCache, reusable, writeCache, type CachedEntry, type Reusable } from './compile-cache.js';
import { collectResources } from './collect.js';
import { recordEnvironment } from './environment-reads.js';
import { DiagnosticError, groupDiagnostics, hasErrors, type Diagnostic } from './diagnostics.js';
import type { ResourceKey } from './validate.js';
import { keyString } from './validate.js';
import { readFile } from 'node:fs/promises';
import { createManifest, MANIFEST_FILE, manifestText, type Manifest, type ManifestEntry } from './layout.js';
import { loadModules } from './load-modules.js';
import { renderDocument, type RenderedDocument, type RenderOptions } from './render-output.js';
import { planBatches, runBatches } from './worker-pool.js';
import { inputSetFit, pipelineKeyOf } from './rules-input-sets.js';
import { readYaml } from '../yaml/read-yaml.js';
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
  /** The project's rule settings (`rules` in pipewright.config.ts): rules switched off or at another severity. */
  readonly rules?: RuleSettings;
}

/** A document this compile did not rebuild: its entry file and imports are unchanged since the last one. */
export interface ReusedDocument {
  readonly reused: true;
  readonly kind: ResourceKey['kind'];
  readonly key: ResourceKey;
  /** Source file, relative to the working directory. */
  readonly file: string;
}

/**
 * A document of the output: built in this thread (with its builder and document), built in a worker thread
 * (its identity only), or reused unchanged from the last compile.
 */
export type CompiledDocument = BuiltDocument | BatchDocument | ReusedDocument;

export interface CompileResult {
  /** Every document of the output, in the order of their entry files. */
  readonly documents: readonly CompiledDocument[];
  readonly manifest: Manifest;
  readonly changes: OutputChanges;
  /** Warnings; errors are thrown as a DiagnosticError. */
  readonly diagnostics: readonly Diagnostic[];
  /** What `--debug` shows: entries the cache cannot keep, and why. */
  readonly notes: readonly string[];
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

/** What this compile built (as opposed to reused), ready to write. */
interface FreshOutput {
  readonly documents: ReadonlyArray<BuiltDocument | BatchDocument>;
  readonly rendered: readonly RenderedDocument[];
  readonly diagnostics: readonly Diagnostic[];
  readonly modules: readonly ModuleInfo[];
}

/** Loads, validates and emits: nothing is written unless every document is valid. */
export async function compile(options: CompileOptions): Promise<CompileResult> {
  const files = await resolveEntries(options.entries);
  const useCache = options.cache !== false && !process.env.PIPEWRIGHT_NO_CACHE;
  const print = useCache ? await fingerprint(options.outDir, { schemaModeline: options.schemaModeline ?? false, rules: options.rules ?? {} }) : '';
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
  const reusedKeys = [...reused.values()].flatMap((r) => r.entry.outputs.map(manifestKey));
  const render: RenderOptions = {
    outDir: options.outDir,
    ...(options.schemaModeline ? { schemaModeline: options.schemaModeline } : {}),
    ...(options.rules ? { rules: options.rules } : {}),
  };
  const batches = planBatches(fresh);
  const built = (batches && (await buildInWorkers(batches, render, reusedKeys))) || (await buildHere(fresh, render, reusedKeys));
  const { documents, diagnostics } = built;
  if (documents.length === 0 && [...reused.values()].every((r) => r.entry.outputs.length === 0))
    throw new DiagnosticError([
      {
        code: 'no-resources',
        severity: 'error',
        message: `no resources exported from ${files.join(', ')}`,
        path: [],
        hint: 'export the builders to compile, e.g. export const deploy = pipeline({...})',
      },
    ]);
  // A rebuilt document taking the identity of a reused one is an error whose message needs both
  // resources: compile everything again, which reports it in full.
  const taken = new Set(reusedKeys.map(keyString));
  if (reused.size > 0 && documents.some((built) => taken.has(keyString(built.key)))) return compile({ ...options, cache: false });
  // So does an input set that no longer fits its pipeline when one of the two was reused: the one-thread build
  // of everything locates the problem at the builder call.
  if (reused.size > 0 && built.rendered.length > 0 && inputSetMisfits([...built.rendered, ...reusedOutputs(reused)])) return compile({ ...options, cache: false });
  if (hasErrors(diagnostics)) throw new DiagnosticError(groupDiagnostics(diagnostics));
  const outputs = new Map<string, string>();
  const entries: ManifestEntry[] = [];
  const produced = new Map<string, ManifestEntry[]>();
  for (const { file, text, entry } of built.rendered) {
    outputs.set(file, text);
    entries.push(entry);
    produced.set(entry.source, [...(produced.get(entry.source) ?? []), entry]);
  }
  const all: CompiledDocument[] = [...documents];
  for (const { entry, texts } of reused.values()) {
    for (const [file, text] of texts) outputs.set(file, text);
    for (const output of entry.outputs) {
      entries.push(output);
      all.push({ reused: true, kind: output.kind, key: manifestKey(output), file: output.source });
    }
  }
  const manifest = createManifest(entries);
  const changes =
    (fresh.length === 0 && (await unchangedOutput(options.outDir, outputs, manifest))) ||
    (options.check ? await planOutput(options.outDir, outputs, manifest) : await writeOutput(options.outDir, outputs, manifest));
  const notes: string[] = [];
  // Warnings are not recorded per entry, so a compile that had some leaves no cache: the next one repeats them.
  if (useCache && !options.check && diagnostics.length === 0) {
    const record: Record<string, CachedEntry> = {};
    for (const [key, { entry }] of reused) record[key] = entry;
    for (const module of built.modules) {
      if (module.impure) {
        notes.push(`not cached: ${module.file}, compiled every time: ${module.uncacheable ?? 'it imports something not tracked'}`);
        continue;
      }
      const dependencies: Record<string, string> = {};
      for (const dependency of module.dependencies) {
        const hash = hashes.get(dependency);
        if (hash === undefined) break;
        dependencies[dependency] = hash;
      }
      if (Object.keys(dependencies).length !== module.dependencies.length) continue;
      const environment = module.environment ?? {};
      record[module.file] = { dependencies, ...(Object.keys(environment).length > 0 ? { environment } : {}), outputs: produced.get(module.file) ?? [] };
    }
    await writeCache(options.outDir, print, record);
  }
  return { documents: all, manifest, changes, diagnostics: groupDiagnostics(diagnostics), notes };
}

/** Every fresh entry in this thread, checked as a whole. */
async function buildHere(fresh: readonly string[], render: RenderOptions, reusedKeys: readonly ResourceKey[]): Promise<FreshOutput> {
  const { result, reads } = await recordEnvironment(async () => {
    const modules = fresh.length > 0 ? await loadModules(fresh) : [];
    const { documents, diagnostics } = buildAndValidate(collectResources(modules), reusedKeys, render.rules);
    const rendered = hasErrors(diagnostics) ? [] : documents.map((built) => renderDocument(built, render));
    return { documents, rendered, diagnostics, modules };
  });
  return { ...result, modules: moduleInfo(result.modules, reads) };
}

/**
 * The fresh entries in worker-thread batches. What spans documents is checked here by key; when anything
 * of it is off (a duplicate, a reference to a resource that is not found or not visible), undefined: the
 * caller builds in this thread, whose diagnostics name both sides, and which also tells a resource
 * re-exported by entries of two batches (one builder) from two builders with one identity.
 */
async function buildInWorkers(batches: string[][], render: RenderOptions, reusedKeys: readonly ResourceKey[]): Promise<FreshOutput | undefined> {
  const results = await runBatches(batches, render);
  const documents = results.flatMap((r) => r.documents);
  const keys = [...documents.map((d) => d.key), ...reusedKeys].map(keyString);
  const known = new Set(keys);
  const references = results.flatMap((r) => r.references);
  if (known.size !== keys.length || references.some((r) => !r.visible || (!r.resolved && !known.has(r.target)))) return undefined;
  if (inputSetMisfits(results.flatMap((r) => r.rendered))) return undefined;
  return {
    documents,
    rendered: results.flatMap((r) => r.rendered),
    diagnostics: results.flatMap((r) => r.diagnostics),
    modules: results.flatMap((r) => r.modules),
  };
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
  ...(entry.parent ? { parent: entry.parent } : {}),
  ...(entry.version ? { version: entry.version } : {}),
});

/** The reused outputs as rendered documents: their text (checked against the manifest) and entry. */
const reusedOutputs = (reused: ReadonlyMap<string, Reusable>): RenderedDocument[] =>
  [...reused.values()].flatMap(({ entry, texts }) =>
    entry.outputs.flatMap((output) => {
      const text = texts.get(output.file);
      return text === undefined ? [] : [{ file: output.file, text, entry: output }];
    }),
  );

/**
 * Whether an input set built in a worker does not fit its pipeline built in this compile (each batch checks only
 * itself). Read back from the rendered YAML only when both are here; a misfit sends the compile to one thread,
 * whose diagnostics point at the builder calls.
 */
function inputSetMisfits(rendered: readonly RenderedDocument[]): boolean {
  const inputSets = rendered.filter((r) => r.entry.kind === 'inputSet' && r.entry.parent);
  if (inputSets.length === 0) return false;
  const pipelines = new Map(rendered.filter((r) => r.entry.kind === 'pipeline').map((r) => [keyString(manifestKey(r.entry)), r]));
  // A pipeline that several input sets fill is read once.
  const read = new Map<RenderedDocument, unknown>();
  const valueOf = (r: RenderedDocument) => {
    if (!read.has(r)) read.set(r, readYaml(r.text, r.file).documents[0]?.value);
    return read.get(r);
  };
  return inputSets.some((inputSet) => {
    const pipeline = pipelines.get(pipelineKeyOf(manifestKey(inputSet.entry))!);
    return pipeline !== undefined && inputSetFit(valueOf(inputSet), valueOf(pipeline)).length > 0;
  });
}
