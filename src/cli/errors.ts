import { relative } from 'node:path';
import { DiagnosticError, formatDiagnostics } from '../core/diagnostics.js';
import { stderr } from './output.js';

/** Exit codes of the CLI contract. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface ReportOptions {
  readonly debug: boolean;
  readonly color: boolean;
}

/** The exit code of a user-facing failure: 2 when the command line itself was wrong, else 1. */
export const exitCodeOf = (error: DiagnosticError): number =>
  error.diagnostics.length > 0 && error.diagnostics.every((d) => d.code === 'usage') ? EXIT.usage : EXIT.failed;

/** Node's words for the usual errno codes, for a message that does not need the manual. */
const ERRNO: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a file is where a folder should be',
  EISDIR: 'a folder is where a file should be',
  EEXIST: 'a file is in the way',
  EACCES: 'no permission',
  EPERM: 'not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
};

/**
 * A file system call that failed on the user's paths (a file where an output folder should go, no permission,
 * a full disk) is not a bug: as a diagnostic. Undefined for anything else.
 */
export function fileSystemProblem(error: unknown): DiagnosticError | undefined {
  const { code, syscall, path } = (error ?? {}) as { code?: unknown; syscall?: unknown; path?: unknown };
  if (
    !(error instanceof Error) ||
    typeof code !== 'string' ||
    !ERRNO[code] ||
    typeof syscall !== 'string' ||
    typeof path !== 'string'
  )
    return undefined;
  const shown = relative(process.cwd(), path) || '.';
  const reading =
    code === 'ENOENT' ||
    (['read', 'scandir', 'stat', 'lstat', 'access', 'readlink'].includes(syscall) && code !== 'ENOTDIR');
  return reading
    ? DiagnosticError.of('file-not-found', `cannot read ${shown} (${code}: ${ERRNO[code]})`, 'check the path', {
        cause: error,
      })
    : DiagnosticError.of(
        'cannot-write',
        `cannot write ${shown} (${code}: ${ERRNO[code]})`,
        'choose another output folder, or move what is in the way',
        { cause: error },
      );
}

/** Prints an error the way the CLI contract says, and returns the exit code. */
export function reportError(thrown: unknown, { debug, color }: ReportOptions): number {
  const error = fileSystemProblem(thrown) ?? thrown;
  if (error instanceof DiagnosticError) {
    stderr(formatDiagnostics(error.diagnostics, { color }));
    if (debug) stderr(`\n${error.cause instanceof Error ? error.cause.stack : error.stack}\n`);
    return exitCodeOf(error);
  }
  // Only a bug in pipewright gets here: every failure the user can fix is a DiagnosticError.
  const message = error instanceof Error ? error.message : String(error);
  stderr(`pipewright: unexpected error: ${message}\n`);
  stderr(debug && error instanceof Error ? `${error.stack}\n` : '  run again with --debug for the stack trace\n');
  return EXIT.failed;
}

export const useColor = (stream: NodeJS.WriteStream): boolean =>
  Boolean(stream.isTTY) && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';
