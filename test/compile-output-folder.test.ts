import { spawn, spawnSync } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prune } from '../src/compile/prune.js';
import { writeOutput } from '../src/compile/write-output.js';
import { BIN, readTree, runCli, runProcess, tempDir, writeIn } from './support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const compile = (...args: string[]) => runCli(['compile', ...args], { cwd: dir });

const definitions = (names: readonly string[]) =>
  `import { project } from 'pipewright';\n` +
  names.map((name) => `export const ${name} = project({ identifier: '${name}' });\n`).join('');

/** Whether this machine lets a test make its own mount namespace (root, unshare): bind mounts need it. */
const canMount =
  spawnSync('unshare', ['--mount', 'true'], { stdio: 'ignore' }).status === 0 &&
  spawnSync('unshare', ['--mount', 'bash', '-c', 'mount --bind /tmp /tmp'], { stdio: 'ignore' }).status === 0;

/** Runs a shell script in a mount namespace of its own (mounts vanish with it), in `dir`. */
const inNamespace = (script: string) =>
  runProcess('unshare', ['--mount', 'bash', '-c', script], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });

const pipewright = `${process.execPath} ${BIN}`;

/** A process id that no process has now (a child that has exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

const emptyPruning = (outDir: string) => prune(undefined, [], { sources: [], whole: true, outDir });

describe('the output folder', () => {
  it('writes through a symlinked out: the folder it points to gets the contents, the link stays', async () => {
    await writeIn(dir, 'defs/a.ts', definitions(['web']));
    await mkdir(join(dir, 'elsewhere/real'), { recursive: true });
    await writeFile(join(dir, 'elsewhere/real/notes.txt'), 'mine\n');
    await symlink(join(dir, 'elsewhere/real'), join(dir, 'out'));
    expect(await compile('defs/a.ts', '-o', 'out')).toMatchObject({ code: 0, stderr: '' });
    await writeIn(dir, 'defs/a.ts', definitions(['web', 'api']));
    expect(await compile('defs/a.ts', '-o', 'out')).toMatchObject({ code: 0, stderr: '' });
    expect((await lstat(join(dir, 'out'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(dir, 'out'))).toBe(join(dir, 'elsewhere/real'));
    expect(Object.keys(await readTree(join(dir, 'elsewhere/real')))).toEqual([
      'manifest.json',
      'notes.txt',
      'projects/default/api.yaml',
      'projects/default/web.yaml',
    ]);
    // Nothing was left beside the link or beside the folder it points to.
    expect((await readdir(dir)).sort()).toEqual(['defs', 'elsewhere', 'out']);
    expect(await readdir(join(dir, 'elsewhere'))).toEqual(['real']);
  });

  it('refuses a symlinked out that points nowhere, and creates nothing', async () => {
    await writeIn(dir, 'defs/a.ts', definitions(['web']));
    await symlink(join(dir, 'missing'), join(dir, 'out'));
    const result = await compile('defs/a.ts', '-o', 'out');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('output folder out is a symlink to a folder that does not exist');
    expect(result.stderr).not.toContain('unexpected error');
    expect((await readdir(dir)).sort()).toEqual(['defs', 'out']);
  });

  it.skipIf(!canMount)('swaps the contents of a mount point, keeping the mount and the files it holds', async () => {
    await writeIn(dir, 'defs/a.ts', definitions(['web']));
    await writeIn(dir, 'volume/user.txt', 'mine\n');
    await mkdir(join(dir, 'out'));
    const result = await inNamespace(
      `mount --bind volume out && ${pipewright} compile defs/a.ts -o out && ` +
        `${pipewright} compile defs/a.ts -o out && mountpoint -q out && echo still-mounted`,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('compiled 1 document to out: 2 written');
    expect(result.stdout).toContain('still-mounted');
    // What the compile wrote is in the volume (the mount is gone with the namespace).
    expect(Object.keys(await readTree(join(dir, 'volume')))).toEqual([
      'manifest.json',
      'projects/default/web.yaml',
      'user.txt',
    ]);
    expect(await readdir(join(dir, 'out'))).toEqual([]);
  });

  it('swaps the contents in place when the folder cannot be renamed (EBUSY), the folder itself staying', async () => {
    const out = join(dir, 'out');
    await writeIn(dir, 'out/user.txt', 'mine\n');
    const before = await stat(out);
    const busy = () => {
      throw Object.assign(new Error('EBUSY: resource busy or locked, rename'), { code: 'EBUSY', syscall: 'rename' });
    };
    writeOutput(out, new Map([['projects/default/web.yaml', 'identifier: web\n']]), emptyPruning(out), undefined, busy);
    expect((await stat(out)).ino).toBe(before.ino);
    expect(await readTree(out)).toMatchObject({
      'projects/default/web.yaml': 'identifier: web\n',
      'user.txt': 'mine\n',
    });
    expect((await readdir(out)).sort()).toEqual(['manifest.json', 'projects', 'user.txt']);
    expect((await readdir(dir)).sort()).toEqual(['out']);
  });

  it('a rename failing for another reason is not taken for a mount point: the error goes up, the old output intact', async () => {
    const out = join(dir, 'out');
    await writeIn(dir, 'out/user.txt', 'mine\n');
    const broken = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, rename'), { code: 'ENOSPC', syscall: 'rename' });
    };
    expect(() =>
      writeOutput(out, new Map([['projects/default/web.yaml', 'x\n']]), emptyPruning(out), undefined, broken),
    ).toThrow('ENOSPC');
    expect(await readTree(out)).toEqual({ 'user.txt': 'mine\n' });
    expect((await readdir(dir)).sort()).toEqual(['out']);
  });

  it('proves every name it writes inside the folder itself: a name that climbs out writes nothing outside', async () => {
    const out = join(dir, 'out');
    await writeIn(dir, 'out/user.txt', 'mine\n');
    for (const name of ['../escaped.yaml', 'pipelines/../../escaped.yaml', '/tmp/escaped.yaml']) {
      expect(() => writeOutput(out, new Map([[name, 'x\n']]), emptyPruning(out), undefined)).toThrow(
        /refused to write .* (leads outside|cannot be a path inside)/,
      );
      expect((await readdir(dir)).sort()).toEqual(['out']);
      expect(await readTree(out)).toEqual({ 'user.txt': 'mine\n' });
    }
  });

  it('says that a read-only output folder is read-only', async () => {
    const out = join(dir, 'out');
    await writeIn(dir, 'out/user.txt', 'mine\n');
    const readOnly = () => {
      throw Object.assign(new Error('EROFS: read-only file system, rename'), { code: 'EROFS', syscall: 'rename' });
    };
    expect(() =>
      writeOutput(out, new Map([['projects/default/web.yaml', 'x\n']]), emptyPruning(out), undefined, readOnly),
    ).toThrow(/cannot write the output folder .*out: it is on a read-only file system \(EROFS\)/);
    expect(await readTree(out)).toEqual({ 'user.txt': 'mine\n' });
  });

  it.skipIf(!canMount)('says so when the folder and its parent are on a read-only mount, with no stack', async () => {
    await writeIn(dir, 'p/defs/a.ts', definitions(['web']));
    await mkdir(join(dir, 'ro'));
    const result = await inNamespace(
      `mount --bind p ro && mount -o remount,ro,bind ro && cd ro && ${pipewright} compile defs/a.ts -o out`,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot write the output folder out: it is on a read-only file system (EROFS)');
    expect(result.stderr).toContain('make the folder and its parent writable');
    expect(result.stderr).not.toMatch(/cannot read|unexpected error|\n\s+at /);
  });

  it('removes what an interrupted compile left (of runs that no longer run), and keeps a running one', async () => {
    await writeIn(dir, 'defs/a.ts', definitions(['web']));
    const dead = deadPid();
    await writeIn(dir, `.out.pipewright-old-${dead}-0badc0de/projects/default/web.yaml`, 'old\n');
    await writeIn(dir, `.out.pipewright-new-${dead}-0badc0de/manifest.json`, '{}\n');
    await writeIn(dir, `.out.pipewright-spool-${dead}-0badc0de/0.yaml`, 'x\n');
    await writeIn(dir, `out/.pipewright-old-${dead}-0badc0de/user.txt`, 'x\n');
    // This test process runs: its folder may be a compile going on beside, and stays.
    await writeIn(dir, `.out.pipewright-new-${process.pid}-0badc0de/manifest.json`, '{}\n');
    // Not pipewright's names: the user's.
    await writeIn(dir, '.out.pipewright-notes', 'mine\n');
    expect(await compile('defs/a.ts', '-o', 'out')).toMatchObject({ code: 0, stderr: '' });
    expect((await readdir(dir)).sort()).toEqual([
      `.out.pipewright-new-${process.pid}-0badc0de`,
      '.out.pipewright-notes',
      'defs',
      'out',
    ]);
    expect((await readdir(join(dir, 'out'))).sort()).toEqual(['manifest.json', 'projects']);
  });

  it('converges after compiles killed with SIGKILL at random points: no leftover, the right output', async () => {
    const names = Array.from({ length: 400 }, (_, i) => `p${i}`);
    await writeIn(dir, 'defs/a.ts', definitions(names));
    // Seeded, so a failure can be replayed: the delays before the kill, in milliseconds.
    let seed = 40;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 1500) + 50;
    for (let round = 0; round < 4; round++) {
      const child = spawn(process.execPath, [BIN, 'compile', 'defs/a.ts', '-o', 'out'], { cwd: dir, stdio: 'ignore' });
      const ended = new Promise((resolve) => child.on('close', resolve));
      const timer = setTimeout(() => child.kill('SIGKILL'), next());
      await ended;
      clearTimeout(timer);
      // Each round edits the source, so each compile writes.
      await writeIn(dir, 'defs/a.ts', definitions([...names, `extra${round}`]));
    }
    const last = await compile('defs/a.ts', '-o', 'out');
    expect(last).toMatchObject({ code: 0, stderr: '' });
    expect((await readdir(dir)).sort()).toEqual(['defs', 'out']);
    const tree = await readTree(join(dir, 'out'));
    expect(Object.keys(tree)).toHaveLength(names.length + 2);
    expect(tree['projects/default/extra3.yaml']).toContain('identifier: extra3');
    expect(tree['projects/default/extra2.yaml']).toBeUndefined();
  });

  it("the scaffolded .gitignore ignores an interrupted compile's folders, and not the output", async () => {
    expect((await runCli(['init'], { cwd: dir })).code).toBe(0);
    expect(spawnSync('git', ['init', '-q'], { cwd: dir }).status).toBe(0);
    const ignored = (path: string) => spawnSync('git', ['check-ignore', '-q', path], { cwd: dir }).status === 0;
    expect(ignored('.out.pipewright-old-123-0badc0de/')).toBe(true);
    expect(ignored('.out.pipewright-new-123-0badc0de/')).toBe(true);
    expect(ignored('.out.pipewright-spool-123-0badc0de/')).toBe(true);
    expect(ignored('out/.pipewright-old-123-0badc0de/')).toBe(true);
    expect(ignored('out/pipelines/default/web/deploy.yaml')).toBe(false);
    expect(ignored('out/manifest.json')).toBe(false);
  });
});
