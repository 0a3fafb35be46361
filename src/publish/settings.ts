import type { StoppingKind } from '../platform/envelope.js';
import { readFile } from 'node:fs/promises';
import type { PipewrightConfig } from '../compile/config.js';
import type { CodeWith } from '../core/diagnostic-codes.js';
import type { RetryOptions } from '../platform/retry.js';
import type { ResourceKey } from '../catalog/resource-key.js';
import type { GitFileLocation } from './publish.js';
import { gitFileName } from './git-write.js';

/** A setting that is missing or wrong, with what to do about it; the CLI prints it as a diagnostic of its code. */
export class SettingsError extends Error {
  readonly hint: string;
  readonly code: CodeWith<'error'>;
  constructor(message: string, hint: string, code: CodeWith<'error'> = 'invalid-setting') {
    super(message);
    this.name = 'SettingsError';
    this.hint = hint;
    this.code = code;
  }
}

export interface ConnectionFlags {
  readonly baseUrl?: string;
  readonly account?: string;
  readonly apiKeyFile?: string;
}

export interface Connection {
  readonly baseUrl: string;
  readonly accountId: string;
  readonly apiKey: string;
  /** Where the key came from, for messages: never the key itself. */
  readonly keySource: string;
}

type Env = Readonly<Record<string, string | undefined>>;
/** An empty variable is treated as unset: CI systems often export blanks for missing secrets. */
const fromEnv = (env: Env, name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined);

/** Base URL, account and key: flags win over the environment, the environment over pipewright.config.ts. */
export async function resolveConnection(
  flags: ConnectionFlags,
  config: PipewrightConfig,
  env: Env = process.env,
): Promise<Connection> {
  const baseUrl = flags.baseUrl ?? fromEnv(env, 'HARNESS_BASE_URL') ?? config.baseUrl;
  const accountId = flags.account ?? fromEnv(env, 'HARNESS_ACCOUNT_ID') ?? config.accountId;
  // Every missing setting in one message: fixing them one run at a time wastes a CI round trip each.
  const missing: { what: string; how: string }[] = [];
  if (!baseUrl)
    missing.push({
      what: 'no platform address given',
      how: 'pass --base-url https://app.harness.io, set HARNESS_BASE_URL, or set baseUrl in pipewright.config.ts',
    });
  if (!accountId)
    missing.push({
      what: 'no account identifier given',
      how: 'pass --account <id>, set HARNESS_ACCOUNT_ID, or set accountId in pipewright.config.ts (it is in the console URL after /account/)',
    });
  let key: { apiKey: string; keySource: string } | undefined;
  try {
    key = await readApiKey(flags.apiKeyFile, env);
  } catch (error) {
    if (!(error instanceof SettingsError) || missing.length === 0) throw error;
    missing.push({ what: error.message, how: error.hint });
  }
  if (missing.length === 1) throw new SettingsError(missing[0]!.what, missing[0]!.how, 'missing-setting');
  if (missing.length > 1)
    throw new SettingsError(
      `${missing.length} settings are missing: ${missing.map((m) => m.what).join('; ')}`,
      missing.map((m) => m.how).join('\n    hint: '),
      'missing-setting',
    );
  return { baseUrl: baseUrl!, accountId: accountId!, ...key! };
}

/** Where Git-stored pipelines go: `--store remote` with `--git-connector`, `--repo`, `--branch`, or config `git`. */
export interface GitFlags {
  readonly store?: string;
  readonly gitConnector?: string;
  readonly repo?: string;
  readonly branch?: string;
}

export interface GitResolved {
  readonly store: 'inline' | 'remote';
  readonly git?: {
    readonly connectorRef: string;
    readonly repoName: string;
    readonly branch: string;
    readonly filePath?: string;
  };
}

