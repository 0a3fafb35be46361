import {
  buildEach,
  checkBuiltAcross,
  referenceTargets,
  type BuiltDocument,
  type FoundResource,
} from './build-documents.js';
import { collectResources } from './collect.js';
import { hasErrors, type Diagnostic } from '../core/diagnostics.js';
import { entryEnvironment, recordEnvironment, type EnvironmentReads } from './environment-reads.js';
import { withoutCallSites } from '../core/source-site.js';
import { loadInChunks, loadModules, withBundleMaps, type LoadedModule } from './load-modules.js';
import { renderDocument, unrenderedDocument, type RenderOptions } from './render-output.js';
import type { WriteBehind } from './spool.js';
import type { EntryDocument, EntryResult } from './entry-result.js';
import type { ResourceKey } from '../catalog/resource-key.js';
import { runtimeInputs } from '../check/rules-input-sets.js';

/** The resources each module exports, by file: a builder exported by several entries counts at its first. */
function foundByFile(modules: readonly LoadedModule[]): Map<string, FoundResource[]> {
  const byFile = new Map<string, FoundResource[]>(modules.map((m) => [m.file, []]));
  for (const found of collectResources(modules)) byFile.get(found.file)!.push(found);
  return byFile;
}

/** A built entry with its documents rendered: the document objects and their build records can be collected. */
interface RenderedEntry {
  readonly module: LoadedModule;
  readonly documents: EntryDocument[];
  readonly diagnostics: Diagnostic[];
}

/**
 * An entry's documents as texts and manifest entries. With a `writer`, an entry without diagnostics is sent to it
 * as soon as it is rendered, and the writer hashes its texts; the others are hashed here.
 */
function renderEntry(
  module: LoadedModule,
  { documents, diagnostics }: { documents: BuiltDocument[]; diagnostics: Diagnostic[] },
  render: RenderOptions,
  writer?: WriteBehind,
): RenderedEntry {
  const failed = hasErrors(diagnostics);
  const sent = writer !== undefined && diagnostics.length === 0;
  const rendered = documents.map((built): EntryDocument => {
    const { text, entry } = failed ? unrenderedDocument(built) : renderDocument(built, render, !sent);
    return {
      kind: built.kind,
      key: built.key,
      exportName: built.exportName,
      output: entry,
      text,
      references: referenceTargets(built),
      ...acrossNeeds(built),
    };
  });
  if (sent) for (const document of rendered) writer.send(document);
  return { module, documents: rendered, diagnostics };
}

/**
 * What the check across entries needs of a document beside its key and references (see EntryDocument): a
 * pipeline's runtime inputs when it kept them (without, an input set that fills it has both built again).
 */
function acrossNeeds(built: BuiltDocument): Pick<EntryDocument, 'runtimeInputs' | 'inputSet'> {
  if (built.kind === 'inputSet') return { inputSet: built.document };
  return built.kind === 'pipeline' && built.inputs
    ? { runtimeInputs: runtimeInputs(built.document, built.inputs) }
    : {};
}

/** The entry's result, once every entry has loaded and built: a library's environment reads count for all that import it. */
function entryResult({ module, documents, diagnostics }: RenderedEntry, reads: EnvironmentReads): EntryResult {
  const { file, dependencies, impure, uncacheable } = module;
  const cache = impure
    ? { uncacheable: uncacheable ?? 'it imports something the cache cannot see into' }
    : entryEnvironment(reads, dependencies);
  return { file, documents, diagnostics, dependencies, ...cache };
}

/**
 * Loads some entry files in one bundle and makes each one's EntryResult; throws a DiagnosticError when they
 * cannot be loaded. Environment reads are recorded while they load and build (in whatever thread runs this).
 */
export async function buildEntries(
  files: readonly string[],
  render: RenderOptions,
  writer?: WriteBehind,
): Promise<EntryResult[]> {
  return (await build(files, render, undefined, writer)).results;
}

/**
 * The entries a problem across entries involves, loaded again together in this thread: their results, and the
 * checks across their documents located at the builder calls (`otherKeys`: the identities of every other
 * entry, for references). One bundle, so a builder that two of them export is one resource, counted once.
 */
export const rebuildTogether = (files: readonly string[], render: RenderOptions, otherKeys: readonly ResourceKey[]) =>
  build(files, render, otherKeys);

async function build(
  files: readonly string[],
  render: RenderOptions,
  otherKeys?: readonly ResourceKey[],
  writer?: WriteBehind,
): Promise<{ results: EntryResult[]; across: Diagnostic[] }> {
  // Call sites and environment reads are located through the bundles' source maps while the entries are built.
  const { result, reads } = await withBundleMaps(() =>
    recordEnvironment(async () => {
      // The checks across entries need the built documents of one bundle (a builder two entries export is one resource).
      if (otherKeys) {
        const modules = await loadModules(files);
        const byFile = foundByFile(modules);
        const built = modules.map((module) => ({ module, ...buildEach(byFile.get(module.file)!, render.rules) }));
        return {
          entries: built.map(({ module, ...made }) => renderEntry(module, made, render)),
          across: checkBuiltAcross(
            built.flatMap((b) => b.documents),
            otherKeys,
            render.rules,
          ),
        };
      }
      // Otherwise chunk by chunk, while esbuild bundles the next; each entry is rendered as soon as it is built,
      // first without call sites. Those with something to say are built again, together, with them: so it is said
      // at the builder calls, and all the others never pay for recording where each builder was called.
      const entries: RenderedEntry[] = [];
      // Texts are written by the writer while the next chunk builds; an entry with something to say is built again
      // below, without it.
      const buildAll = (modules: readonly LoadedModule[], to?: WriteBehind) => {
        const byFile = foundByFile(modules);
        return modules.map((module) =>
          renderEntry(
            module,
            buildEach(byFile.get(module.file)!, render.rules, render.keepInputs !== false),
            render,
            to,
          ),
        );
      };
      await withoutCallSites(async () => {
        for await (const modules of loadInChunks(files)) {
          entries.push(...buildAll(modules, writer));
          writer?.post();
        }
      });
      const again = entries.flatMap((entry, index) => (entry.diagnostics.length > 0 ? [index] : []));
      if (again.length > 0)
        buildAll(await loadModules(again.map((index) => entries[index]!.module.file))).forEach(
          (entry, k) => (entries[again[k]!] = entry),
        );
      return { entries, across: [] };
    }),
  );
  return { results: result.entries.map((entry) => entryResult(entry, reads)), across: result.across };
}
