import { DiagnosticError, formatDiagnostics } from '../compile/diagnostics.js';

/** Exit codes of the CLI contract. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A failure the user can fix from the message alone: printed without a stack trace. */
export class UserError extends Error {
  readonly hint?: string;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = 'UserError';
    if (hint) this.hint = hint;
  }
}

export interface ReportOptions {
  readonly debug: boolean;
  readonly color: boolean;
}

/** Prints an error the way the CLI contract says, and returns the exit code. */
export function reportError(error: unknown, { debug, color }: ReportOptions): number {
  if (error instanceof DiagnosticError) {
    process.stderr.write(formatDiagnostics(error.diagnostics, { color }));
    if (debug && error.cause instanceof Error) process.stderr.write(`\n${error.cause.stack}\n`);
    return EXIT.failed;
  }
  if (error instanceof UserError) {
    process.stderr.write(`pipewright: ${error.message}\n${error.hint ? `  hint: ${error.hint}\n` : ''}`);
    if (debug) process.stderr.write(`${error.stack}\n`);
    return EXIT.failed;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`pipewright: unexpected error: ${message}\n`);
  process.stderr.write(debug && error instanceof Error ? `${error.stack}\n` : '  run again with --debug for the stack trace\n');
  return EXIT.failed;
}

export const useColor = (stream: NodeJS.WriteStream): boolean =>
  Boolean(stream.isTTY) && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';