/** Flags win over config; all missing Git settings are named together. */
export function resolveGit(flags: GitFlags, config: PipewrightConfig): GitResolved {
  const store = flags.store ?? config.store ?? 'inline';
  if (store !== 'inline' && store !== 'remote')
    throw new SettingsError(
      `--store ${JSON.stringify(store)} is not inline or remote`,
      'use --store remote to keep pipelines in Git, or --store inline (the default)',
    );
  const connectorRef = flags.gitConnector ?? config.git?.connector;
  const repoName = flags.repo ?? config.git?.repo;
  const branch = flags.branch ?? config.git?.branch;
  if (store === 'inline') {
    const given = [flags.gitConnector && '--git-connector', flags.repo && '--repo', flags.branch && '--branch'].filter(
      Boolean,
    );
    if (given.length)
      throw new SettingsError(
        `${given.join(', ')} given without --store remote`,
        'add --store remote to keep pipelines in Git, or drop the Git options',
      );
    return { store };
  }
  const missing = [
    !connectorRef && '--git-connector <connector>',
    !repoName && '--repo <name>',
    !branch && '--branch <branch>',
  ].filter(Boolean);
  if (missing.length)
    throw new SettingsError(
      `--store remote needs ${missing.join(', ')}`,
      'name the Git connector the platform uses, the repository and the branch, as flags or in pipewright.config.ts: git: { connector, repo, branch }',
      'missing-setting',
    );
  const filePath = config.git?.filePath;
  return {
    store,
    git: { connectorRef: connectorRef!, repoName: repoName!, branch: branch!, ...(filePath ? { filePath } : {}) },
  };
}

/** `{org}`, `{project}`, `{identifier}` in config `git.filePath`, e.g. `pipelines/{project}/{identifier}.yaml`. */
export function expandFilePath(template: string, id: { org?: string; project?: string; identifier: string }): string {
  return template.replace(
    /\{(org|project|identifier)\}/g,
    (_, name: 'org' | 'project' | 'identifier') => id[name] ?? '_',
  );
}

async function readApiKey(file: string | undefined, env: Env): Promise<{ apiKey: string; keySource: string }> {
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new SettingsError(
        `cannot read the API key file ${file}${code ? ` (${code})` : ''}`,
        'check the path given to --api-key-file',
        'file-not-found',
      );
    }
    const apiKey = text.trim();
    if (!apiKey)
      throw new SettingsError(
        `the API key file ${file} is empty`,
        'write the token into it, alone on one line',
        'missing-setting',
      );
    checkKeyShape(apiKey, `the API key file ${file}`);
    return { apiKey, keySource: `--api-key-file ${file}` };
  }
  const apiKey = fromEnv(env, 'HARNESS_API_KEY');
  if (!apiKey)
    throw new SettingsError(
      'no API key: HARNESS_API_KEY is not set',
      'set HARNESS_API_KEY to a personal access token or service-account token (in CI, from a secret), or pass --api-key-file <file>',
      'missing-setting',
    );
  checkKeyShape(apiKey, 'HARNESS_API_KEY');
  return { apiKey, keySource: 'HARNESS_API_KEY' };
}

/** Says where a malformed key came from without quoting it. */
function checkKeyShape(apiKey: string, where: string): void {
  if (!/^[\x21-\x7e]+$/.test(apiKey))
    throw new SettingsError(
      `${where} holds characters an HTTP header cannot carry (spaces, line breaks inside, or non-ASCII)`,
      'copy the token again: it is a single word of printable ASCII',
    );
}

/**
 * Retry and timeout tuning from the environment. Meant for tests and emulators, where waiting the production
 * half-second between retries would make a suite slow: PIPEWRIGHT_RETRY_BASE_MS, PIPEWRIGHT_RETRY_ATTEMPTS,
 * PIPEWRIGHT_RETRY_MAX_TOTAL_MS, PIPEWRIGHT_TIMEOUT_MS, PIPEWRIGHT_WEBHOOK_PAUSE_MS (the wait after a webhook
 * trigger create), PIPEWRIGHT_LIST_PAGE_SIZE (items per list page, 1 to 100: small pages make paging testable), and
 * PIPEWRIGHT_POLL_MS (the shortest wait between two reads of an execution in `run`; default one second).
 */
