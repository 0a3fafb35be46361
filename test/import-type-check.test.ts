import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createImportPool } from '../src/import/check-pool.js';
import { localChecker, type ModuleChecker } from '../src/import/check-modules.js';
import { nativeChecker, nativeCompiler } from '../src/import/native-check.js';
import { createTypeChecker, removeMarks } from '../src/import/type-check.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { runCli, tempDir, writeIn } from './support/cli.js';

/**
 * The type check of generated code: one program per group of modules against pipewright's own types, errors
 * traced to the origin mark around them, marks removed from what is written; large imports check in a worker.
 */
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

describe('the type check of generated modules', () => {
  const check = createTypeChecker('/tmp/pipewright-type-check-test');

  it('finds the innermost origin mark around an error, and none for code outside every mark', () => {
    const [typed, outside] = check([
      {
        path: 'a.ts',
        text: [
          "import { pipeline, custom, shell } from 'pipewright';",
          "export const p = /*@pipewright-origin 0*/ pipeline({ identifier: 'p', name: 'p', project: 'x' })",
          "  .stage(/*@pipewright-origin 1*/ custom({ identifier: 's' }))",
          "  .step(/*@pipewright-origin 2*/ shell({ identifier: 'x', script: 'echo', nope: 1 }));",
        ].join('\n'),
      },
      { path: 'b.ts', text: "import { pipeline } from 'pipewright';\nexport const n: number = 'text';\n" },
    ]);
    expect(typed!.map((p) => p.mark)).toEqual([2]);
    expect(typed![0]!.diagnostic).toMatchObject({
      code: 'generated-code-type-error',
      location: { file: 'a.ts', line: 4, column: 75 },
    });
    expect(typed![0]!.diagnostic.message).toContain("'nope' does not exist");
    expect(outside!.map((p) => p.mark)).toEqual([undefined]);
  });

  it('passes code the builders accept, with no problems', () => {
    const [ok] = check([
      {
        path: 'c.ts',
        text: "import { custom } from 'pipewright';\nexport const s = /*@pipewright-origin 0*/ custom({ identifier: 's' });\n",
      },
    ]);
    expect(ok).toEqual([]);
  });

  it('removes the marks, and only the comments that are marks: text that looks like one in a string stays', () => {
    const text = [
      "import { shell } from 'pipewright';",
      '// a comment of the YAML',
      "export const s = /*@pipewright-origin 0*/ shell({ identifier: 's', script: '/*@pipewright-origin 9*/ echo' });",
      'export const t = `/*@pipewright-origin 8*/`; /* another comment */',
    ].join('\n');
    const plain = [
      "import { shell } from 'pipewright';",
      '// a comment of the YAML',
      "export const s = shell({ identifier: 's', script: '/*@pipewright-origin 9*/ echo' });",
      'export const t = `/*@pipewright-origin 8*/`; /* another comment */',
    ].join('\n');
    expect(removeMarks({ text })).toBe(plain);
    // Told that the printer wrote one mark, it sees the look-alikes are more than that, and parses all the same.
    expect(removeMarks({ text, marks: 1 })).toBe(plain);
  });

  it('cuts the marks out without parsing when they are all the look-alikes there are, to the same text', () => {
    const text =
      "export const s = /*@pipewright-origin 1*/ shell({ steps: [/*@pipewright-origin 0*/ a(), b('/* x */')] });";
    const plain = "export const s = shell({ steps: [a(), b('/* x */')] });";
    expect(removeMarks({ text, marks: 2 })).toBe(plain);
    expect(removeMarks({ text })).toBe(plain);
    // A string holding a look-alike numbered like a mark (a duplicate), or one beyond the count: parsed instead.
    const forged = text.replace("'/* x */'", "'/*@pipewright-origin 0*/ x'");
    expect(removeMarks({ text: forged, marks: 2 })).toBe(plain.replace("'/* x */'", "'/*@pipewright-origin 0*/ x'"));
    const beyond = text.replace("'/* x */'", "'/*@pipewright-origin 2*/'");
    expect(removeMarks({ text: beyond, marks: 2 })).toBe(plain.replace("'/* x */'", "'/*@pipewright-origin 2*/'"));
  });
});

