import { join, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { resolveEntries } from './entries.js';
import { buildEntries, rebuildTogether } from './build-batch.js';
import { mayDefineInputSets } from './input-set-scan.js';
import type { EntryDocument, EntryResult } from './entry-result.js';
import {
  cachedEntry,
  entryKey,
  FileHashes,
  fingerprint,
  readCache,
  reusable,
  writeCache,
  type CachedEntry,
  type CompileSession,
} from './compile-cache.js';
import { DiagnosticError, groupDiagnostics, hasErrors, type Diagnostic } from '../core/diagnostics.js';
import { MANIFEST_FILE, manifestText, type Manifest, type SkippedEntry } from './layout.js';
import { setAsideInvalid, withSkipped } from './keep-going.js';
import { setDefinitionTimeout } from './definition-limit.js';
import { DEFAULT_DEFINITION_TIMEOUT_S } from './config.js';
import { prune } from './prune.js';
import { outputTarget, removeLeftovers } from './output-folder.js';
import { placeApartInCase } from './case-apart.js';
import type { RenderOptions } from './render-output.js';
import type { RuleSettings } from '../check/rule-settings.js';
import { checkAcross, inputSetPipeline, type AcrossRecord } from '../check/check-across.js';
import { keyId, type ResourceKey } from '../catalog/resource-key.js';
import { planBatches, runBatches } from './worker-pool.js';
import { Spool, spoolFolder, WriteBehind, type WrittenBehind } from './spool.js';
import {
  AS_IT_IS,
  planOutput,
  readManifest,
  writeOutput,
  type OutputChanges,
  type OutputContent,
} from './write-output.js';

export interface CompileOptions {
  /** Files or globs of TypeScript definition files. */
  readonly entries: readonly string[];
  /** The entry files `resolveEntries` already found for `entries`: they are not globbed again. */
  readonly files?: readonly string[];
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
  /**
   * The entries are a part of the project (files named on the command line, not the config's include): outputs
   * of other sources stay, and only the outputs of these entries and of deleted sources are pruned (prune.ts).
   */
  readonly partial?: boolean;
  /**
   * Told every file the definitions were made of (entries and their local imports, absolute) once they are
   * loaded, before the checks: also when the compile then fails on a diagnostic. `compile --watch` watches them.
   */
  readonly onInputs?: (files: readonly string[]) => void;
  /** Kept by a long-running caller (`compile --watch`) across compiles: see CompileSession. */
  readonly session?: CompileSession;
  /**
   * Write every valid document and skip the entries with errors and what depends on them (keep-going.ts), listed
   * in the manifest and the result; their errors are returned in `diagnostics` instead of thrown.
   */
  readonly keepGoing?: boolean;
  /** Seconds each bundle of definitions may take to evaluate (definition-limit.ts); default 60, 0: no limit. */
  readonly definitionTimeout?: number;
}

/** A document of the output: its identity, where it came from and where it goes. */
interface CompiledDocument {
  readonly kind: ResourceKey['kind'];
  readonly key: ResourceKey;
  /** Source file, relative to the working directory. */
  readonly file: string;
  readonly exportName: string;
  /** Its path inside the output folder. */
  readonly output: string;
  readonly sha256: string;
  /** Not built again: its entry file and imports are unchanged since the last compile. */
  readonly reused: boolean;
}

export interface CompileResult {
  /** Every document of the output, in the order of their entry files. */
  readonly documents: readonly CompiledDocument[];
  readonly manifest: Manifest;
  readonly changes: OutputChanges;
  /** Warnings; errors are thrown as a DiagnosticError (with `keepGoing`, those of the skipped entries are here). */
  readonly diagnostics: readonly Diagnostic[];
  /** What `keepGoing` did not write, and why. */
  readonly skipped: readonly SkippedEntry[];
  /** What `--debug` shows: entries the cache cannot keep, and why. */
  readonly notes: readonly string[];
  /** Every file the definitions were made of, absolute (see `onInputs`). */
  readonly inputs: readonly string[];
}

/**
 * Loads, validates and emits: nothing is written unless every document is valid (with `keepGoing`, the valid ones
 * are). Each entry file gives one
 * EntryResult, made in this thread, in a worker thread, or read from the cache; then one check across entries,
 * by key. When that finds a problem, only the entries it involves are built again, together in this thread,
 * so that its diagnostics name the builder calls on both sides.
 */
export async function compile(options: CompileOptions): Promise<CompileResult> {
  // What a killed compile left beside the folder (or inside a mount point) goes first: it is never the user's.
  if (!options.check) removeLeftovers(outputTarget(options.outDir));
  setDefinitionTimeout(options.definitionTimeout ?? DEFAULT_DEFINITION_TIMEOUT_S);
  const spool = new Spool(spoolFolder(options.outDir));
  // The texts of what this thread builds are written to the spool while it builds (unless nothing is written).
  const writer = options.check ? undefined : new WriteBehind(spool.folder);
  try {
    return await compileWith(options, spool, writer);
  } finally {
    await writer?.close();
    spool.remove();
  }
}

async function compileWith(
  options: CompileOptions,
  spool: Spool,
  writer: WriteBehind | undefined,
): Promise<CompileResult> {
  const files = options.files ?? (await resolveEntries(options.entries));
  const useCache = options.cache !== false && !process.env.PIPEWRIGHT_NO_CACHE;
  const { session } = options;
  session?.begin();
  const printed = { schemaModeline: options.schemaModeline ?? false, rules: options.rules ?? {} };
  const print = useCache
    ? await (session ? session.fingerprint(options.outDir, printed) : fingerprint(options.outDir, printed))
    : '';
  const hashes = session ? session.hashes() : new FileHashes();
  const render: RenderOptions = {
    outDir: options.outDir,
    ...(options.schemaModeline ? { schemaModeline: options.schemaModeline } : {}),
    ...(options.rules ? { rules: options.rules } : {}),
  };
  // Entries whose files and outputs are unchanged since the last compile are not loaded again.
  const results = new Map<string, EntryResult>();
  // Each entry's cache key (its path made relative, with `/`), worked out once: 1000 files cost 50 ms a time.
  const keys = new Map(files.map((file) => [file, entryKey(file)]));
  let cached: Record<string, CachedEntry> = {};
  if (useCache) {
    cached = session?.cached(options.outDir, print) ?? (await readCache(options.outDir, print));
    for (const file of files) {
      const entry = cached[keys.get(file)!];
      const found = entry && reusable(keys.get(file)!, entry, options.outDir, hashes, session?.read);
      if (found) results.set(keys.get(file)!, found);
    }
  }
  const reused = new Set(results.keys());
  const fresh = files.filter((file) => !reused.has(keys.get(file)!));
  if (fresh.length > 0) {
    // Pipelines keep their runtime inputs only where an input set may fill them: one kept from the last compile, or one a fresh file names.
    const keepInputs =
      [...results.values()].some((result) => result.documents.some((d) => inputSetPipeline(d.key))) ||
      mayDefineInputSets(
        fresh.map((file) => resolve(file)),
        (file) => hashes.contents(file),
      );
    for (const result of await buildFresh(fresh, { ...render, keepInputs }, spool, writer, options.keepGoing))
      results.set(result.file, result);
  }
  // The documents the writer took get their hashes, and their spool files when it wrote them.
  const behind = (await writer?.flush()) ?? new Map<EntryDocument, WrittenBehind>();
  if (behind.size > 0) for (const [file, result] of results) results.set(file, withWritten(result, behind));
  const ordered = () => [...keys.values()].flatMap((key) => results.get(key) ?? []);
  const inputs = inputFiles(ordered());
  options.onInputs?.(inputs);
  if (ordered().every((result) => result.documents.length === 0))
    throw new DiagnosticError([
      {
        code: 'no-resources',
        severity: 'error',
        message: `no resources exported from ${files.join(', ')}`,
        path: [],
        hint: 'export the builders to compile, e.g. export const deploy = pipeline({...})',
      },
    ]);
  const previous = await readManifest(options.outDir);
  const scope = { sources: [...keys.values()], whole: !options.partial, outDir: options.outDir };
  const made = () => ordered().flatMap((result) => result.documents.map((d) => d.output));
  // A compile of some files keeps the others' outputs: references to their resources resolve.
  const kept = options.partial ? prune(previous, made(), scope).kept : [];
  const involved = involvedAcross(ordered(), reused, options.rules, kept);
  let across: Diagnostic[] = [];
  if (involved.size > 0) {
    const otherKeys = [
      ...ordered().flatMap((result) => (involved.has(result.file) ? [] : result.documents.map((d) => d.key))),
      ...kept,
    ];
    // In the order of the entry files, as a compile from nothing meets them (the first of a duplicate is "the other one").
    const rebuilt = await rebuildTogether(
      [...keys.values()].filter((file) => involved.has(file)),
      render,
      otherKeys,
    );
    for (const result of rebuilt.results) {
      results.set(result.file, result);
      reused.delete(result.file);
    }
    across = rebuilt.across;
  }
  const diagnostics = [...ordered().flatMap((result) => result.diagnostics), ...across];
  let skipped: readonly SkippedEntry[] = [];
  if (hasErrors(diagnostics)) {
    const aside = options.keepGoing ? setAsideInvalid(ordered(), diagnostics, previous) : undefined;
    if (!aside) throw new DiagnosticError(groupDiagnostics(diagnostics));
    for (const result of aside.results) results.set(result.file, result);
    skipped = aside.skipped;
  }
  // Paths that differ only in case are one file on macOS and Windows: such outputs are set apart (case-apart.ts).
  const apart = placeApartInCase(ordered(), kept, options.outDir);
  for (const result of apart.results) results.set(result.file, result);
  const all = ordered();
  const outputs = new Map<string, OutputContent>();
  for (const result of all)
    for (const d of result.documents)
      outputs.set(d.output.file, d.spooled ? { spooled: d.spooled } : d.asItIs ? AS_IT_IS : d.text);
  for (const moved of apart.kept) outputs.set(moved.entry.file, moved.text);
  const pruning = withSkipped(prune(previous, [...made(), ...apart.kept.map((moved) => moved.entry)], scope), skipped);
  const { manifest } = pruning;
  const changes =
    (fresh.length === 0 &&
      involved.size === 0 &&
      (await unchangedOutput(
        options.outDir,
        outputs,
        manifest,
        pruning.kept.map((entry) => entry.file),
      ))) ||
    (options.check
      ? planOutput(options.outDir, outputs, pruning, session?.read)
      : writeOutput(options.outDir, outputs, pruning, session?.read));
  const notes: string[] = [];
  // Warnings are not kept in the cache, so a compile that had some leaves none: the next one repeats them.
  if (useCache && !options.check && diagnostics.length === 0) {
    // A compile of some files keeps the others' records: the next compile of the whole project reuses them.
    const compiled = new Set(keys.values());
    const record: Record<string, CachedEntry> = options.partial
      ? Object.fromEntries(Object.entries(cached).filter(([file]) => !compiled.has(file)))
      : {};
    const filled = filledPipelines(all);
    for (const result of all) {
      if (result.uncacheable) {
        notes.push(`not cached: ${result.file}, compiled every time: ${result.uncacheable}`);
        continue;
      }
      const entry = cachedEntry(result, hashes, filled);
      if (entry) record[result.file] = entry;
    }
    await writeCache(options.outDir, print, record);
    session?.remember(options.outDir, print, record);
  }
  const documents = all.flatMap((result) =>
    result.documents.map((d) => compiledDocument(result, d, reused.has(result.file))),
  );
  return { documents, manifest, changes, diagnostics: groupDiagnostics(diagnostics), skipped, notes, inputs };
}

/** The result with the writer's hashes and spool files in the documents it took (the others as they are). */
function withWritten(result: EntryResult, behind: ReadonlyMap<EntryDocument, WrittenBehind>): EntryResult {
  if (!result.documents.some((d) => behind.has(d))) return result;
  const documents = result.documents.map((d): EntryDocument => {
    const written = behind.get(d);
    return written
      ? {
          ...d,
          output: { ...d.output, sha256: written.sha256 },
          ...(written.spooled ? { spooled: written.spooled } : {}),
        }
      : d;
  });
  return { ...result, documents };
}

/** Fresh entries from which their texts are written by a thread of their own while this one builds (spool.ts). */
const WRITE_BEHIND_FROM = 64;

/** The fresh entries' results: in worker-thread batches from 2000 files (worker-pool.ts, texts spooled), else in this thread. */
async function buildFresh(
  fresh: readonly string[],
  render: RenderOptions,
  spool: Spool,
  writer: WriteBehind | undefined,
  keepGoing = false,
): Promise<EntryResult[]> {
  try {
    const batches = planBatches(fresh);
    if (batches) return await runBatches(batches, render, spool.folder);
    // A thread of its own pays from a few chunks on; a watch recompiling a file or two would wait for it to start.
    return await buildEntries(fresh, render, fresh.length >= WRITE_BEHIND_FROM ? writer : undefined);
  } catch (error) {
    if (!keepGoing || !(error instanceof DiagnosticError)) throw error;
    return buildApart(fresh, render);
  }
}

/**
 * `--keep-going` after a bundle failed to load (a syntax error, a definition that threw): each entry on its own,
 * so the one that fails is an entry with errors and no documents, and the others are built.
 */
async function buildApart(fresh: readonly string[], render: RenderOptions): Promise<EntryResult[]> {
  const results: EntryResult[] = [];
  for (const file of fresh)
    try {
      results.push(...(await buildEntries([file], render)));
    } catch (error) {
      if (!(error instanceof DiagnosticError)) throw error;
      const diagnostics = error.diagnostics.some((d) => d.severity === 'error')
        ? error.diagnostics
        : [
            ...error.diagnostics,
            {
              code: 'definition-threw' as const,
              severity: 'error' as const,
              message: `${file} could not be loaded`,
              path: [],
            },
          ];
      results.push({
        file: entryKey(file),
        documents: [],
        diagnostics,
        dependencies: [resolve(file)],
        uncacheable: 'it did not load',
      });
    }
  return results;
}

const compiledDocument = (result: EntryResult, d: EntryDocument, reused: boolean): CompiledDocument => ({
  kind: d.kind,
  key: d.key,
  file: result.file,
  exportName: d.exportName,
  output: d.output.file,
  sha256: d.output.sha256,
  reused,
});

/** The entry files and every local file they import, absolute, sorted. */
function inputFiles(results: readonly EntryResult[]): string[] {
  const files = new Set<string>();
  for (const result of results) for (const file of result.dependencies) files.add(file);
  return [...files].sort();
}

/**
 * The check across entries (check/check-across.ts) on what each entry result keeps of its documents, whether
 * built in this thread, in a worker or read from the cache: the entries whose documents share an identity, whose
 * builder references do not resolve among all documents or are out of scope, or whose input set does not fit its
 * pipeline; references resolve among the outputs `kept` of sources not compiled, too. Empty when all is well; else those entries are built again together, to say it at the builder calls.
 */
function involvedAcross(
  results: readonly EntryResult[],
  reused: ReadonlySet<string>,
  settings: RuleSettings | undefined,
  kept: readonly ResourceKey[],
): Set<string> {
  const records = results.flatMap((result) =>
    result.documents.map((document): AcrossRecord<string> => {
      const inputs = document.runtimeInputs;
      return {
        key: document.key,
        place: result.file,
        ...(document.inputSet !== undefined ? { document: document.inputSet } : {}),
        references: document.references.map((reference) => ({
          ...reference,
          by: 'builder' as const,
          place: result.file,
        })),
        ...(inputs ? { runtimeInputs: () => inputs } : {}),
      };
    }),
  );
  const involved = new Set<string>();
  for (const finding of checkAcross(records, ENTRY_WORDS, { settings, known: kept }))
    for (const record of finding.involved) involved.add(record.place);
  for (const file of unknownFits(records, reused)) involved.add(file);
  return involved;
}

/** Hints name nothing here: what is found is said again, at the builder calls, once the entries are built together. */
const ENTRY_WORDS = { first: (file: string) => file, targetDefined: (file: string) => file };

/**
 * The entries of an input set and of its pipeline when the pipeline's inputs are not known (reused from a cache
 * that kept none: no input set filled it last time) and either entry is new: built again together, they are checked.
 */
function unknownFits(records: ReadonlyArray<AcrossRecord<string>>, reused: ReadonlySet<string>): string[] {
  // A pipeline defined twice (null here) is reported as such, and its input sets are not checked.
  const pipelines = new Map<string, AcrossRecord<string> | null>();
  for (const record of records)
    if (record.key.kind === 'pipeline')
      pipelines.set(keyId(record.key), pipelines.has(keyId(record.key)) ? null : record);
  return records.flatMap((inputSet) => {
    const key = inputSetPipeline(inputSet.key);
    const pipeline = key && pipelines.get(keyId(key));
    if (!pipeline || pipeline.runtimeInputs || (reused.has(inputSet.place) && reused.has(pipeline.place))) return [];
    return [inputSet.place, pipeline.place];
  });
}

/** The pipelines input sets fill, by `keyId`: the cache keeps their runtime inputs. */
function filledPipelines(results: readonly EntryResult[]): Set<string> {
  const filled = new Set<string>();
  for (const result of results)
    for (const document of result.documents) {
      const pipeline = inputSetPipeline(document.key);
      if (pipeline) filled.add(keyId(pipeline));
    }
  return filled;
}

/**
 * When every output was reused (each checked against its sha256 in the folder) and the manifest on disk
 * is the same text, writing would rebuild an identical tree: say so without reading every file again.
 */
async function unchangedOutput(
  outDir: string,
  outputs: ReadonlyMap<string, OutputContent>,
  manifest: Manifest,
  kept: readonly string[],
): Promise<OutputChanges | undefined> {
  const existing = await readFile(join(outDir, MANIFEST_FILE), 'utf8').catch(() => undefined);
  if (existing !== manifestText(manifest)) return undefined;
  const unchanged = [...outputs.keys(), MANIFEST_FILE].sort((a, b) => (a < b ? -1 : 1));
  return { written: [], added: [], changed: [], unchanged, removed: [], removals: [], kept };
}
