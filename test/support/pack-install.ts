import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './cli.js';

const run = promisify(execFile);

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [field: string]: unknown;
}

interface Lockfile {
  packages: Record<string, LockEntry>;
}

export interface PackedPackage {
  /** Absolute path of the .tgz. */
  readonly tarball: string;
  /** Paths inside the package, as npm lists them. */
  readonly files: readonly string[];
}

/**
 * `npm pack` of this repository as it stands (dist/ is built by `npm test` before vitest), without running
 * `prepare`: a build here would rewrite dist/ under the other tests' feet.
 */
export async function packPipewright(into: string): Promise<PackedPackage> {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is missing: run npm run build first');
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', into], { cwd: ROOT });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(into, basename(packed!.filename)), files: packed!.files.map((f) => f.path) };
}

/** Where npm would find `name` from the package at `from` (a lockfile key): its own node_modules, then upwards. */
function locate(packages: Lockfile['packages'], from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.includes('/node_modules/') ? dir.slice(0, dir.lastIndexOf('/node_modules/')) : '') {
    const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[key]) return key;
    if (!dir) return undefined;
  }
}

/**
 * A project that depends on the packed tarball (and `extra` packages, by the versions this repository's
 * lockfile has), with a package-lock.json made from this repository's own. `npm ci --offline` then needs
 * only tarballs, which the repository's `npm ci` put in the npm cache: no registry metadata, no network.
 * (A plain `npm install --offline ./pipewright.tgz` needs each dependency's registry document, which
 * `npm ci` never fetches, so on a fresh machine it fails with ENOTCACHED.)
 */
export async function writeConsumerProject(project: string, tarball: string, extra: readonly string[] = []): Promise<void> {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as Lockfile;
  const own = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as LockEntry & { name: string; bin?: unknown };
  const spec = `file:${relative(project, tarball).split('\\').join('/')}`;
  const versionOf = (name: string) => lock.packages[`node_modules/${name}`]?.version;
  const rootDependencies: Record<string, string> = { pipewright: spec };
  for (const name of extra) {
    const version = versionOf(name);
    if (!version) throw new Error(`${name} is not in package-lock.json`);
    rootDependencies[name] = version;
  }
  const packages: Record<string, LockEntry> = {
    '': { name: 'consumer', version: '1.0.0', dependencies: rootDependencies },
    'node_modules/pipewright': {
      version: own.version!,
      resolved: spec,
      license: own.license,
      dependencies: own.dependencies,
      ...(own.peerDependencies ? { peerDependencies: own.peerDependencies, peerDependenciesMeta: own.peerDependenciesMeta } : {}),
      bin: own.bin,
      engines: own.engines,
    },
  };
  // The closure of what pipewright and the extras need, copied from the repository's lockfile, whose
  // "dev" marks do not apply to the consumer.
  const queue: Array<[from: string, name: string]> = [
    ...Object.keys(own.dependencies ?? {}).map((name) => ['', name] as [string, string]),
    ...extra.map((name) => ['', name] as [string, string]),
  ];
  while (queue.length > 0) {
    const [from, name] = queue.shift()!;
    const key = locate(lock.packages, from, name);
    if (!key) {
      if (!lock.packages[from]?.optionalDependencies?.[name]) throw new Error(`${name} (needed by ${from || 'pipewright'}) is not in package-lock.json`);
      continue;
    }
    if (packages[key]) continue;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = lock.packages[key]!;
    packages[key] = entry;
    for (const dependency of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) queue.push([key, dependency]);
  }
  await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies: rootDependencies }, null, 2)}\n`);
  await writeFile(join(project, 'package-lock.json'), `${JSON.stringify({ name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}

/** `npm ci --offline` in `project`: every package from the npm cache. */
export async function installOffline(project: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, env });
}
