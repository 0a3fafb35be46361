import { buildEach, referenceSummaries, type ReferenceSummary } from './build-documents.js';
import { collectResources } from './collect.js';
import { hasErrors, type Diagnostic } from './diagnostics.js';
import { entryEnvironment, recordEnvironment, type EnvironmentReads } from './environment-reads.js';
import { loadModules, type LoadedModule } from './load-modules.js';
import { renderDocument, type RenderedDocument, type RenderOptions } from './render-output.js';
import type { ResourceKey } from './validate.js';
import type { ResourceKind } from '../schema/index.js';

/** A document built in a batch, known by its identity: the builder and its document stay behind. */
export interface BatchDocument {
  readonly kind: ResourceKind;
  readonly key: ResourceKey;
  /** Source file, relative to the working directory. */
  readonly file: string;
  readonly exportName: string;
}

/**
 * What the compile cache needs to know of a loaded entry file: its files, and the environment variables it and
 * they read (name -> value, null when unset), or why it cannot be cached.
 */
export type ModuleInfo = Omit<LoadedModule, 'exports'> & { readonly environment?: Readonly<Record<string, string | null>> };

/** Each module's cache information, the environment reads made while loading and building it included. */
export function moduleInfo(modules: readonly LoadedModule[], reads: EnvironmentReads): ModuleInfo[] {
  return modules.map(({ file, dependencies, impure, uncacheable }) => {
    if (impure) return { file, dependencies, impure, ...(uncacheable ? { uncacheable } : {}) };
    const found = entryEnvironment(reads, dependencies);
    return 'uncacheable' in found ? { file, dependencies, impure: true, uncacheable: found.uncacheable } : { file, dependencies, impure, environment: found.environment };
  });
}

/** A batch's results as plain data, so they can cross from a worker thread. */
export interface BatchResult {
  readonly documents: BatchDocument[];
  /** Empty when a document of the batch has an error: nothing of it will be written. */
  readonly rendered: RenderedDocument[];
  /** Per-document findings; what spans documents is checked by the caller from `documents` and `references`. */
  readonly diagnostics: Diagnostic[];
  readonly references: ReferenceSummary[];
  readonly modules: ModuleInfo[];
}

/** Loads, builds, validates and renders some entry files; throws a DiagnosticError when they cannot be loaded. */
export async function buildBatch(files: readonly string[], options: RenderOptions): Promise<BatchResult> {
  const { result, reads } = await recordEnvironment(async () => {
    const modules = await loadModules(files);
    const { documents, diagnostics } = buildEach(collectResources(modules), options.rules);
    const rendered = hasErrors(diagnostics) ? [] : documents.map((built) => renderDocument(built, options));
    return { modules, documents, diagnostics, rendered };
  });
  const { modules, documents, diagnostics, rendered } = result;
  return {
    documents: documents.map(({ kind, key, file, exportName }) => ({ kind, key, file, exportName })),
    rendered,
    diagnostics,
    references: referenceSummaries(documents),
    modules: moduleInfo(modules, reads),
  };
}
