import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { keyId } from '../catalog/resource-key.js';
import { createManifest, type Manifest, type ManifestEntry } from './layout.js';

/**
 * Why an output of the previous compile goes: its source was compiled and no longer makes it, its source file is
 * gone, (in a compile of the whole project) its source is no longer among the entries, or its resource is now
 * written to another path (`movedTo`: a path that differs from another only in case came or went, case-apart.ts),
 * or `compile --keep-going` skipped it (keep-going.ts: the manifest lists it as skipped).
 */
type RemovalReason = 'no-longer-exported' | 'source-deleted' | 'source-not-included' | 'moved' | 'skipped';

export interface Removal {
  /** Path inside the output folder, with `/`. */
  readonly file: string;
  /** The definition file the previous manifest names for it. */
  readonly source: string;
  readonly reason: RemovalReason;
  /** Where its resource is written now, when it `moved`. */
  readonly movedTo?: string;
}

/** The manifest of a compile and what it does to the previous one's outputs. */
export interface Pruning {
  /** The outputs of this compile and those kept: every output in the folder afterwards, with its source. */
  readonly manifest: Manifest;
  /** Outputs of sources this compile did not read, carried over as they are (their resources still count). */
  readonly kept: readonly ManifestEntry[];
  /** Outputs of the previous compile that go, with why. */
  readonly removals: readonly Removal[];
}

export interface PruneScope {
  /** The entry files compiled, as manifest entries name sources (relative to the working directory, with `/`). */
  readonly sources: readonly string[];
  /**
   * Whether they are the whole project (the config's `include`): then whatever they no longer make goes. When they
   * are a part (files named on the command line), only their own outputs and those of deleted sources go.
   */
  readonly whole: boolean;
  readonly outDir: string;
}

/**
 * The new manifest from the documents made and the previous manifest. An output this compile makes replaces
 * the old entry of that file (whichever source had it) and the old entry of its resource at another path. Every
 * other old entry is removed when its source was compiled (it no longer makes it), when its source file is gone,
 * or when the compile is of the whole project; otherwise it is kept, unless its file has gone from the folder
 * (the manifest only lists what is there).
 */
export function prune(previous: Manifest | undefined, made: readonly ManifestEntry[], scope: PruneScope): Pruning {
  const produced = new Set(made.map((entry) => entry.file));
  const fileOf = new Map(made.map((entry) => [keyId(entry), entry.file]));
  const compiled = new Set(scope.sources);
  const kept: ManifestEntry[] = [];
  const removals: Removal[] = [];
  for (const entry of previous?.files ?? []) {
    if (produced.has(entry.file)) continue;
    const movedTo = fileOf.get(keyId(entry));
    const reason: RemovalReason | undefined =
      movedTo !== undefined
        ? 'moved'
        : compiled.has(entry.source)
          ? 'no-longer-exported'
          : !existsSync(entry.source)
            ? 'source-deleted'
            : scope.whole
              ? 'source-not-included'
              : undefined;
    if (reason)
      removals.push({ file: entry.file, source: entry.source, reason, ...(movedTo === undefined ? {} : { movedTo }) });
    else if (existsSync(join(scope.outDir, entry.file))) kept.push(entry);
  }
  return {
    manifest: createManifest([...made, ...kept]),
    kept: kept.sort((a, b) => (a.file < b.file ? -1 : 1)),
    removals: removals.sort((a, b) => (a.file < b.file ? -1 : 1)),
  };
}
