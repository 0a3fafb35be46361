import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coverage, includePattern, parseJsonc } from '../src/init/init-tsconfig.js';
import { tempDir } from './support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-init-tsconfig-')));
afterEach(async () => cleanup());

const SCAFFOLDED = ['pipelines/hello.ts', 'pipewright.config.ts'];
const covers = async (tsconfig: string, extra: Record<string, string> = {}) => {
  for (const [file, text] of Object.entries({ 'tsconfig.json': tsconfig, ...extra })) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  return coverage(
    join(dir, 'tsconfig.json'),
    SCAFFOLDED.map((file) => join(dir, file)),
  );
};

describe('parseJsonc (tsconfig.json as TypeScript reads it)', () => {
  it('drops line and block comments and trailing commas, but not their look-alikes inside strings', () => {
    const text = '{\n  // a comment\n  "a": "http://x/*y*/", /* block */\n  "b": ["c", "d\\" //",],\n}\n';
    expect(parseJsonc(text)).toEqual({ a: 'http://x/*y*/', b: ['c', 'd" //'] });
  });
});

describe('includePattern (TypeScript include globs)', () => {
  it.each([
    ['/r/src', '/r/src/a/b.ts', true],
    ['/r/src', '/r/pipelines/a.ts', false],
    ['/r/src/**/*', '/r/src/index.ts', true],
    ['/r/**/*', '/r/pipelines/hello.ts', true],
    ['/r/*.ts', '/r/pipewright.config.ts', true],
    ['/r/*.ts', '/r/pipelines/hello.ts', false],
    ['/r/pipelines/?ello.ts', '/r/pipelines/hello.ts', true],
  ])('%s matches %s: %s', (pattern, file, expected) => {
    expect(includePattern(pattern).test(file)).toBe(expected);
  });
});

describe('coverage (does the repository tsconfig.json cover what init scaffolds)', () => {
  it('a tsconfig without rootDir, include or files covers everything below it', async () => {
    expect(await covers('{ "compilerOptions": { "strict": true } }')).toEqual({ covered: true });
  });

  it('rootDir "src" leaves pipelines/ out', async () => {
    expect(await covers('{ "compilerOptions": { "rootDir": "src" } }')).toEqual({
      covered: false,
      why: 'tsconfig.json\'s "rootDir" is src',
    });
  });

  it('include ["src"] leaves pipelines/ out; include with both covers', async () => {
    expect(await covers('{ "include": ["src"] }')).toEqual({
      covered: false,
      why: 'tsconfig.json\'s "include" leaves out pipelines/hello.ts',
    });
    expect(await covers('{ "include": ["src", "pipelines", "*.ts"] }')).toEqual({ covered: true });
  });

  it('exclude takes a folder back out of include', async () => {
    expect(await covers('{ "include": ["**/*"], "exclude": ["pipelines"] }')).toMatchObject({ covered: false });
  });

  it('a solution-style root ("files": [] and references) covers nothing', async () => {
    expect(await covers('{ "files": [], "references": [{ "path": "./packages/api" }] }')).toEqual({
      covered: false,
      why: 'tsconfig.json\'s "files" leaves out pipelines/hello.ts',
    });
  });

  it('follows a relative extends, whose paths are relative to the extended file, and lets own settings win', async () => {
    const base = { 'config/base.json': '{ "compilerOptions": { "rootDir": "../src" } }' };
    expect(await covers('{ "extends": "./config/base.json" }', base)).toEqual({
      covered: false,
      why: 'tsconfig.json\'s "rootDir" is src',
    });
    expect(await covers('{ "extends": "./config/base", "compilerOptions": { "rootDir": "." } }', base)).toEqual({
      covered: true,
    });
  });

  it('says so when the tsconfig cannot be read', async () => {
    expect(await covers('{ "compilerOptions": ')).toMatchObject({
      covered: false,
      why: expect.stringMatching(/^pipewright could not read tsconfig\.json \(/),
    });
  });
});
