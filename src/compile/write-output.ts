import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { DiagnosticError } from './diagnostics.js';
import { MANIFEST_FILE, manifestText, parseManifest, type Manifest } from './layout.js';

export interface OutputChanges {
  /** Files that are new or whose content changes. */
  readonly written: string[];
  /** The part of `written` that does not exist yet. */
  readonly added: string[];
  /** The part of `written` that exists with other content. */
  readonly changed: string[];
  readonly unchanged: string[];
  /** Files listed in the old manifest and no longer produced. */
  readonly removed: string[];
}

const toPosix = (path: string) => path.split(sep).join('/');

interface TreeEntries {
  readonly files: string[];
  readonly symlinks: string[];
  /** Directories with nothing in them: a user may keep one on purpose, so it survives a compile. */
  readonly emptyDirs: string[];
}

/** Everything under `root` (symlinks are listed, not followed), as paths relative to it with `/`. */
async function listTree(root: string): Promise<TreeEntries> {
  const tree: TreeEntries = { files: [], symlinks: [], emptyDirs: [] };
  if (!existsSync(root)) return tree;
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const parents = new Set(entries.map((e) => e.parentPath));
  for (const e of entries) {
    const full = join(e.parentPath, e.name);
    const path = toPosix(relative(root, full));
    if (e.isSymbolicLink()) tree.symlinks.push(path);
    else if (e.isFile()) tree.files.push(path);
    else if (e.isDirectory() && !parents.has(full)) tree.emptyDirs.push(path);
  }
  return tree;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
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
  const text = await readText(path);
  if (text === undefined) return undefined;
  const manifest = parseManifest(text);
  if (!manifest)
    throw new DiagnosticError([
      {
        code: 'foreign-manifest',
        severity: 'error',
        message: `${toPosix(path)} exists and was not written by pipewright; compiling would overwrite it`,
        path: [],
        at: toPosix(path),
        hint: 'choose another output folder with -o (or outDir in pipewright.config.ts), or move that file away',
      },
    ]);
  return manifest;
}

/** What writing `files` would change in `outDir`, without writing. */
export async function planOutput(outDir: string, files: ReadonlyMap<string, string>, manifest: Manifest): Promise<OutputChanges> {
  const old = await readManifest(outDir);
  const written: string[] = [];
  const added: string[] = [];
  const changed: string[] = [];
  const unchanged: string[] = [];
  const all = new Map(files).set(MANIFEST_FILE, manifestText(manifest));
  for (const [file, content] of [...all].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const existing = await readText(join(outDir, file));
    if (existing === content) unchanged.push(file);
    else {
      written.push(file);
      (existing === undefined ? added : changed).push(file);
    }
  }
  const removed = (old?.files ?? []).map((entry) => entry.file).filter((file) => !files.has(file)).sort();
  return { written, added, changed, unchanged, removed };
}

/**
 * Writes the output folder all at once: the new tree is built beside it and swapped in with renames, so a
 * reader sees the old tree or the new one, never a mix. Unchanged files are hard-linked (their timestamps
 * stay), files the old manifest did not list are carried over untouched, and orphans (listed in the old
 * manifest, no longer produced) are left behind, which removes them.
 */
export async function writeOutput(outDir: string, files: ReadonlyMap<string, string>, manifest: Manifest): Promise<OutputChanges> {
  const changes = await planOutput(outDir, files, manifest);
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = join(dirname(outDir), `.${basename(outDir)}.pipewright-new-${suffix}`);
  const backup = join(dirname(outDir), `.${basename(outDir)}.pipewright-old-${suffix}`);
  const old = await readManifest(outDir);
  const managed = new Set([MANIFEST_FILE, ...(old?.files ?? []).map((e) => e.file)]);
  const unchanged = new Set(changes.unchanged);
  try {
    await mkdir(staging, { recursive: true });
    const place = async (file: string, content: string | undefined) => {
      const target = join(staging, file);
      await mkdir(dirname(target), { recursive: true });
      if (content === undefined || unchanged.has(file)) {
        await link(join(outDir, file), target).catch(() => copyFile(join(outDir, file), target));
      } else await writeFile(target, content);
    };
    for (const [file, content] of files) await place(file, content);
    // Files the old manifest did not list belong to the user: carried over as they are (same inode when
    // the file system allows it), symlinks re-created, empty directories kept.
    const tree = await listTree(outDir);
    for (const file of tree.files) if (!managed.has(file) && !files.has(file)) await place(file, undefined);
    for (const path of tree.symlinks) {
      if (managed.has(path) || files.has(path)) continue;
      await mkdir(dirname(join(staging, path)), { recursive: true });
      await symlink(await readlink(join(outDir, path)), join(staging, path));
    }
    for (const dir of tree.emptyDirs) await mkdir(join(staging, dir), { recursive: true });
    await writeFile(join(staging, MANIFEST_FILE), manifestText(manifest));
    const hadOutput = existsSync(outDir);
    if (hadOutput) await rename(outDir, backup);
    try {
      await rename(staging, outDir);
    } catch (error) {
      if (hadOutput) await rename(backup, outDir);
      throw error;
    }
    if (hadOutput) await rm(backup, { recursive: true, force: true });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return changes;
}
