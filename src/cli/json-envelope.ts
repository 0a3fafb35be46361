import { groupDiagnostics, sortDiagnostics, type Diagnostic, type DiagnosticLocation } from '../core/diagnostics.js';
import { stdout } from './output.js';

/** The version of the `--json` envelope: raised when a field changes meaning or goes away, not when one is added. */
const ENVELOPE_VERSION = 1;

/** One diagnostic as `--json` prints it. */
export interface JsonDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  /** Where: `file`, and when known `line` and `column` (1-based) and the end (`endLine`, `endColumn`, exclusive). */
  readonly location?: DiagnosticLocation;
  /** @deprecated the location's file, kept until the next minor version: read `location.file`. */
  readonly file?: string;
  /** @deprecated kept until the next minor version: read `location.line`. */
  readonly line?: number;
  /** @deprecated kept until the next minor version: read `location.column`. */
  readonly column?: number;
  readonly path?: ReadonlyArray<string | number>;
  readonly subject?: string;
  readonly hint?: string;
  /** The text the user most likely meant (a did-you-mean's name): what a quick fix would put in place. */
  readonly suggestion?: string;
  readonly count?: number;
  readonly places?: readonly string[];
  /** A suppressed diagnostic (a builder's `.suppress()`, a `# pipewright-disable-next-line` comment): why, and by which. */
  readonly suppressed?: { readonly reason: string; readonly by: 'builder' | 'comment' };
}

export function jsonDiagnostic(diagnostic: Diagnostic): JsonDiagnostic {
  const { code, severity, message, location, path, subject, hint, suggestion, count, places, suppressed } = diagnostic;
  return {
    code,
    severity,
    message,
    ...(location ? { location: jsonLocation(location), ...deprecatedPlace(location) } : {}),
    ...(path.length ? { path } : {}),
    ...(subject ? { subject } : {}),
    ...(hint ? { hint } : {}),
    ...(suggestion ? { suggestion } : {}),
    ...(count ? { count } : {}),
    ...(places ? { places } : {}),
    ...(suppressed ? { suppressed } : {}),
  };
}

/** The location's fields in one order, whoever made it. */
const jsonLocation = ({ file, line, column, endLine, endColumn }: DiagnosticLocation): DiagnosticLocation =>
  line === undefined ? { file } : { file, line, column, ...(endLine !== undefined ? { endLine, endColumn } : {}) };

/** The fields envelope 1 had before `location` (docs/cli.md#json-output): written until the next minor version. */
const deprecatedPlace = ({ file, line, column }: DiagnosticLocation) =>
  line === undefined ? { file } : { file, line, column };

/**
 * What every command prints with `--json`, on success and on failure alike: `pipewright` (the envelope's
 * version), `command`, `ok`, `diagnostics` (grouped and sorted as on the terminal), then the command's own fields.
 */
function envelope(command: string, ok: boolean, diagnostics: readonly Diagnostic[], fields: object = {}): string {
  const shown = sortDiagnostics(groupDiagnostics(diagnostics)).map(jsonDiagnostic);
  return `${JSON.stringify({ pipewright: ENVELOPE_VERSION, command, ok, diagnostics: shown, ...fields }, null, 2)}\n`;
}

export const printEnvelope = (
  command: string,
  ok: boolean,
  diagnostics: readonly Diagnostic[],
  fields?: object,
): void => {
  stdout(envelope(command, ok, diagnostics, fields));
};
