import { randomBytes } from 'node:crypto';
import { confinedPathOrThrow } from '../core/confined-path.js';
// File operations here are synchronous on purpose: an output folder is thousands of small files, and each
// promise call pays thread-pool round trips. For 1000 files of 30 KB, writing took 236 ms with awaited
// writeFile and 22 ms with writeFileSync; hard-linking 159 ms and 4 ms; reading 229 ms and 18 ms.
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { DiagnosticError } from '../core/diagnostics.js';
import type { TextReader } from './compile-cache.js';
import {
  besideName,
  cannotRename,
  insideName,
  isMountPoint,
  isReadOnly,
  isWorkingFolder,
  moveEntry,
  outputTarget,
  readOnlyOutput,
  runSuffix,
  swapContents,
} from './output-folder.js';
import { MANIFEST_FILE, manifestText, parseManifest, type Manifest } from './layout.js';
import type { Pruning, Removal } from './prune.js';

export interface OutputChanges {
  /** Files that are new or whose content changes. */
  readonly written: string[];
  /** The part of `written` that does not exist yet. */
  readonly added: string[];
  /** The part of `written` that exists with other content. */
  readonly changed: string[];
  readonly unchanged: string[];
  /** Files listed in the old manifest that go (`removals` says why). */
  readonly removed: string[];
  readonly removals: readonly Removal[];
  /** Outputs of sources this compile did not read (a compile of some files): left as they are, still listed. */
  readonly kept: readonly string[];
}

const toPosix = (path: string) => path.split(sep).join('/');

/**
 * A file's new content: its text, the file that holds it (spool.ts), which is moved into place, or `AS_IT_IS`: the
 * file in the folder, known to be unchanged without reading it (compile-cache.ts, `reusable`).
 */
export type OutputContent = string | { readonly spooled: string } | typeof AS_IT_IS;

export const AS_IT_IS = Object.freeze({ asItIs: true as const });

const contentText = (content: Exclude<OutputContent, typeof AS_IT_IS>) =>
  typeof content === 'string' ? content : readText(content.spooled);

interface TreeEntries {
  readonly files: string[];
  readonly symlinks: string[];
  /** Directories with nothing in them: a user may keep one on purpose, so it survives a compile. */
  readonly emptyDirs: string[];
}

