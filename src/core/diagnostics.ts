import pc from 'picocolors';
import type { DocPath } from './document-path.js';
import { compareLocations, formatLocation, type DiagnosticLocation } from './source-location.js';

import {
  type CodeWith,
  type DiagnosticCode,
  type DocumentCode,
  type Severity,
  type SeverityOf,
} from './diagnostic-codes.js';

export type { Severity } from './diagnostic-codes.js';
export type { DiagnosticLocation, SourceLocation } from './source-location.js';

/** What a diagnostic says besides its code and severity. */
export interface DiagnosticFields {
  /** What is wrong, e.g. `timeout "10x" is not a duration (e.g. 10m, 1h30m, 1d)`. */
  readonly message: string;
  /** Position in the document, e.g. ['pipeline', 'stages', 0, 'stage', 'identifier']. */
  readonly path: DocPath;
  /** Which resource the document path belongs to, e.g. `pipeline "deploy" > stage "prod" > step "echo"`. */
  readonly subject?: string;
  /** Where in the user's files: a YAML node (with its end), a builder call, or a whole file. */
  readonly location?: DiagnosticLocation;
  /** How to fix it, when the message alone does not say. */
  readonly hint?: string;
  /**
   * The text the user most likely meant, e.g. the key or identifier a did-you-mean hint names: what an editor's
   * quick fix would put in place of the misspelt one.
   */
  readonly suggestion?: string;
  /** The same mistake at the same place, reported for this many subjects (a shared step used by many pipelines). */
  readonly count?: number;
  /** A few of those subjects, in order. */
  readonly places?: readonly string[];
  /**
   * Set when a builder's `.suppress()` or a `# pipewright-disable-next-line` comment covers it: it is still
   * listed by `--json`, with the reason, but never printed as a problem nor fails the run.
   */
  readonly suppressed?: SuppressedBy;
}

/** Who suppressed a diagnostic, and why (the reason the user gave). */
interface SuppressedBy {
  readonly reason: string;
  readonly by: 'builder' | 'comment';
}

/** A suppression a builder or comment carries: a code and the reason, for a node and everything below it. */
export interface Suppression {
  readonly code: DocumentCode;
  readonly reason: string;
}

/**
 * One finding about the user's input: data first, printed by `formatDiagnostics` or as JSON. The code is one of
 * the table's (src/core/diagnostic-codes.ts) and the severity one the table gives it.
 */
export type Diagnostic = {
  [C in DiagnosticCode]: DiagnosticFields & { readonly code: C; readonly severity: SeverityOf<C> };
}[DiagnosticCode];

/** A diagnostic without some of its fields, each code keeping its own severity (`Omit` would merge them). */
export type DiagnosticWithout<K extends keyof DiagnosticFields> = Diagnostic extends infer D
  ? D extends Diagnostic
    ? Omit<D, K>
    : never
  : never;

/** A diagnostic whose code is known only as a value of a set of codes (schema issues, rule helpers). */
export const diagnosticOf = <S extends Severity>(
  code: CodeWith<S>,
  severity: S,
  fields: DiagnosticFields,
): Diagnostic => ({ code, severity, ...fields }) as Diagnostic;

/** Sorted by file, line and column, then message, so output is stable; diagnostics without a place come last. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => compareLocations(a.location, b.location) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

export interface FormatOptions {
  readonly color?: boolean;
}

/** Places named in the terminal form of a grouped diagnostic; the rest are counted. */
const PLACES_SHOWN = 3;
/** Places kept in a grouped diagnostic (and its JSON): enough to find the uses, not one per use. */
const PLACES_KEPT = 10;

/**
 * `svc_1_cd > deploy > deploy_staging`: a subject without its kind words, for a list of places. Kind words are
 * looked for from the start of a run of words and spaces only (its leading spaces kept): from each position of a
 * long run without a quote, the search would read the run again.
 */
const shortPlace = (subject: string) => subject.replace(/(?<![\w ])( *)\b[\w ]+? "((?:[^"\\]|\\.)*)"/g, '$1$2');

/** The terminal form: `file:line:col  subject: message`, then an indented hint; `pipewright: message` when it has no place. */
export function formatDiagnostic(diagnostic: Diagnostic, { color = false }: FormatOptions = {}): string {
  const c = pc.createColors(color);
  const label = diagnostic.severity === 'error' ? c.red('error') : c.yellow('warning');
  const where = diagnostic.location
    ? `${c.cyan(formatLocation(diagnostic.location))}  `
    : diagnostic.subject
      ? ''
      : 'pipewright: ';
  const subject = diagnostic.subject ? `${c.bold(diagnostic.subject)}: ` : '';
  const places =
    diagnostic.count && diagnostic.places
      ? ` (in ${diagnostic.count} places: ${placeList(diagnostic.places, diagnostic.count)})`
      : '';
  const hint = diagnostic.hint ? `\n    ${c.dim('hint:')} ${diagnostic.hint}` : '';
  return `${where}${subject}${diagnostic.message}${places} ${c.dim(`[${label}${c.dim(` ${diagnostic.code}`)}]`)}${hint}`;
}

