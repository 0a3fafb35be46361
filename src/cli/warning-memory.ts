import type { Diagnostic } from '../core/diagnostics.js';

/**
 * What makes a warning the same one from compile to compile: everything it says, and its file, but not where in
 * the file (a warning that only moved with an edit above it has the same cause). Hints name other places as
 * `file:line:col` text: their lines and columns are left out too.
 */
const causeOf = (d: Diagnostic): string =>
  JSON.stringify([
    d.code,
    d.message,
    d.path,
    d.subject,
    d.location?.file,
    d.hint?.replace(/:\d+:\d+/g, ''),
    d.count,
    d.places,
  ]);

/**
 * `compile --watch` prints a warning once: a later compile that finds it again (same code, message, file and
 * document path) does not print it again, only counts it, until its cause changes or it goes away and comes
 * back. Errors are always printed.
 */
export class WarningMemory {
  #shown = new Set<string>();

  /** The diagnostics to print now, and the warnings left out as already shown. */
  sift(diagnostics: readonly Diagnostic[]): { readonly fresh: Diagnostic[]; readonly repeated: Diagnostic[] } {
    const fresh: Diagnostic[] = [];
    const repeated: Diagnostic[] = [];
    const now = new Set<string>();
    for (const d of diagnostics) {
      if (d.severity === 'error') {
        fresh.push(d);
        continue;
      }
      const cause = causeOf(d);
      now.add(cause);
      (this.#shown.has(cause) ? repeated : fresh).push(d);
    }
    // Only what this compile found is remembered: a warning that went away is new when it comes back.
    this.#shown = now;
    return { fresh, repeated };
  }
}

/** The line that stands for the warnings not printed again. */
export function repeatedWarningsLine(repeated: readonly Diagnostic[]): string {
  const codes = [...new Set(repeated.map((d) => d.code))].sort().join(', ');
  const n = repeated.length;
  return `${n} warning${n === 1 ? '' : 's'} shown before still appl${n === 1 ? 'ies' : 'y'}, not repeated (${codes}); restart the watch to see ${n === 1 ? 'it' : 'them'} again\n`;
}
