// Where the output folder really is, what an interrupted compile left beside it, and how its contents are
// swapped when the folder itself cannot be (a mount point). write-output.ts builds the new tree; this module
// only places it. Synchronous for the reason write-output.ts gives.
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DiagnosticError } from '../core/diagnostics.js';

/** The kinds of folders a compile makes beside the output folder (or inside it, in a mount point). */
const LEFTOVER_KINDS = ['new', 'old', 'spool'] as const;
type LeftoverKind = (typeof LEFTOVER_KINDS)[number];

/** A run's unique part of its folders' names: the process id first, so a later run can tell whether it still runs. */
export const runSuffix = (pid: number, random: string): string => `${pid}-${random}`;

/** `.out.pipewright-new-<suffix>` beside `out`. */
export const besideName = (outDir: string, kind: LeftoverKind, suffix: string): string =>
  join(dirname(outDir), `.${basename(outDir)}.pipewright-${kind}-${suffix}`);

/** `out/.pipewright-new-<suffix>`: the same, inside a folder whose contents are swapped in place. */
export const insideName = (outDir: string, kind: LeftoverKind, suffix: string): string =>
  join(outDir, `.pipewright-${kind}-${suffix}`);

const INSIDE = /^\.pipewright-(?:new|old|spool)-(\d+)-[0-9a-f]+$/;

/** Whether a top-level name in the output folder is one of pipewright's own working folders (never the user's). */
export const isWorkingFolder = (name: string): boolean => INSIDE.test(name);

/**
 * The folder to write into. A symlinked `out` is written through: the folder it points to gets the new contents
 * and the link stays (replacing the link by a folder would silently cut it from where the user keeps the output).
 * A link that points nowhere is refused: creating its target is a guess about a path the user wrote elsewhere.
 */
export function outputTarget(outDir: string): string {
  let link;
  try {
    link = lstatSync(outDir);
  } catch {
    return outDir;
  }
  if (!link.isSymbolicLink()) return outDir;
  try {
    const real = realpathSync(outDir);
    if (statSync(real).isDirectory()) return real;
  } catch {
    // Dangling: said below.
  }
  throw DiagnosticError.of(
    'cannot-write',
    `output folder ${outDir} is a symlink to a folder that does not exist`,
    'create the folder it points to, or remove the link and compile again',
  );
}

const running = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: string }).code === 'EPERM';
  }
};

/**
 * Removes what an interrupted compile left (Ctrl-C, a killed CI job): the staging, backup and spool folders beside
 * the output folder and inside it, of runs that no longer run. A run still going keeps its folders.
 */
export function removeLeftovers(outDir: string): void {
  const beside = new RegExp(
    `^\\.${basename(outDir).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.pipewright-(?:new|old|spool)-(\\d+)-[0-9a-f]+$`,
  );
  const sweep = (folder: string, pattern: RegExp) => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const pid = pattern.exec(name)?.[1];
      if (pid !== undefined && !running(Number(pid))) rmSync(join(folder, name), { recursive: true, force: true });
    }
  };
  sweep(dirname(outDir), beside);
  sweep(outDir, INSIDE);
}

/** Errors of `rename` that mean "this folder cannot be renamed", not "this cannot be written". */
const UNRENAMABLE = new Set(['EBUSY', 'EXDEV', 'EPERM']);

export const cannotRename = (error: unknown): boolean =>
  UNRENAMABLE.has((error as { code?: string } | undefined)?.code ?? '');

/** Whether `outDir` is the root of a mounted file system (a Docker volume): its device is not its parent's. */
export function isMountPoint(outDir: string): boolean {
  try {
    return statSync(outDir).dev !== statSync(dirname(outDir)).dev;
  } catch {
    return false;
  }
}

/** Moves a file or folder, copying when it crosses file systems. */
export function moveEntry(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EXDEV') throw error;
    cpSync(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    rmSync(from, { recursive: true, force: true });
  }
}

/**
 * Replaces the entries inside `outDir` by those of `staging`, for a folder that cannot be renamed (a mount point).
 * The old entries are first moved into a backup folder inside `outDir` (same file system, so plain renames), then
 * the new ones moved in; a failure puts the old ones back. A reader may see a mix for the moment of the moves;
 * the folder itself, its owner and its mount stay.
 */
export function swapContents(outDir: string, staging: string, suffix: string): void {
  const backup = insideName(outDir, 'old', suffix);
  mkdirSync(backup);
  const old = readdirSync(outDir).filter((name) => name !== basename(backup) && name !== basename(staging));
  const moved: string[] = [];
  try {
    for (const name of old) renameSync(join(outDir, name), join(backup, name));
    for (const name of readdirSync(staging)) {
      moveEntry(join(staging, name), join(outDir, name));
      moved.push(name);
    }
  } catch (error) {
    for (const name of moved) rmSync(join(outDir, name), { recursive: true, force: true });
    for (const name of readdirSync(backup))
      if (!existsSync(join(outDir, name))) renameSync(join(backup, name), join(outDir, name));
    rmSync(backup, { recursive: true, force: true });
    throw error;
  }
  rmSync(backup, { recursive: true, force: true });
}

/** Errors that mean "this place cannot be written at all". */
const READ_ONLY = new Set(['EROFS', 'EACCES', 'EPERM']);

export const isReadOnly = (error: unknown): boolean =>
  READ_ONLY.has((error as { code?: string } | undefined)?.code ?? '');

/** The error for an output folder that cannot be written: which folder, why, and what to do. */
export function readOnlyOutput(outDir: string, error: unknown): DiagnosticError {
  const code = (error as { code?: string }).code;
  const why = code === 'EROFS' ? 'is on a read-only file system' : 'is not writable (no permission)';
  return DiagnosticError.of(
    'cannot-write',
    `cannot write the output folder ${outDir}: it ${why} (${code})`,
    'make the folder and its parent writable, or choose another output folder with -o (or outDir in pipewright.config.ts)',
    { cause: error },
  );
}