/** A small pipeline; every tenth carries a field the builders' types refuse (a CI stage's `slsa_provenance`). */
const pipelineYaml = (index: number) => `pipeline:
  name: p${index}
  identifier: p${index}
  projectIdentifier: web
  orgIdentifier: default
  stages:
    - stage:
        name: build
        identifier: build
        type: CI
        spec:
          cloneCodebase: false${index % 10 === 0 ? '\n          slsa_provenance:\n            enabled: false' : ''}
          infrastructure:
            type: KubernetesDirect
            spec:
              connectorRef: k8s
              namespace: ci-${index}
          execution:
            steps:
              - step:
                  type: Run
                  name: test
                  identifier: test
                  timeout: 10m
                  spec:
                    connectorRef: docker
                    image: node:20
                    shell: Bash
                    command: npm test -- --shard=${index}
`;

/** Two marked modules: the first type-checks, the second has an option the builder's type refuses. */
const moduleThatChecksAndOneThatDoesNot = (okPath: string) => [
  {
    path: okPath,
    text: "import { custom } from 'pipewright';\nexport const s = /*@pipewright-origin 0*/ custom({identifier:'s'});\n",
  },
  {
    path: 'bad.ts',
    text: "import { custom } from 'pipewright';\nexport const s = /*@pipewright-origin 0*/ custom({ identifier: 's', nope: 1 });\n",
  },
];

