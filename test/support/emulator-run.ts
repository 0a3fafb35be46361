import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { BIN, ROOT, tempDir, type CliOptions, type CliResult } from './cli.js';
import {
  ACCOUNT_ID,
  ADMIN_KEY,
  READER_KEY,
  ROTATED_KEY,
  startEmulator,
  type Emulator,
  type EmulatorOptions,
} from './emulator.js';
import { writeOutputFolder, type Doc } from './emulator-output.js';

/**
 * `pipewright ...args` as a child process, like runCli, but with stdin closed from the start: a run that exits
 * at once (a usage error) otherwise races runCli's write to its stdin and fails the suite with EPIPE.
 */
export function runBinary(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...process.env, NO_COLOR: '1', ...options.env }))
      if (value !== undefined) env[name] = value;
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Every key the emulator knows or can issue: no output of any run may contain one. */
export const SECRET_KEYS = [ADMIN_KEY, READER_KEY, ROTATED_KEY];

/** Fast retries for tests: the production half-second base delay would make fault runs slow. */
export const FAST_RETRIES = {
  PIPEWRIGHT_RETRY_BASE_MS: '5',
  PIPEWRIGHT_TIMEOUT_MS: '5000',
  PIPEWRIGHT_WEBHOOK_PAUSE_MS: '20',
};

/** Fails when any of the keys appears anywhere in a run's output (also the first 12 characters of one). */
export function assertNoKey(result: CliResult, keys: readonly string[] = SECRET_KEYS): void {
  const output = `${result.stdout}\n${result.stderr}`;
  for (const key of keys)
    for (const fragment of [key, key.slice(0, 12), key.slice(-12)])
      if (output.includes(fragment)) throw new Error(`the output contains (part of) an API key:\n${output}`);
}

export interface PublishRun {
  readonly emulator: Emulator;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  readonly key?: string;
}

/** `pipewright publish ...args` against the emulator, with the key in HARNESS_API_KEY; scans the output for keys. */
export async function publishWith({
  emulator,
  args = [],
  env = {},
  cwd,
  key = ADMIN_KEY,
}: PublishRun): Promise<CliResult> {
  const result = await runBinary(['publish', ...args], {
    ...(cwd ? { cwd } : {}),
    env: {
      HARNESS_API_KEY: key,
      HARNESS_ACCOUNT_ID: ACCOUNT_ID,
      HARNESS_BASE_URL: emulator.url,
      NODE_EXTRA_CA_CERTS: undefined,
      ...FAST_RETRIES,
      ...env,
    },
  });
  assertNoKey(result);
  return result;
}

/**
 * A temporary folder per test, and emulators started in it that are checked for contract violations and stopped
 * after the test. Call at the top of a test file.
 */
export function emulatorsPerTest(prefix: string) {
  let work = '';
  let cleanup = async () => {};
  const emulators: Emulator[] = [];
  beforeEach(async () => {
    ({ dir: work, cleanup } = await tempDir(prefix));
  });
  afterEach(async () => {
    for (const em of emulators.splice(0)) {
      expect(em.violations).toEqual([]);
      await em.stop();
    }
    await cleanup();
  });
  return {
    /** The test's folder. */
    get work() {
      return work;
    },
    async emulate(options: EmulatorOptions = {}): Promise<Emulator> {
      const em = await startEmulator(options);
      emulators.push(em);
      return em;
    },
    /** Writes `docs` as a compiled folder `name` in the test's folder (its record lands beside it, in the same folder). */
    async compiled(docs: readonly Doc[], name = 'out'): Promise<string> {
      const out = join(work, name);
      await writeOutputFolder(out, docs);
      return out;
    },
  };
}