export function tuningFromEnv(env: Env = process.env): {
  retry: RetryOptions;
  timeoutMs?: number;
  webhookPauseMs?: number;
  listPageSize?: number;
  pollMs?: number;
} {
  const number = (name: string): number | undefined => {
    const value = fromEnv(env, name);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0)
      throw new SettingsError(
        `${name}=${JSON.stringify(value)} is not a non-negative number`,
        `unset ${name} or give milliseconds/a count`,
      );
    return n;
  };
  const baseDelayMs = number('PIPEWRIGHT_RETRY_BASE_MS');
  const attempts = number('PIPEWRIGHT_RETRY_ATTEMPTS');
  const maxTotalMs = number('PIPEWRIGHT_RETRY_MAX_TOTAL_MS');
  const timeoutMs = number('PIPEWRIGHT_TIMEOUT_MS');
  const webhookPauseMs = number('PIPEWRIGHT_WEBHOOK_PAUSE_MS');
  const pageSize = number('PIPEWRIGHT_LIST_PAGE_SIZE');
  const pollMs = number('PIPEWRIGHT_POLL_MS');
  return {
    retry: {
      ...(baseDelayMs !== undefined ? { baseDelayMs } : {}),
      ...(attempts !== undefined ? { attempts: Math.max(1, Math.floor(attempts)) } : {}),
      ...(maxTotalMs !== undefined ? { maxTotalMs } : {}),
    },
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(webhookPauseMs !== undefined ? { webhookPauseMs } : {}),
    ...(pageSize !== undefined ? { listPageSize: Math.min(100, Math.max(1, Math.floor(pageSize))) } : {}),
    ...(pollMs !== undefined ? { pollMs } : {}),
  };
}

/** Advice for a run stopped early: the platform refusing the key, or not answering. Pull only reads, and writes nothing then. */
export function authAdvice(kind: StoppingKind, keySource: string, command: 'publish' | 'pull' = 'publish'): string {
  switch (kind) {
    case 'unauthorized':
      return `the platform rejected the API key from ${keySource} (HTTP 401): check that it holds a current token (tokens expire; after a rotation only the new value works) and that it belongs to this account`;
    case 'forbidden':
      return command === 'pull'
        ? `the API key from ${keySource} lacks permission (HTTP 403): its role needs view on every kind pulled (projects, connectors, pipelines, templates, ...) in these organizations`
        : `the API key from ${keySource} lacks permission (HTTP 403): its role needs create, edit and view on the kinds published (projects, connectors, pipelines, ...) in these organizations (Account Administrator, Organization Admin or Project Admin suffice)`;
    case 'untrusted-certificate':
      return 'the TLS certificate of the platform is not trusted: if it is signed by a private CA, run with NODE_EXTRA_CA_CERTS=/path/to/ca.pem';
    case 'unreachable':
      return 'the platform address does not resolve (DNS): check the host name in --base-url, HARNESS_BASE_URL or baseUrl in pipewright.config.ts';
    case 'gone':
      return command === 'pull'
        ? 'the platform stopped answering during the pull, so nothing more was sent and nothing was written: check that it is up (and the network, VPN or tunnel to it), then pull again'
        : 'the platform stopped answering during the run, so nothing more was sent: check that it is up (and the network, VPN or tunnel to it), then publish again; what was published stays, and the next run leaves it unchanged';
  }
}

/** The name of a document in config `gitFiles` (pull writes them). */
export { gitFileName };

/** Config `gitFiles` as publish reads it: each document's place in Git, by its key. */
export function gitFilesOf(config: PipewrightConfig): ((id: ResourceKey) => GitFileLocation | undefined) | undefined {
  const files = config.gitFiles;
  if (!files || Object.keys(files).length === 0) return undefined;
  return (id) => {
    const place = files[gitFileName(id)];
    return place
      ? { connectorRef: place.connector, repoName: place.repo, branch: place.branch, filePath: place.filePath }
      : undefined;
  };
}
