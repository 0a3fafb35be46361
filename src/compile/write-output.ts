import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { MANIFEST_FILE, manifestText, parseManifest, type Manifest } from './layout.js';

export interface OutputChanges {
  /** Files that are new or whose content changes. */
  readonly written: string[];
  readonly unchanged: string[];
  /** Files listed in the old manifest and no longer produced. */
  readonly removed: string[];
}

const toPosix = (path: string) => path.split(sep).join('/');

async function listFiles(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => toPosix(relative(root, join(e.parentPath, e.name))));
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The manifest in `outDir`, if there is one of ours. */
export async function readManifest(outDir: string): Promise<Manifest | undefined> {
  const text = await readText(join(outDir, MANIFEST_FILE));
  return text === undefined ? undefined : parseManifest(text);
}

/** What writing `files` would change in `outDir`, without writing. */
export async function planOutput(outDir: string, files: ReadonlyMap<string, string>, manifest: Manifest): Promise<OutputChanges> {
  const old = await readManifest(outDir);
  const written: string[] = [];
  const unchanged: string[] = [];
  const all = new Map(files).set(MANIFEST_FILE, manifestText(manifest));
  for (const [file, content] of [...all].sort(([a], [b]) => (a < b ? -1 : 1))) {
    ((await readText(join(outDir, file))) === content ? unchanged : written).push(file);
  }
  const removed = (old?.files ?? []).map((entry) => entry.file).filter((file) => !files.has(file)).sort();
  return { written, unchanged, removed };
}

/**
 * Writes the output folder all at once: the new tree is built beside it and swapped in with renames, so a
 * reader sees the old tree or the new one, never a mix. Unchanged files are hard-linked (their timestamps
 * stay), files the old manifest did not list are carried over untouched, and orphans are left behind.
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
    for (const file of await listFiles(outDir)) if (!managed.has(file) && !files.has(file)) await place(file, undefined);
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
