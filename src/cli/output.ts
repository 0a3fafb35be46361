import { readFileSync } from 'node:fs';
import { redact } from '../core/redact.js';
import type { RetryEvent } from '../platform/retry.js';

/**
 * The one place the CLI prints: stdout and stderr text, commander's messages, the progress bar, the --json
 * envelope and --debug output all pass `redact` here, so an API key the platform echoes back is masked wherever
 * it shows (text, JSON, the markdown plan a CI job appends to $GITHUB_STEP_SUMMARY, diffs, errors).
 */

const protectedValues = new Set<string>();

/** Adds the key of `--api-key-file` to what is masked (HARNESS_API_KEY always is). */
export function protectKeyFile(file: string | undefined): void {
  if (!file) return;
  try {
    protectedValues.add(readFileSync(file, 'utf8').trim());
  } catch {
    // Unreadable: the command fails on it with its own message, and no key was read to leak.
  }
}

const secrets = () => [process.env.HARNESS_API_KEY?.trim(), ...protectedValues];

/** `text` as it may be shown: every known key masked. */
export const shown = (text: string): string => redact(text, secrets());

export const stdout = (text: string): void => void process.stdout.write(shown(text));
export const stderr = (text: string): void => void process.stderr.write(shown(text));

/** A stream for writers that take one (the progress bar): what it writes is redacted too. */
export const redactingStderr = (): NodeJS.WriteStream =>
  new Proxy(process.stderr, {
    get: (target, property) =>
      property === 'write'
        ? (chunk: string | Uint8Array, ...rest: never[]) =>
            target.write(typeof chunk === 'string' ? shown(chunk) : chunk, ...rest)
        : Reflect.get(target, property),
  });

/** Retries are logged only with --debug: in CI a flaky minute would otherwise bury the per-document lines. */
export const debugRetries = (debug: boolean) =>
  debug
    ? ({ error, attempt, delayMs }: RetryEvent) =>
        stderr(`debug: ${error.request}: ${error.message}; attempt ${attempt + 1} in ${delayMs} ms\n`)
    : undefined;