const placeList = (places: readonly string[], count: number) => {
  const shown = places.slice(0, PLACES_SHOWN).map(shortPlace);
  return `${shown.join(', ')}${count > shown.length ? `, ... and ${count - shown.length} more` : ''}`;
};

// Made when first needed: creating a collator costs about 15 ms, a sixth of loading the compiler, and most
// compiles group no diagnostic.
let collator: Intl.Collator | undefined;
const natural = (a: string, b: string) => (collator ??= new Intl.Collator('en', { numeric: true })).compare(a, b);

/**
 * One diagnostic per mistake: the same code and message at the same place in the user's files (a shared step
 * used by many pipelines) become one, with the number of subjects it was found in and the first few of them.
 * Diagnostics without a place are never merged; different places (each YAML file its own) stay apart.
 */
export function groupDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const groups = new Map<string, Diagnostic[]>();
  const out: Array<Diagnostic | Diagnostic[]> = [];
  for (const diagnostic of diagnostics) {
    if (!diagnostic.location) {
      out.push(diagnostic);
      continue;
    }
    const key = JSON.stringify([
      diagnostic.code,
      diagnostic.severity,
      formatLocation(diagnostic.location),
      diagnostic.message,
      diagnostic.hint,
      diagnostic.suppressed,
    ]);
    const group = groups.get(key);
    if (group) group.push(diagnostic);
    else {
      const fresh = [diagnostic];
      groups.set(key, fresh);
      out.push(fresh);
    }
  }
  return out.map((entry) => {
    if (!Array.isArray(entry)) return entry;
    const count = entry.reduce((sum, d) => sum + (d.count ?? 1), 0);
    if (entry.length === 1) return entry[0]!;
    const subjects = [...new Set(entry.flatMap((d) => d.places ?? (d.subject ? [d.subject] : [])))].sort(natural);
    const { subject: _subject, places: _places, ...first } = entry[0]!;
    return { ...first, count, places: subjects.slice(0, PLACES_KEPT) } as Diagnostic;
  });
}

export function formatDiagnostics(diagnostics: readonly Diagnostic[], options?: FormatOptions): string {
  const shown = sortDiagnostics(groupDiagnostics(diagnostics.filter((d) => !d.suppressed)));
  const counts = countsText(shown, diagnostics.filter((d) => d.suppressed).length);
  const lines = shown.map((d) => formatDiagnostic(d, options));
  // Only suppressed ones: the count alone, with no empty line for the diagnostics above it.
  if (lines.length === 0) return counts ? `${counts}\n` : '';
  return `${lines.join('\n')}\n${counts ? `\n${counts}\n` : ''}`;
}

/**
 * `2 errors, 1 warning`: the diagnostics printed (as given: grouped or not, as the caller shows them), and how
 * many were suppressed; '' for none. The line a list of findings ends with, before the command's summary.
 */
export function countsText(shown: readonly Diagnostic[], suppressed = 0): string {
  const errors = shown.filter((d) => d.severity === 'error').length;
  const warnings = shown.length - errors;
  return [
    errors && `${errors} error${errors === 1 ? '' : 's'}`,
    warnings && `${warnings} warning${warnings === 1 ? '' : 's'}`,
    suppressedCount(suppressed),
  ]
    .filter(Boolean)
    .join(', ');
}

/** `2 suppressed (pipewright compile --json lists them)`, or '' for none. */
export const suppressedCount = (n: number): string =>
  n ? `${n} suppressed (--json lists them with their reasons)` : '';

/** Whether the run fails: an error nobody suppressed. */
export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean =>
  diagnostics.some((d) => d.severity === 'error' && !d.suppressed);

/** Each diagnostic once, in order of first appearance (a shared file's error, met by every batch or chunk). */
export const withoutRepeats = (diagnostics: Iterable<Diagnostic>): Diagnostic[] => [
  ...new Map(
    [...diagnostics].map((d) => [
      JSON.stringify([d.code, d.location && formatLocation(d.location), d.message, d.path]),
      d,
    ]),
  ).values(),
];

/**
 * The one user-facing failure: it carries coded diagnostics, which the CLI prints (or puts in the --json
 * envelope) and exits 1 (2 for a usage error), without a stack trace. Anything else thrown is a bug.
 */
export class DiagnosticError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[], options?: { cause?: unknown }) {
    super(
      diagnostics
        .map(
          (d) =>
            `${d.location ? `${formatLocation(d.location)}  ` : ''}${d.subject ? `${d.subject}: ` : ''}${d.message}`,
        )
        .join('\n'),
      options,
    );
    this.name = 'DiagnosticError';
    this.diagnostics = diagnostics;
  }

  /** A problem with no place in a document (a missing file, a setting): its code, what is wrong, how to fix it. */
  static of(code: CodeWith<'error'>, message: string, hint?: string, options?: { cause?: unknown }): DiagnosticError {
    return new DiagnosticError(
      [diagnosticOf(code, 'error', { message, path: [], ...(hint ? { hint } : {}) })],
      options,
    );
  }
}
