import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeIn } from './support/cli.js';
import { assertNoKey, emulatorsPerTest, FAST_RETRIES, runBinary } from './support/emulator-run.js';
import { seedDocument } from './support/emulator-seed.js';
import { projectDoc, type Doc } from './support/emulator-output.js';
import { ACCOUNT_ID, ADMIN_KEY } from './support/emulator.js';

/**
 * The attack on the binary: a pipeline YAML whose comments, values, identifier and file name hold U+2028/U+2029
 * followed by code. JavaScript ends a `//` comment at those characters, so printed as they are the code would
 * become statements of the generated module, and `pipewright compile` would run them. Import then compile, the
 * real binary: no code runs, and the comments stay comments.
 */
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-attack-')));
afterEach(async () => cleanup());

const LS = '\u2028';
const PS = '\u2029';

/** Code that leaves a trace if it runs: a file, or the process's exit status. */
const payloads = (marker: string) => ({
  write: `process.getBuiltinModule('fs').writeFileSync('${marker}', 'pwned')`,
  exit: 'globalThis.process.exit(7)',
});

const pipelineYaml = (marker: string, identifier: string) => {
  const { write, exit } = payloads(marker);
  return `# note${LS}${write}
pipeline:
  name: release
  identifier: "${identifier}"
  description: "release${LS}${exit}"
  projectIdentifier: web
  orgIdentifier: default
  # stages${PS}${exit}
  stages:
    - stage:
        name: build # trailing${LS}${write}
        identifier: build
        type: Custom
        spec:
          execution:
            steps:
              # the step${LS}*/${exit}//
              - step:
                  name: echo
                  identifier: echo
                  type: ShellScript
                  timeout: 10m
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: "echo \`\${x}\` ${LS} done"
`;
};

