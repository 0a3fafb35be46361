import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outputPathOf } from '../catalog/resource-key.js';
import type { EntryResult } from './entry-result.js';
import type { ManifestEntry } from './layout.js';

const EXTENSION = '.yaml';

/**
 * Where outputs whose layout paths differ only in case go instead: `ci.yaml` and `CI.yaml` (pipelines `ci` and
 * `CI` of one project, two resources to the platform) are one file on macOS and Windows, and one would overwrite
 * the other. In each group of paths equal but for case, the one that sorts first by code unit (`CI.yaml` before
 * `ci.yaml`) keeps its path and each other takes the first free `-2`, `-3`, ... before `.yaml` (`ci-2.yaml`):
 * no identifier holds a `-`, so the name is never another resource's; a template's version label may, so every
 * candidate is checked against every path, whatever the case. The answer depends on the set of paths alone, so
 * the same outputs get the same files on every machine, and whichever files a compile was given.
 */
export function pathsApartInCase(paths: Iterable<string>): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const path of new Set(paths)) {
    const folded = path.toLowerCase();
    groups.set(folded, [...(groups.get(folded) ?? []), path]);
  }
  const taken = new Set(groups.keys());
  const moved = new Map<string, string>();
  for (const folded of [...groups.keys()].sort()) {
    const members = groups.get(folded)!;
    if (members.length < 2) continue;
    for (const path of members.sort().slice(1)) {
      const base = path.endsWith(EXTENSION) ? path.slice(0, -EXTENSION.length) : path;
      let n = 2;
      while (taken.has(`${base}-${n}${EXTENSION}`.toLowerCase())) n++;
      const free = `${base}-${n}${EXTENSION}`;
      taken.add(free.toLowerCase());
      moved.set(path, free);
    }
  }
  return moved;
}

/** A kept output (of a source not compiled) that goes to another path: its new entry and its text. */
export interface MovedOutput {
  readonly entry: ManifestEntry;
  readonly text: string;
}

/**
 * Every output at its path (`outputPathOf`, or the one `pathsApartInCase` gives it among all outputs of the
 * folder, `kept` ones too). An output that moves from where it is (a collision in case came or went) carries its
 * text: a reused one's is read from its old file, which its entry's sha256 vouches for.
 */
export function placeApartInCase(
  results: readonly EntryResult[],
  kept: readonly ManifestEntry[],
  outDir: string,
): { results: EntryResult[]; kept: MovedOutput[] } {
  const moved = pathsApartInCase([
    ...results.flatMap((result) => result.documents.map((d) => outputPathOf(d.key))),
    ...kept.map(outputPathOf),
  ]);
  const pathOf = (entry: Parameters<typeof outputPathOf>[0]) => {
    const path = outputPathOf(entry);
    return moved.get(path) ?? path;
  };
  const placed = results.map((result): EntryResult => {
    if (result.documents.every((d) => pathOf(d.key) === d.output.file)) return result;
    const documents = result.documents.map((d) => {
      const file = pathOf(d.key);
      if (file === d.output.file) return d;
      const { outputStat: _stat, asItIs, ...rest } = d;
      return {
        ...rest,
        output: { ...d.output, file },
        ...(asItIs ? { text: readFileSync(join(outDir, d.output.file), 'utf8') } : {}),
      };
    });
    return { ...result, documents };
  });
  const movedKept = kept.flatMap((entry) => {
    const file = pathOf(entry);
    return file === entry.file
      ? []
      : [{ entry: { ...entry, file }, text: readFileSync(join(outDir, entry.file), 'utf8') }];
  });
  return { results: placed, kept: movedKept };
}
