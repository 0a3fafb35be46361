import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { diagnosticOf, type Diagnostic } from '../core/diagnostics.js';
import { MAX_CODE_POINTS } from './read-yaml.js';
import { trimEnd } from '../core/trim-ends.js';

/**
 * The most bytes a YAML file may have. A code point is at most 4 bytes of UTF-8, so a larger file holds more code
 * points than the platform's reader takes in a document (`MAX_CODE_POINTS`): it is refused before it is read.
 */
export const MAX_YAML_FILE_BYTES = 4 * MAX_CODE_POINTS;

/** A user's YAML file as text, or why it was not read (one diagnostic about the whole file). */
export type FileText = { readonly text: string } | { readonly refused: Diagnostic };

/**
 * Decodes bytes strictly as UTF-8 (a UTF-8 byte order mark is dropped): a file in Latin-1 or UTF-16 is refused, not
 * silently mangled. Undefined when the bytes are not UTF-8.
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The codes of a file refused as a whole. */
type FileCode = 'file-not-found' | 'not-a-file' | 'file-too-large' | 'not-utf8';

/** What a non-regular file is, in words. */
function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

// Opening a named pipe for reading waits for a writer: without blocking, it opens at once and is then refused.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a user's YAML file with bounds: a symlink is followed and its target checked; anything but a regular file
 * (a folder, a named pipe, a device such as /dev/zero) is refused without reading; so is a file over
 * `MAX_YAML_FILE_BYTES` (checked on the open file, and again while reading, for a file that grows) and one that is
 * not UTF-8. Synchronous: a folder of a thousand files read with an await each waited a fifth of a second.
 */
export function readYamlFile(file: string): FileText {
  const refuse = (code: FileCode, message: string, hint: string): FileText => ({
    refused: diagnosticOf(code, 'error', { message, path: [], hint }),
  });
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    return refuse('file-not-found', `cannot read ${file}: ${reason}`, 'check the path');
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile())
      return refuse(
        'not-a-file',
        `${file} is ${kindOf(info)}, not a file`,
        info.isDirectory()
          ? `pass YAML files or a glob, e.g. "${trimEnd(file, '/')}/**/*.yaml"`
          : 'pass YAML files; pipewright reads only regular files (a symlink to one is fine)',
      );
    const tooLarge = () =>
      refuse(
        'file-too-large',
        `${file} is over ${MAX_YAML_FILE_BYTES} bytes; the platform refuses YAML documents over ${MAX_CODE_POINTS} characters`,
        'split it: move long scripts into files in the repository, or stages into templates',
      );
    if (info.size > MAX_YAML_FILE_BYTES) return tooLarge();
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(
        // The size announced (plus one, to see the end), at least 64 KiB (a /proc file announces 0), and never
        // past the limit by more than one byte.
        Math.min(Math.max(info.size - total + 1, 65_536), MAX_YAML_FILE_BYTES + 1 - total),
      );
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > MAX_YAML_FILE_BYTES) return tooLarge();
    }
    const text = decodeUtf8(Buffer.concat(chunks, total));
    return text === undefined
      ? refuse('not-utf8', `${file} is not valid UTF-8 text`, 'save the file as UTF-8 (the platform reads UTF-8)')
      : { text };
  } finally {
    closeSync(fd);
  }
}
