import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnosticOf, type Diagnostic } from '../core/diagnostics.js';
import { confinedPathOrThrow } from '../core/confined-path.js';
import { sha256 } from '../core/hash.js';

/**
 * Generated files written into a folder the user also edits (pull's project, import's output): what a new run
 * does to each, from the hash of what was last written, so an edit by hand is kept, never silently overwritten.
 */

/** What happened to one generated file. */
export interface FileOutcome {
  readonly path: string;
  readonly outcome: 'created' | 'updated' | 'unchanged' | 'kept' | 'overwritten';
  /** `kept` and `overwritten`: the lines that differ (the user's, then the platform's). */
  readonly diff?: string;
}

/**
 * The lines that differ between two texts, as `-` (the first's) and `+` (the second's) lines under `@@ line N`
 * headers: a longest-common-subsequence diff of the lines, at most `maxLines` of them shown. Modules are small;
 * past 4000 lines a side only the changed range between the common start and end is shown.
 */
export function shortDiff(mine: string, theirs: string, maxLines = 20): string {
  const a = mine.split('\n');
  const b = theirs.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  const lines: Array<{ sign: '-' | '+'; at: number; text: string }> = [];
  if (x.length > 4000 || y.length > 4000) {
    x.forEach((text, i) => lines.push({ sign: '-', at: start + i, text }));
    y.forEach((text, i) => lines.push({ sign: '+', at: start + i, text }));
  } else {
    // lengths[i][j]: the longest common subsequence of x[i..] and y[j..].
    const lengths = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
    for (let i = x.length - 1; i >= 0; i--)
      for (let j = y.length - 1; j >= 0; j--)
        lengths[i]![j] =
          x[i] === y[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) {
        i++;
        j++;
      } else if (j < y.length && (i === x.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!))
        lines.push({ sign: '+', at: start + i, text: y[j++]! });
      else lines.push({ sign: '-', at: start + i, text: x[i++]! });
    }
  }
  const out: string[] = [];
  let last = -2;
  for (const line of lines.slice(0, maxLines)) {
    if (line.at > last + 1) out.push(`@@ line ${line.at + 1}`);
    last = line.sign === '-' ? line.at : line.at - 1;
    out.push(`${line.sign} ${line.text}`);
  }
  if (lines.length > maxLines)
    out.push(`... ${lines.length - maxLines} more changed line${lines.length - maxLines === 1 ? '' : 's'}`);
  return out.join('\n');
}

/** A file to put in place, with the sha256 of what is there now (null: nothing), so a switch can check it. */
export interface PlannedWrite {
  readonly path: string;
  readonly text: string;
  readonly before: string | null;
}

/**
 * Decides what writing generated files into a folder does to each: a file written before (its sha256 is in
 * `written`, the hashes of what was last written) and nobody changed since is replaced when the new text differs; a
 * file someone edited (its bytes are not what was last written) is kept unless `force`; an identical one is not
 * touched. Nothing is written here. Pull and import both plan with it.
 */
export function planWrites(
  dir: string,
  files: ReadonlyArray<{ path: string; text: string }>,
  written: Readonly<Record<string, string>> | undefined,
  force: boolean,
): { outcomes: FileOutcome[]; writes: PlannedWrite[] } {
  const outcomes: FileOutcome[] = [];
  const writes: PlannedWrite[] = [];
  // Every target proved inside the project before the first write (no link in it leads out).
  const targets = files.map(({ path }) => confinedPathOrThrow(dir, path));
  for (const [at, { path, text }] of files.entries()) {
    const target = targets[at]!;
    const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    if (current === text) {
      outcomes.push({ path, outcome: 'unchanged' });
      continue;
    }
    const ours = current !== undefined && written?.[path] === sha256(current);
    if (current !== undefined && !ours && !force) {
      outcomes.push({ path, outcome: 'kept', diff: shortDiff(current, text) });
      continue;
    }
    writes.push({ path, text, before: current === undefined ? null : sha256(current) });
    outcomes.push(
      current === undefined
        ? { path, outcome: 'created' }
        : ours
          ? { path, outcome: 'updated' }
          : { path, outcome: 'overwritten', diff: shortDiff(current, text) },
    );
  }
  return { outcomes, writes };
}

/** import's record of what it wrote into a folder: each file's sha256, relative to the folder. */
const IMPORT_STATE_FILE = 'pipewright.import.json';

/**
 * The hashes of what the last import wrote into `dir`. The file is data read back: its paths are only looked up,
 * never written to or removed, so a tampered one can at worst make an edited module count as edited.
 */
export function readWrittenHashes(dir: string): Readonly<Record<string, string>> | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, IMPORT_STATE_FILE), 'utf8')) as {
      generator?: unknown;
      files?: unknown;
    };
    return parsed.generator === 'pipewright-import' && parsed.files !== null && typeof parsed.files === 'object'
      ? (parsed.files as Record<string, string>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The record after this import: a kept file keeps the hash last written, so it counts as edited until replaced. */
export function writtenHashesFile(
  files: ReadonlyArray<{ path: string; text: string }>,
  outcomes: readonly FileOutcome[],
  previous: Readonly<Record<string, string>> | undefined,
): { path: string; text: string } {
  const kept = new Set(outcomes.filter((o) => o.outcome === 'kept').map((o) => o.path));
  const hashes: Record<string, string> = {};
  for (const [path, hash] of Object.entries(previous ?? {})) if (typeof hash === 'string') hashes[path] = hash;
  for (const { path, text } of files)
    if (!kept.has(path)) hashes[path] = sha256(text);
    else if (previous?.[path] === undefined) delete hashes[path];
  const sorted = Object.fromEntries(Object.entries(hashes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    path: IMPORT_STATE_FILE,
    text: `${JSON.stringify({ generator: 'pipewright-import', version: 1, files: sorted }, null, 2)}\n`,
  };
}

/** A warning per module kept as edited (or replaced with --force), with the lines that differ. */
export function editedFindings(dir: string, outcomes: readonly FileOutcome[]): Diagnostic[] {
  return outcomes.flatMap((outcome) =>
    outcome.outcome === 'kept'
      ? [
          diagnosticOf('import-edited', 'warning', {
            message: `${outcome.path} was edited since the last import and differs from what import writes now: kept as it is\n${outcome.diff}`,
            path: [],
            location: { file: join(dir, outcome.path) },
            hint: 'bring the change into it by hand, or import again with --force to replace it',
          }),
        ]
      : outcome.outcome === 'overwritten'
        ? [
            diagnosticOf('import-overwritten', 'warning', {
              message: `${outcome.path} was edited since the last import: replaced (--force)\n${outcome.diff}`,
              path: [],
              location: { file: join(dir, outcome.path) },
            }),
          ]
        : [],
  );
}