describe('the workers of a large import', () => {
  /** What a pool (or this thread standing in for it) answers for one module that type-checks and one that does not. */
  const expectChecksAndFormats = async (pool: ReturnType<typeof createImportPool>) => {
    const [ok, bad] = await pool.check(modules);
    expect(ok).toEqual([]);
    expect(bad!.map((problem) => problem.mark)).toEqual([0]);
    // Formatting removes the marks too (only real comments: the look-alike in the string stays).
    expect(
      await pool.format([
        { text: 'export const s = /*@pipewright-origin 3*/ custom({identifier:"/*@pipewright-origin 1*/"})' },
      ]),
    ).toEqual(["export const s = custom({ identifier: '/*@pipewright-origin 1*/' });\n"]);
  };
  const modules = moduleThatChecksAndOneThatDoesNot('ok.ts');

  it('check in one worker and format in another: marks gone, code formatted, problems traced to their mark', async () => {
    const pool = createImportPool('/tmp/pipewright-pool-test', () => Promise.reject(new Error('no fallback expected')));
    try {
      await expectChecksAndFormats(pool);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('formats in chunks: the worker holds a few, this thread takes what waits, and every answer is in its place', async () => {
    const pool = createImportPool('/tmp/pipewright-pool-test', () => Promise.reject(new Error('no fallback expected')));
    try {
      const many = Array.from({ length: 100 }, (_, at) => ({
        text: `export const s${at} = custom({identifier:"s${at}"})`,
      }));
      const formatted = pool.format(many);
      // 100 modules are 7 chunks: the worker holds 3, so 4 wait; this thread takes some (the worker, answering
      // meanwhile, the others), then finds none.
      let taken = 0;
      while (await pool.formatHere()) taken++;
      expect(taken).toBeGreaterThanOrEqual(1);
      expect(taken).toBeLessThanOrEqual(4);
      expect(await pool.formatHere()).toBe(false);
      expect(await formatted).toEqual(many.map((_, at) => `export const s${at} = custom({ identifier: 's${at}' });\n`));
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('a worker that runs out of memory leaves its work to this thread, which does it the same way', async () => {
    const here = localChecker('/tmp/pipewright-pool-test');
    const calls: string[][] = [];
    const fallback: ModuleChecker = (group) => (calls.push(group.map((module) => module.path)), here(group));
    // A heap far too small for TypeScript's library files, or for prettier: both workers die at their first task.
    const pool = createImportPool('/tmp/pipewright-pool-test', fallback, { heapMb: { checker: 4, formatter: 4 } });
    try {
      await expectChecksAndFormats(pool);
      expect(calls).toEqual([['ok.ts', 'bad.ts']]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe("TypeScript 7's native compiler", () => {
  const modules = moduleThatChecksAndOneThatDoesNot('sub/ok.ts');

  it('is found (a dev dependency here), and checks as the in-process check does: errors traced to their mark', async () => {
    const compiler = nativeCompiler();
    expect(compiler).toMatch(/(tsgo|tsc)$/);
    const [ok, bad] = await nativeChecker(compiler!)(modules);
    expect(ok).toEqual([]);
    expect(bad!.map((problem) => problem.mark)).toEqual([0]);
    expect(bad![0]!.diagnostic).toMatchObject({ location: { file: 'bad.ts', line: 2, column: 69 } });
    expect(bad![0]!.diagnostic.message).toContain("'nope' does not exist");
    const [inProcess] = createTypeChecker('/tmp/pipewright-native-test')([modules[1]!]);
    expect(inProcess!.map((problem) => problem.diagnostic.location)).toEqual([{ file: 'bad.ts', line: 2, column: 69 }]);
  }, 60_000);

  it('a compiler that does not run leaves the check to this thread', async () => {
    const here = localChecker('/tmp/pipewright-pool-test');
    const calls: string[][] = [];
    const fallback: ModuleChecker = (group) => (calls.push(group.map((module) => module.path)), here(group));
    const pool = createImportPool('/tmp/pipewright-pool-test', fallback, {
      native: nativeChecker(join(dir, 'no-such-compiler.js')),
    });
    try {
      const [ok, bad] = await pool.check(modules);
      expect(calls).toEqual([['sub/ok.ts', 'bad.ts']]);
      expect(ok).toEqual([]);
      expect(bad!.map((problem) => problem.mark)).toEqual([0]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('a large import', () => {
  it('checks in a worker thread and falls back there as in one thread: 120 documents, every tenth refused in part', async () => {
    const count = 120;
    for (let index = 0; index < count; index++) await writeIn(dir, `yaml/p${index}.yaml`, pipelineYaml(index));
    const files = Array.from({ length: count }, (_, index) => `yaml/p${index}.yaml`);
    const imported = await runCli(['import', ...files, '-o', 'ts'], { cwd: dir });
    // Every tenth falls back, and says so, from the worker threads as from this one.
    expect(imported.stderr).not.toContain('[error');
    expect(
      imported.stderr.match(
        /written as stage\(\) in p\d+\.ts: ci\(\) has no option for spec\.slsa_provenance \[warning import-fallback\]/g,
      ),
    ).toHaveLength(count / 10);
    expect(imported.code).toBe(0);
    const modules = (await readdir(join(dir, 'ts'))).filter((name) => name.endsWith('.ts'));
    expect(modules).toHaveLength(count);
    const refused = await readFile(join(dir, 'ts/p10.ts'), 'utf8');
    const accepted = await readFile(join(dir, 'ts/p11.ts'), 'utf8');
    expect(refused).toMatch(/stage\(\{\n\s+identifier: 'build',\n\s+type: 'CI'/);
    expect(accepted).toMatch(/ci\(\{\n\s+identifier: 'build'/);
    for (const text of [refused, accepted]) expect(text).not.toContain('@pipewright-origin');
    const compiled = await runCli(['compile', 'ts/*.ts', '-o', 'out'], { cwd: dir });
    expect(compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
    for (const index of [0, 10, 11, 119]) {
      const back = readYaml(await readFile(join(dir, `out/pipelines/default/web/p${index}.yaml`), 'utf8'), 'out')
        .documents[0]!.value;
      expect(back).toEqual(readYaml(pipelineYaml(index), 'in').documents[0]!.value);
    }
  }, 180_000);
});
