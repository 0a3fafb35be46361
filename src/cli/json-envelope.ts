import { groupDiagnostics, sortDiagnostics, type Diagnostic } from '../core/diagnostics.js';

/** The version of the `--json` envelope: raised when a field changes meaning or goes away, not when one is added. */
export const ENVELOPE_VERSION = 1;

/** One diagnostic as `--json` prints it: the place split into file, line and column. */
export interface JsonDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly path?: ReadonlyArray<string | number>;
  readonly subject?: string;
  readonly hint?: string;
  readonly count?: number;
  readonly places?: readonly string[];
}

/** `file:line:col` (or a bare file, or a description such as a batch of files) as its parts. */
function placeOf(diagnostic: Diagnostic & { file?: string; line?: number; column?: number }) {
  if (diagnostic.file !== undefined) return { file: diagnostic.file, line: diagnostic.line, column: diagnostic.column };
  if (diagnostic.at === undefined) return {};
  const match = /^(.*):(\d+):(\d+)$/.exec(diagnostic.at);
  return match ? { file: match[1]!, line: Number(match[2]), column: Number(match[3]) } : { file: diagnostic.at };
}

export function jsonDiagnostic(diagnostic: Diagnostic): JsonDiagnostic {
  const { code, severity, message, path, subject, hint, count, places } = diagnostic;
  const { file, line, column } = placeOf(diagnostic);
  return {
    code,
    severity,
    message,
    ...(file !== undefined ? { file } : {}),
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(path.length ? { path } : {}),
    ...(subject ? { subject } : {}),
    ...(hint ? { hint } : {}),
    ...(count ? { count } : {}),
    ...(places ? { places } : {}),
  };
}

/**
 * What every command prints with `--json`, on success and on failure alike: `pipewright` (the envelope's
 * version), `command`, `ok`, `diagnostics` (grouped and sorted as on the terminal), then the command's own fields.
 */
export function envelope(command: string, ok: boolean, diagnostics: readonly Diagnostic[], fields: object = {}): string {
  const shown = sortDiagnostics(groupDiagnostics(diagnostics)).map(jsonDiagnostic);
  return `${JSON.stringify({ pipewright: ENVELOPE_VERSION, command, ok, diagnostics: shown, ...fields }, null, 2)}\n`;
}

export const printEnvelope = (command: string, ok: boolean, diagnostics: readonly Diagnostic[], fields?: object): void => {
  process.stdout.write(envelope(command, ok, diagnostics, fields));
};
