import { DiagnosticError, formatDiagnostics } from '../compile/diagnostics.js';

/** Exit codes of the CLI contract. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface ReportOptions {
  readonly debug: boolean;
  readonly color: boolean;
}

/** The exit code of a user-facing failure: 2 when the command line itself was wrong, else 1. */
export const exitCodeOf = (error: DiagnosticError): number =>
  error.diagnostics.length > 0 && error.diagnostics.every((d) => d.code === 'usage') ? EXIT.usage : EXIT.failed;

/** Prints an error the way the CLI contract says, and returns the exit code. */
export function reportError(error: unknown, { debug, color }: ReportOptions): number {
  if (error instanceof DiagnosticError) {
    process.stderr.write(formatDiagnostics(error.diagnostics, { color }));
    if (debug) process.stderr.write(`\n${error.cause instanceof Error ? error.cause.stack : error.stack}\n`);
    return exitCodeOf(error);
  }
  // Only a bug in pipewright gets here: every failure the user can fix is a DiagnosticError.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`pipewright: unexpected error: ${message}\n`);
  process.stderr.write(debug && error instanceof Error ? `${error.stack}\n` : '  run again with --debug for the stack trace\n');
  return EXIT.failed;
}

export const useColor = (stream: NodeJS.WriteStream): boolean =>
  Boolean(stream.isTTY) && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';
