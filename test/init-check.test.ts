import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './support/cli.js';
import { installOffline, packPipewright, writeConsumerProject } from './support/pack-install.js';
import { runScript } from './support/workflow.js';

// `init`, then what its "next" steps say, then the scaffolded `npm run check` (compile --check --typecheck),
// in the three places a user runs init: an empty folder, a repository with a tsconfig.json of its own, and a
// monorepo root with workspaces. pipewright comes from its packed tarball, installed once (npm ci, offline);
// each case links that node_modules, so what runs is the package as published, at the cost of one install.

let dir: string;
let cleanup: () => Promise<void>;
let modules: string;

const env = (): NodeJS.ProcessEnv => {
  const clean: NodeJS.ProcessEnv = { NO_COLOR: '1' };
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('npm_') && !key.startsWith('HARNESS_')) clean[key] = value;
  return clean;
};

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
}

/**
 * A folder with `files`, init run on it with the installed binary (`npx pipewright init <name>`), then the
 * shared install linked in (the `npm install` init's "next" asks for).
 */
async function initIn(name: string, files: Record<string, string>) {
  const repo = join(dir, name);
  await mkdir(repo);
  await writeFiles(repo, files);
  const init = await runScript(`${join(modules, '.bin/pipewright')} init ${name}`, dir, env());
  expect(init).toMatchObject({ code: 0, stderr: '' });
  await symlink(modules, join(repo, 'node_modules'), 'dir');
  return { repo, init: init.stdout };
}

/** The user's first run after init: compile (as init's "next" says), then the check CI runs. */
async function firstRun(repo: string) {
  const compiled = await runScript('node_modules/.bin/pipewright compile', repo, env());
  expect(compiled).toMatchObject({ code: 0, stderr: '' });
  return runScript('npm run --silent check', repo, env());
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-init-check-'));
  const { tarball } = await packPipewright(dir);
  const install = join(dir, 'install');
  await mkdir(install);
  await writeConsumerProject(install, tarball, ['ts-morph']);
  await installOffline(install);
  modules = join(install, 'node_modules');
}, 240_000);
afterAll(async () => cleanup?.());

describe("init's check passes on the first run", { timeout: 120_000 }, () => {
  it('in an empty folder: the template tsconfig.json covers pipelines/, README written', async () => {
    const { repo, init } = await initIn('empty', {});
    expect(init).toContain('  created   README.md\n');
    expect(init).not.toContain('pipelines/tsconfig.json');
    expect(existsSync(join(repo, 'pipelines/tsconfig.json'))).toBe(false);
    expect(await firstRun(repo)).toEqual({ code: 0, stdout: 'out is up to date (3 documents)\n', stderr: '' });
  });

  it('in a repository whose tsconfig.json has rootDir "src" and include ["src"]: pipelines/tsconfig.json, theirs untouched, no README', async () => {
    const tsconfig =
      '{\n  // the service\n  "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "outDir": "dist",\n' +
      '    "rootDir": "src", "strict": true, "declaration": true, "skipLibCheck": true },\n  "include": ["src"],\n}\n';
    const { repo, init } = await initIn('service', {
      'package.json': '{ "name": "service", "version": "1.0.0", "scripts": { "build": "tsc -p ." } }\n',
      'tsconfig.json': tsconfig,
      'src/index.ts': 'export const port: number = 8080;\n',
    });
    expect(init).toContain('  skipped   README.md (init writes one only into an empty folder)\n');
    expect(init).toContain('  kept      tsconfig.json (it exists; --force replaces it)\n');
    expect(init).toContain('  created   pipelines/tsconfig.json (tsconfig.json\'s "rootDir" is src)\n');
    expect(existsSync(join(repo, 'README.md'))).toBe(false);
    expect(await readFile(join(repo, 'tsconfig.json'), 'utf8')).toBe(tsconfig);
    expect(await firstRun(repo)).toEqual({ code: 0, stdout: 'out is up to date (3 documents)\n', stderr: '' });

    // Without it, the check fails as the issue saw, and the hint names the tsconfig and what to do.
    await rm(join(repo, 'pipelines/tsconfig.json'));
    const without = await runScript('npm run --silent check', repo, env());
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("TS6059: File '");
    expect(without.stderr).toContain(
      "hint: tsconfig.json's rootDir or include leaves the definitions out (so `tsc -p tsconfig.json` never checks them)",
    );
    expect(without.stderr).not.toContain('tsc reports the same');
  });

  it('in a monorepo root with workspaces and a solution-style tsconfig.json over a composite base', async () => {
    const { repo, init } = await initIn('monorepo', {
      'package.json': '{ "name": "monorepo", "private": true, "workspaces": ["packages/*"] }\n',
      'tsconfig.base.json':
        '{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "composite": true, "declaration": true, "declarationMap": true } }\n',
      'tsconfig.json':
        '{ "extends": "./tsconfig.base.json", "files": [], "references": [{ "path": "./packages/api" }] }\n',
      'packages/api/package.json': '{ "name": "@monorepo/api", "version": "1.0.0", "type": "module" }\n',
      'packages/api/tsconfig.json':
        '{ "extends": "../../tsconfig.base.json", "compilerOptions": { "rootDir": "src", "outDir": "dist" }, "include": ["src"] }\n',
      'packages/api/src/index.ts': 'export const api = 1;\n',
    });
    expect(init).toContain(
      '  created   pipelines/tsconfig.json (tsconfig.json\'s "files" leaves out pipelines/hello.ts)\n',
    );
    expect(existsSync(join(repo, 'README.md'))).toBe(false);
    expect(JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')).workspaces).toEqual(['packages/*']);
    expect(await firstRun(repo)).toEqual({ code: 0, stdout: 'out is up to date (3 documents)\n', stderr: '' });
  });
});