/** The statements of a module, as TypeScript reads them: their kinds, and the module's comments' text. */
function statementsOf(text: string): { kinds: string[]; comments: string } {
  const file = ts.createSourceFile('m.ts', text, ts.ScriptTarget.Latest, true);
  const comments: string[] = [];
  const visit = (node: ts.Node) => {
    for (const range of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [])
      comments.push(text.slice(range.pos, range.end));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return {
    kinds: file.statements.map((s) =>
      ts.isImportDeclaration(s) ? 'import' : ts.isVariableStatement(s) ? 'const' : ts.SyntaxKind[s.kind]!,
    ),
    comments: [...new Set(comments)].join('\n'),
  };
}

describe('an attacker’s YAML imported and compiled runs no code', () => {
  it('comments and a description holding U+2028/U+2029 then code stay comments and text: compile runs nothing', async () => {
    const marker = join(dir, 'pwned');
    await writeIn(dir, 'release.yaml', pipelineYaml(marker, 'release'));
    const imported = await runCli(['import', 'release.yaml', '-o', 'ts'], { cwd: dir });
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    const text = await readFile(join(dir, 'ts/release.ts'), 'utf8');
    expect(text).not.toMatch(/[\u2028\u2029]/);
    const { kinds, comments } = statementsOf(text);
    expect(kinds).toEqual(['import', 'const']);
    // Each comment survives as comment lines, split where the separator was.
    expect(comments).toContain(`// note\n//${payloads(marker).write}`);
    expect(comments).toContain(`//${payloads(marker).exit}`);
    expect(comments).toContain(`// the step\n//*/${payloads(marker).exit}//`);

    const compiled = await runCli(['compile', 'ts/release.ts', '-o', 'out'], { cwd: dir });
    expect(compiled).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(marker)).toBe(false);
    const yaml = await readFile(
      join(
        dir,
        'out',
        (await readdir(join(dir, 'out'), { recursive: true })).find((f) => f.endsWith('.yaml'))!,
      ),
      'utf8',
    );
    // The description and the script are data: compiled back to the text they were.
    const { pipeline } = parse(yaml) as { pipeline: { description: string; stages: unknown } };
    expect(pipeline.description).toBe(`release${LS}globalThis.process.exit(7)`);
    expect(JSON.stringify(pipeline.stages)).toContain(JSON.stringify(`echo \`\${x}\` ${LS} done`).slice(1, -1));
  });

  it('an identifier and a file name holding U+2028 then code are refused as identifiers before any path, and run nothing', async () => {
    const marker = join(dir, 'pwned');
    const { exit } = payloads(marker);
    const file = `evil${LS}${exit}.yaml`;
    await writeIn(dir, file, pipelineYaml(marker, `evil${LS}${exit}`));
    const imported = await runCli(['import', file, '-o', 'ts'], { cwd: dir });
    // The platform's identifier rule refuses it before it becomes a path: nothing is written, and the identifier is
    // printed with the separator as text.
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain('identifier "evil\\u2028globalThis.process.exit(7)" is not an identifier');
    expect(imported.stderr).toContain('[error unsafe-identity]');
    // (The file's own name, the user's, is printed as it is in the location.)
    expect(imported.stderr).not.toMatch(/unexpected error|\n\s+at .*:\d+:\d+/);
    const written = existsSync(join(dir, 'ts')) ? await readdir(join(dir, 'ts')) : [];
    expect(written.filter((f) => f.endsWith('.ts'))).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  it('keys named __proto__, constructor and prototype survive import and compile as fields', async () => {
    await writeIn(
      dir,
      'keys.yaml',
      `pipeline:
  name: keys
  identifier: keys
  projectIdentifier: web
  orgIdentifier: default
  tags:
    __proto__: polluted
    constructor: c
    prototype: p
  __proto__:
    isAdmin: true
  stages:
    - stage:
        name: build
        identifier: build
        type: Custom
        spec:
          execution:
            steps:
              - step:
                  name: echo
                  identifier: echo
                  type: ShellScript
                  timeout: 10m
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: echo
`,
    );
    const imported = await runCli(['import', 'keys.yaml', '-o', 'ts'], { cwd: dir });
    expect(imported.code).toBe(0);
    const text = await readFile(join(dir, 'ts/keys.ts'), 'utf8');
    expect(text).toContain("['__proto__']: 'polluted'");
    expect(text).not.toMatch(/(^|[^[])'?__proto__'?:/m);
    const compiled = await runCli(['compile', 'ts/keys.ts', '-o', 'out'], { cwd: dir });
    expect(compiled).toMatchObject({ code: 0, stderr: '' });
    const [file] = (await readdir(join(dir, 'out'), { recursive: true })).filter((f) => f.endsWith('.yaml'));
    const { pipeline } = parse(await readFile(join(dir, 'out', file!), 'utf8')) as {
      pipeline: Record<string, unknown>;
    };
    expect(Object.getOwnPropertyNames(pipeline.tags)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(Object.getOwnPropertyDescriptor(pipeline, '__proto__')?.value).toEqual({ isAdmin: true });
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('negative: the same payloads after a U+2028 in a hand-written comment do run (the test sees code that runs)', async () => {
    const marker = join(dir, 'pwned');
    const module = (payload: string) =>
      `import { project } from 'pipewright';\n// a comment${LS}${payload};\nexport const p = project({ identifier: 'p' });\n`;
    await writeIn(dir, 'ts/write.ts', module(payloads(marker).write));
    await runCli(['compile', 'ts/write.ts', '-o', 'out'], { cwd: dir });
    expect(existsSync(marker)).toBe(true);
    await writeIn(dir, 'ts/exit.ts', module(payloads(marker).exit));
    expect((await runCli(['compile', 'ts/exit.ts', '-o', 'out'], { cwd: dir })).code).toBe(7);
  });
});

describe('a pipeline on the platform whose YAML carries code after U+2028, pulled and compiled, runs no code', () => {
  const session = emulatorsPerTest('pipewright-pull-attack-');

  it('pull writes values as escaped text and comments as comments (import project mode, the same printer); compile runs nothing', async () => {
    const em = await session.emulate();
    const marker = join(session.work, 'pwned');
    const { write, exit } = payloads(marker);
    // The emulator serves a pipeline as its fields written again (no comments); a service as the text it was given.
    const pipelineText = pipelineYaml(marker, 'release').replace('projectIdentifier: web', 'projectIdentifier: shop');
    const serviceText = `# note${LS}${write}
service:
  name: web
  identifier: web
  orgIdentifier: default
  projectIdentifier: shop
  description: "web${PS}${exit}"
  # definition${PS}${exit}
  serviceDefinition:
    type: Kubernetes
    spec:
      variables:
        - name: replicas # count${LS}${write}
          type: String
          value: "2"
`;
    seedDocument(em, projectDoc('shop'));
    seedDocument(em, parse(pipelineText) as Doc, { raw: pipelineText });
    seedDocument(em, parse(serviceText) as Doc, { raw: serviceText });
    const env = {
      HARNESS_API_KEY: ADMIN_KEY,
      HARNESS_ACCOUNT_ID: ACCOUNT_ID,
      HARNESS_BASE_URL: em.url,
      ...FAST_RETRIES,
    };
    const pulled = await runBinary(['pull', '-o', 'platform'], { cwd: session.work, env });
    assertNoKey(pulled);
    expect(pulled.code).toBe(0);
    const project = join(session.work, 'platform');
    const modules = (await readdir(project, { recursive: true })).filter(
      (file) => /^(pipelines|services)\//.test(file) && file.endsWith('.ts'),
    );
    expect(modules.sort()).toEqual(['pipelines/default/shop/release.ts', 'services/default/shop/web.ts']);
    for (const file of modules) {
      const text = await readFile(join(project, file), 'utf8');
      expect(text).not.toMatch(/[\u2028\u2029]/);
      // Pull's modules import the project's module beside pipewright.
      expect(statementsOf(text).kinds, text).toEqual(['import', 'import', 'const']);
    }
    const service = statementsOf(await readFile(join(project, 'services/default/shop/web.ts'), 'utf8'));
    expect(service.comments).toContain(`// note\n//${write}`);
    expect(service.comments).toContain(`//${exit}`);
    const compiled = await runBinary(['compile'], { cwd: project });
    expect(compiled).toMatchObject({ code: 0 });
    expect(existsSync(marker)).toBe(false);
  });
});
