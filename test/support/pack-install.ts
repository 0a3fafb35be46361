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
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', into], {
    cwd: ROOT,
  });
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
 * lockfile has), locked by lockConsumerProject.
 */
export async function writeConsumerProject(
  project: string,
  tarball: string,
  extra: readonly string[] = [],
): Promise<void> {
  const lock = await repositoryLock();
  const dependencies: Record<string, string> = {};
  for (const name of extra) {
    const version = lock.packages[`node_modules/${name}`]?.version;
    if (!version) throw new Error(`${name} is not in package-lock.json`);
    dependencies[name] = version;
  }
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies }, null, 2)}\n`,
  );
  await lockConsumerProject(project, tarball);
}

const repositoryLock = async () => JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as Lockfile;

/**
 * Points the project's `pipewright` dependency at the tarball (standing in for the registry) and writes a
 * package-lock.json made from this repository's own, so that `npm ci --offline` needs only tarballs, which
 * the repository's `npm ci` put in the npm cache: no registry metadata, no network. (A plain
 * `npm install --offline ./pipewright.tgz` needs each dependency's registry document, which `npm ci` never
 * fetches, so on a fresh machine it fails with ENOTCACHED.) Its other dependencies must be ones this
 * repository has, at versions its lockfile holds.
 */
export async function lockConsumerProject(project: string, tarball: string): Promise<void> {
  const lock = await repositoryLock();
  const own = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as LockEntry & { bin?: unknown };
  const consumer = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as LockEntry & {
    name: string;
    devDependencies?: Record<string, string>;
  };
  const spec = `file:${relative(project, tarball).split('\\').join('/')}`;
  consumer.dependencies = { ...consumer.dependencies, pipewright: spec };
  const root: LockEntry = {
    name: consumer.name,
    version: consumer.version ?? '0.0.0',
    dependencies: consumer.dependencies,
  };
  if (consumer.devDependencies) root.devDependencies = consumer.devDependencies;
  const packages: Record<string, LockEntry> = {
    '': root,
    'node_modules/pipewright': {
      version: own.version!,
      resolved: spec,
      license: own.license,
      dependencies: own.dependencies,
      ...(own.peerDependencies
        ? { peerDependencies: own.peerDependencies, peerDependenciesMeta: own.peerDependenciesMeta }
        : {}),
      bin: own.bin,
      engines: own.engines,
    },
  };
  // The closure of what pipewright and the project's other dependencies need, copied from the repository's
  // lockfile, whose "dev" marks do not apply to the consumer.
  const others = Object.keys({ ...consumer.dependencies, ...consumer.devDependencies }).filter(
    (name) => name !== 'pipewright',
  );
  const queue: Array<[from: string, name: string]> = [...Object.keys(own.dependencies ?? {}), ...others].map((name) => [
    '',
    name,
  ]);
  while (queue.length > 0) {
    const [from, name] = queue.shift()!;
    const key = locate(lock.packages, from, name);
    if (!key) {
      if (!lock.packages[from]?.optionalDependencies?.[name])
        throw new Error(`${name} (needed by ${from || 'pipewright'}) is not in package-lock.json`);
      continue;
    }
    if (packages[key]) continue;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = lock.packages[key]!;
    packages[key] = entry;
    for (const dependency of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }))
      queue.push([key, dependency]);
  }
  await writeFile(join(project, 'package.json'), `${JSON.stringify(consumer, null, 2)}\n`);
  await writeFile(
    join(project, 'package-lock.json'),
    `${JSON.stringify({ name: consumer.name, version: root.version, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}

/** `npm ci --offline` in `project`: every package from the npm cache. */
export async function installOffline(project: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, env });
}
