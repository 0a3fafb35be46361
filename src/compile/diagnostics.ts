import pc from 'picocolors';
import type { DocPath } from '../dsl/build-context.js';

export type Severity = 'error' | 'warning';

/** One finding about the user's input: data first, printed by `formatDiagnostics` or as JSON. */
export interface Diagnostic {
  /** Stable, kebab-case code, e.g. `invalid-duration`, `duplicate-identifier`. */
  readonly code: string;
  readonly severity: Severity;
  /** What is wrong, e.g. `timeout "10x" is not a duration (e.g. 10m, 1h30m, 1d)`. */
  readonly message: string;
  /** Position in the document, e.g. ['pipeline', 'stages', 0, 'stage', 'identifier']. */
  readonly path: DocPath;
  /** Which resource the document path belongs to, e.g. `pipeline "deploy" > stage "prod" > step "echo"`. */
  readonly subject?: string;
  /** Where in the user's files: `file:line:col`. */
  readonly at?: string;
  /** How to fix it, when the message alone does not say. */
  readonly hint?: string;
}

const locationKey = (at: string | undefined): [string, number, number] => {
  const match = /^(.*):(\d+):(\d+)$/.exec(at ?? '');
  return match ? [match[1]!, Number(match[2]), Number(match[3])] : [at ?? '\uffff', 0, 0];
};

/** Sorted by file, line and column, then message, so output is stable. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => {
    const [fa, la, ca] = locationKey(a.at);
    const [fb, lb, cb] = locationKey(b.at);
    return fa < fb ? -1 : fa > fb ? 1 : la - lb || ca - cb || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
  });
}

export interface FormatOptions {
  readonly color?: boolean;
}

/** The terminal form: `file:line:col  subject: message`, then an indented hint. */
export function formatDiagnostic(diagnostic: Diagnostic, { color = false }: FormatOptions = {}): string {
  const c = pc.createColors(color);
  const label = diagnostic.severity === 'error' ? c.red('error') : c.yellow('warning');
  const where = diagnostic.at ? `${c.cyan(diagnostic.at)}  ` : '';
  const subject = diagnostic.subject ? `${c.bold(diagnostic.subject)}: ` : '';
  const hint = diagnostic.hint ? `\n    ${c.dim('hint:')} ${diagnostic.hint}` : '';
  return `${where}${subject}${diagnostic.message} ${c.dim(`[${label}${c.dim(` ${diagnostic.code}`)}]`)}${hint}`;
}

export function formatDiagnostics(diagnostics: readonly Diagnostic[], options?: FormatOptions): string {
  const sorted = sortDiagnostics(diagnostics);
  const errors = sorted.filter((d) => d.severity === 'error').length;
  const warnings = sorted.length - errors;
  const lines = sorted.map((d) => formatDiagnostic(d, options));
  const counts = [errors && `${errors} error${errors === 1 ? '' : 's'}`, warnings && `${warnings} warning${warnings === 1 ? '' : 's'}`]
    .filter(Boolean)
    .join(', ');
  return `${lines.join('\n')}\n${counts ? `\n${counts}\n` : ''}`;
}

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean => diagnostics.some((d) => d.severity === 'error');

/** An expected failure carrying diagnostics: the CLI prints them and exits 1, without a stack trace. */
export class DiagnosticError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[], options?: { cause?: unknown }) {
    super(diagnostics.map((d) => `${d.at ? `${d.at}  ` : ''}${d.subject ? `${d.subject}: ` : ''}${d.message}`).join('\n'), options);
    this.name = 'DiagnosticError';
    this.diagnostics = diagnostics;
  }
}