/** Everything under `root` (symlinks are listed, not followed), as paths relative to it with `/`. */
function listTree(root: string): TreeEntries {
  const tree: TreeEntries = { files: [], symlinks: [], emptyDirs: [] };
  if (!existsSync(root)) return tree;
  const entries = readdirSync(root, { recursive: true, withFileTypes: true });
  const parents = new Set(entries.map((e) => e.parentPath));
  for (const e of entries) {
    const full = join(e.parentPath, e.name);
    const path = toPosix(relative(root, full));
    // Another run's working folder inside a mount point (output-folder.ts) is not the user's.
    if (isWorkingFolder(path.split('/')[0]!)) continue;
    if (e.isSymbolicLink()) tree.symlinks.push(path);
    else if (e.isFile()) tree.files.push(path);
    else if (e.isDirectory() && !parents.has(full)) tree.emptyDirs.push(path);
  }
  return tree;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The manifest in `outDir`, if there is one. A `manifest.json` that is not ours means the folder belongs to
 * something else: overwriting it would destroy the user's file, so that is an error.
 */
export async function readManifest(outDir: string): Promise<Manifest | undefined> {
  const path = join(outDir, MANIFEST_FILE);
  const text = readText(path);
  if (text === undefined) return undefined;
  const manifest = parseManifest(text);
  if (!manifest)
    throw new DiagnosticError([
      {
        code: 'foreign-manifest',
        severity: 'error',
        message: `${toPosix(path)} exists and was not written by pipewright; compiling would overwrite it`,
        path: [],
        location: { file: toPosix(path) },
        hint: 'choose another output folder with -o (or outDir in pipewright.config.ts), or move that file away',
      },
    ]);
  return manifest;
}

/** What writing `files` would change in `outDir`, without writing. */
export function planOutput(
  outDir: string,
  files: ReadonlyMap<string, OutputContent>,
  pruning: Pruning,
  read?: TextReader,
): OutputChanges {
  const written: string[] = [];
  const added: string[] = [];
  const changed: string[] = [];
  const unchanged: string[] = [];
  const all = new Map(files).set(MANIFEST_FILE, manifestText(pruning.manifest));
  for (const [file, content] of [...all].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (typeof content === 'object' && 'asItIs' in content) {
      unchanged.push(file);
      continue;
    }
    const existing = read ? read(join(outDir, file))?.text : readText(join(outDir, file));
    if (existing !== undefined && existing === contentText(content)) unchanged.push(file);
    else {
      written.push(file);
      (existing === undefined ? added : changed).push(file);
    }
  }
  const { removals } = pruning;
  return {
    written,
    added,
    changed,
    unchanged,
    removed: removals.map((r) => r.file),
    removals,
    kept: pruning.kept.map((entry) => entry.file),
  };
}

/**
 * Writes the output folder all at once: the new tree is built beside it and swapped in with renames, so a
 * reader sees the old tree or the new one, never a mix. Unchanged and kept files are hard-linked (their
 * timestamps stay), files the old manifest did not list are carried over untouched, and removals (prune.ts) are
 * left behind, which removes them. A symlinked folder is written through (the link stays); a folder that cannot
 * be renamed (a mount point) or whose parent cannot be written gets its contents swapped instead
 * (output-folder.ts). `renameFolder` is the rename of the folder itself, replaceable to test that fallback.
 */
export function writeOutput(
  outDir: string,
  files: ReadonlyMap<string, OutputContent>,
  pruning: Pruning,
  read?: TextReader,
  renameFolder: typeof renameSync = renameSync,
): OutputChanges {
  const target = outputTarget(outDir);
  const changes = planOutput(target, files, pruning, read);
  const suffix = runSuffix(process.pid, randomBytes(4).toString('hex'));
  const hadOutput = existsSync(target);
  // A mount point's contents are swapped: build the new tree inside it, on its own file system.
  let inPlace = hadOutput && isMountPoint(target);
  let staging = inPlace ? insideName(target, 'new', suffix) : besideName(target, 'new', suffix);
  try {
    // Not one recursive mkdir: Node reports that as ENOENT on a read-only file system, not EROFS.
    mkdirSync(dirname(staging), { recursive: true });
    mkdirSync(staging);
  } catch (error) {
    if (!isReadOnly(error)) throw error;
    if (inPlace || !hadOutput) throw readOnlyOutput(outDir, error);
    // The parent is read-only but the folder may not be (a volume mounted at out/).
    inPlace = true;
    staging = insideName(target, 'new', suffix);
    try {
      mkdirSync(staging);
    } catch (inside) {
      throw isReadOnly(inside) ? readOnlyOutput(outDir, inside) : inside;
    }
  }
  const backup = besideName(target, 'old', suffix);
  // Every file of the old manifest is made again, kept or removed: the rest of the folder is the user's.
  const managed = new Set([MANIFEST_FILE, ...changes.kept, ...changes.removed]);
  const unchanged = new Set(changes.unchanged);
  try {
    const made = new Set<string>([staging]);
    const makeDir = (dir: string) => {
      if (made.has(dir)) return;
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    };
    // Every name is proved inside the new tree before it is written (names come from identifiers and from the
    // old manifest): the one path function, not a join.
    const place = (file: string, content: OutputContent | undefined) => {
      const path = confinedPathOrThrow(staging, file);
      makeDir(dirname(path));
      if (content === undefined || content === AS_IT_IS || unchanged.has(file)) {
        try {
          linkSync(join(target, file), path);
        } catch {
          copyFileSync(join(target, file), path);
        }
      } else if (typeof content === 'string') writeFileSync(path, content);
      else if ('spooled' in content) moveEntry(content.spooled, path);
    };
    for (const [file, content] of files) place(file, content);
    for (const file of changes.kept) place(file, undefined);
    // Files the old manifest did not list belong to the user: carried over as they are (same inode when
    // the file system allows it), symlinks re-created, empty directories kept.
    const tree = listTree(target);
    for (const file of tree.files) if (!managed.has(file) && !files.has(file)) place(file, undefined);
    for (const path of tree.symlinks) {
      if (managed.has(path) || files.has(path)) continue;
      const copy = confinedPathOrThrow(staging, path);
      makeDir(dirname(copy));
      symlinkSync(readlinkSync(join(target, path)), copy);
    }
    for (const dir of tree.emptyDirs) makeDir(confinedPathOrThrow(staging, dir));
    writeFileSync(join(staging, MANIFEST_FILE), manifestText(pruning.manifest));
    if (inPlace) swapContents(target, staging, suffix);
    else swapFolder(target, staging, backup, suffix, hadOutput, renameFolder);
  } catch (error) {
    throw isReadOnly(error) ? readOnlyOutput(outDir, error) : error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return changes;
}

/** The new tree in place of the old by two renames; the contents swapped when the folder cannot be renamed. */
function swapFolder(
  target: string,
  staging: string,
  backup: string,
  suffix: string,
  hadOutput: boolean,
  renameFolder: typeof renameSync,
): void {
  if (hadOutput) {
    try {
      renameFolder(target, backup);
    } catch (error) {
      // EBUSY: a mount point (Docker volume) on the same device as its parent, which st_dev does not show.
      if (!cannotRename(error)) throw error;
      swapContents(target, staging, suffix);
      return;
    }
  }
  try {
    renameSync(staging, target);
  } catch (error) {
    if (hadOutput) renameSync(backup, target);
    throw error;
  }
  if (hadOutput) rmSync(backup, { recursive: true, force: true });
}
