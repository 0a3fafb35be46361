/**
 * Type tests for pipewright.config.ts, checked by `npm run typecheck`: each `@ts-expect-error` must meet an error.
 */
import { defineConfig } from 'pipewright';

defineConfig({ rules: { 'possible-secret': 'off', 'unknown-reference': 'error', 'unknown-type': 'warning' } });
// @ts-expect-error: not a diagnostic code
defineConfig({ rules: { 'possible-secrets': 'off' } });
// @ts-expect-error: the platform refuses this one; it cannot be switched off
defineConfig({ rules: { 'missing-field': 'off' } });
// @ts-expect-error: a setting is off, warning or error
defineConfig({ rules: { 'possible-secret': 'quiet' } });
