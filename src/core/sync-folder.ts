import { closeSync, fsyncSync, openSync } from 'node:fs';

/**
 * Makes a rename in `folder` durable: the folder's entry is flushed with the folder. A platform that cannot open a
 * folder (Windows) has no such step; its renames are as durable as its file system makes them.
 */
export function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Not possible here: nothing more to do.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
