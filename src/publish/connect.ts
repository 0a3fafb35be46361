import type { ResourceKey } from '../catalog/resource-key.js';
import type { PipewrightConfig } from '../compile/config.js';
import { DiagnosticError } from '../core/diagnostics.js';
import { BaseUrlError } from '../platform/base-url.js';
import { createClient, type Client, type ClientOptions } from '../platform/client.js';
import type { ApiError } from '../platform/envelope.js';
import type { RetryEvent } from '../platform/retry.js';
import type { Probe } from '../platform/transport.js';
import { resolveConnection, SettingsError, tuningFromEnv, type ConnectionFlags } from './settings.js';

/**
 * The connection publish and pull share: the settings read into a client, one request to prove the platform is
 * there, and the one conversion of a settings or address problem into the diagnostic the user reads.
 */

/** What to check when the preflight found no platform at the address. */
const PREFLIGHT_HINT: Readonly<Record<Exclude<Probe, { ok: true }>['problem'], string>> = {
  refused:
    'nothing listens there: check the host and port in --base-url, HARNESS_BASE_URL or baseUrl in pipewright.config.ts, and that the platform (or your tunnel) is running',
  unresolved:
    'check the host name in --base-url, HARNESS_BASE_URL or baseUrl in pipewright.config.ts (and the DNS of this machine)',
  tls: "check that the address is the platform's; a private CA is trusted with NODE_EXTRA_CA_CERTS=/path/to/ca.pem",
  timeout: 'no answer in time: check the address, and any firewall or proxy between this machine and the platform',
  network: 'check the address and the network between this machine and the platform',
  'blocked-port':
    'check the port in --base-url, HARNESS_BASE_URL or baseUrl in pipewright.config.ts; the platform is not served on it',
  'not-json':
    "something answers there, but not the platform's API: give the address of the platform itself, e.g. https://app.harness.io (a self-hosted install with its path prefix), without /gateway or /ng/api",
  'bare-404':
    "something answers there, but not the platform's API: give the address of the platform itself, e.g. https://app.harness.io (a self-hosted install with its path prefix), without /gateway or /ng/api",
};

/** Settings problems are the user's to fix: a diagnostic of their code, printed without a stack. */
export function asUserError(error: unknown): unknown {
  if (error instanceof SettingsError) return DiagnosticError.of(error.code, error.message, error.hint);
  if (error instanceof BaseUrlError) return DiagnosticError.of('invalid-setting', error.message, error.hint);
  return error;
}

/**
 * A request the platform did not answer as asked, as the diagnostic a command stops with: what failed (`doing`),
 * the platform's message and correlationId (for its support), and what to do.
 */
export const requestFailed = (error: ApiError, doing: string, advice: string): DiagnosticError =>
  DiagnosticError.of(
    'request-failed',
    `${doing}: ${error.message}${error.correlationId ? ` (correlationId ${error.correlationId})` : ''}`,
    advice,
  );

/** What a command passes to reach the platform: the connection flags, the rate, and who hears of retries. */
export interface ConnectOptions extends ConnectionFlags {
  readonly rate?: number | undefined;
  /** Each retry as it is scheduled (the CLI prints them with --debug only). */
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
}

/**
 * The platform client publish and pull share: the connection (flags, environment, config), the rate limit (flag,
 * then config, then 1000 a minute), the environment's tuning (retries, timeout, list page size).
 */
export async function connect(
  options: ConnectOptions,
  config: PipewrightConfig,
  tuning: ReturnType<typeof tuningFromEnv> = tuningFromEnv(),
): Promise<{ client: Client; keySource: string }> {
  const connection = await resolveConnection(options, config);
  const client = createClient({
    baseUrl: connection.baseUrl,
    accountId: connection.accountId,
    apiKey: connection.apiKey,
    rateLimit: options.rate ?? config.rateLimit ?? 1000,
    retry: tuning.retry,
    ...(tuning.timeoutMs !== undefined ? { timeoutMs: tuning.timeoutMs } : {}),
    ...(tuning.listPageSize !== undefined ? { listPageSize: tuning.listPageSize } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  } satisfies ClientOptions);
  return { client, keySource: connection.keySource };
}

/** One request first: a wrong address fails once, at once, instead of once per document after every retry. */
export async function preflight(client: Client, key: ResourceKey): Promise<void> {
  const found = await client.probe(key);
  if (!found.ok)
    throw DiagnosticError.of(
      'no-platform',
      `no platform at ${client.baseUrl}: ${found.detail}`,
      PREFLIGHT_HINT[found.problem],
    );
}
