import { formatDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import type { Synthesized } from './synth.js';

/** Thrown by the assertions: its message is the diagnostics as compile prints them, one per place. */
export class SynthAssertionError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(message: string, diagnostics: readonly Diagnostic[]) {
    super(message);
    this.name = 'SynthAssertionError';
    this.diagnostics = diagnostics;
  }
}

const fail = (what: string, found: readonly Diagnostic[]): never => {
  throw new SynthAssertionError(
    `expected no ${what}, found ${found.length}:\n${formatDiagnostics(found).trimEnd()}`,
    found,
  );
};

/** Passes when compile would write these documents (warnings and suppressed errors allowed); else throws, listing each error at its place with its hint. */
export function assertNoErrors(result: Pick<Synthesized, 'diagnostics'>): void {
  const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error' && !diagnostic.suppressed);
  if (errors.length > 0) fail(errors.length === 1 ? 'error' : 'errors', errors);
}

/** Passes when compile would print nothing, not even a warning (suppressed ones aside); else throws, listing each diagnostic. */
export function assertNoDiagnostics(result: Pick<Synthesized, 'diagnostics'>): void {
  const shown = result.diagnostics.filter((diagnostic) => !diagnostic.suppressed);
  if (shown.length > 0) fail('diagnostics', shown);
}
