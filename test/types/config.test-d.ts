/**
 * Type tests for pipewright.config.ts, checked by `npm run typecheck`: each `@ts-expect-error` must meet an error.
 */
import { defineConfig } from 'pipewright';

defineConfig({ rules: { 'possible-secret': 'off', 'unknown-reference': 'error', 'unknown-type': 'warning' } });
// @ts-expect-error: not a diagnostic code
defineConfig({ rules: { 'possible-secrets': 'off' } });
// Every code about a document, the schema's included: a false error must never leave a team without a way past.
defineConfig({
  rules: { 'missing-field': 'off', 'unknown-key': 'warning', 'invalid-value': 'warning', 'duplicate-resource': 'off' },
});
// @ts-expect-error: a code about the run, not a document
defineConfig({ rules: { 'file-not-found': 'off' } });
// @ts-expect-error: a code about the run, not a document
defineConfig({ rules: { usage: 'warning' } });
// @ts-expect-error: a setting is off, warning or error
defineConfig({ rules: { 'possible-secret': 'quiet' } });
