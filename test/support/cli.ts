import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root and the real binary the tests run (built by `npm test` before vitest). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'pipewright.js');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly input?: string;
}

/** Runs `pipewright ...args` as a child process, the way a user does, and collects its output. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, NO_COLOR: '1', ...options.env }))
    if (value !== undefined) env[key] = value;
  return runProcess(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env, input: options.input ?? '' });
}

/** Runs a program with exactly this environment and collects its output; stdin is `input`, or closed. */
export function runProcess(
  file: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly input?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

/** A fresh temporary folder, removed by the returned cleanup. */
export async function tempDir(prefix = 'pipewright-test-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  // Publishing the folder itself keeps its record beside it (`<dir>.published.json`): that goes too.
  const cleanup = async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(`${dir}.published.json`, { force: true });
  };
  return { dir, cleanup };
}

/** Writes `text` to `file` under `dir`, making its folders. */
export async function writeIn(dir: string, file: string, text: string | Buffer): Promise<void> {
  await mkdir(join(dir, file, '..'), { recursive: true });
  await writeFile(join(dir, file), text);
}

/** Every file under `root` (relative path -> text), in sorted order, to compare whole output folders. */
export async function readTree(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)));
  return Object.fromEntries(
    await Promise.all(files.sort().map(async (f) => [f, await readFile(join(root, f), 'utf8')] as const)),
  );
}

/** `import --mode project <fixture> -o estate` in a temporary folder, then `compile` in `estate` with the generated config. */
export async function importedProject(
  fixture: string,
): Promise<{ dir: string; cleanup: () => Promise<void>; imported: CliResult; compiled: CliResult }> {
  const { dir, cleanup } = await tempDir();
  const imported = await runCli(['import', '--mode', 'project', fixture, '-o', 'estate'], { cwd: dir });
  const compiled = await runCli(['compile'], { cwd: join(dir, 'estate') });
  return { dir, cleanup, imported, compiled };
}
