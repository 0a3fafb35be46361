import { buildEach, referenceSummaries, type ReferenceSummary } from './build-documents.js';
import { collectResources } from './collect.js';
import { hasErrors, type Diagnostic } from './diagnostics.js';
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

/** What the compile cache needs to know of a loaded entry file. */
export type ModuleInfo = Omit<LoadedModule, 'exports'>;

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
  const modules = await loadModules(files);
  const { documents, diagnostics } = buildEach(collectResources(modules));
  return {
    documents: documents.map(({ kind, key, file, exportName }) => ({ kind, key, file, exportName })),
    rendered: hasErrors(diagnostics) ? [] : documents.map((built) => renderDocument(built, options)),
    diagnostics,
    references: referenceSummaries(documents),
    modules: modules.map(({ file, dependencies, impure }) => ({ file, dependencies, impure })),
  };
}
