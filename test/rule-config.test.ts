import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateDocument } from '../src/check/check-document.js';
import { runCli, tempDir, writeIn } from './support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const write = (file: string, text: string) => writeIn(dir, file, text);
const config = (rules: string) =>
  write(
    'pipewright.config.ts',
    `import { defineConfig } from 'pipewright';\nexport default defineConfig({ include: ['defs/*.ts'], rules: ${rules} });\n`,
  );

const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
const pipelineWith = (script: string, type = 'ShellScript') => `import { custom, pipeline, step } from 'pipewright';
export const p = pipeline({ identifier: 'p', project: 'web' })
  .stage(custom({ identifier: 's' }))
  .step(step({ identifier: 'x', type: '${type}', timeout: '1m', spec: { shell: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { script: ${JSON.stringify(script)} } } } }));
`;

describe('rules in pipewright.config.ts', () => {
  it('switches a warning off in compile', async () => {
    await write('defs/p.ts', pipelineWith(`curl -H "token: ${TOKEN}"`));
    const warned = await runCli(['compile', 'defs/p.ts'], { cwd: dir });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('possible-secret');
    await config(`{ 'possible-secret': 'off' }`);
    const quiet = await runCli(['compile'], { cwd: dir });
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
  });

  it('raises a warning to an error, which stops compile before it writes anything', async () => {
    await write('defs/p.ts', pipelineWith('echo <+pipeline.stages.nope.variables.x>'));
    await config(`{ 'unknown-reference': 'error' }`);
    const result = await runCli(['compile', '-o', 'out'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[error unknown-reference]');
    expect(result.stderr).toContain('defs/p.ts:');
  });

  it('lowers a configurable error to a warning, and the document is written', async () => {
    await write('defs/p.ts', pipelineWith('echo hi', 'ShelScript'));
    expect((await runCli(['compile', 'defs/p.ts'], { cwd: dir })).stderr).toContain('[error unknown-type]');
    await config(`{ 'unknown-type': 'warning' }`);
    const result = await runCli(['compile', '-o', 'out'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('[warning unknown-type]');
    expect(result.stdout).toContain('compiled 1 document to out');
  });

  it('refuses a code about the run rather than a document, saying which codes are configurable', async () => {
    await write('defs/p.ts', pipelineWith('echo hi'));
    await config(`{ 'file-not-found': 'off' } as never`);
    const result = await runCli(['compile'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipewright.config.ts  config:');
    expect(result.stderr).toContain('file-not-found');
    expect(result.stderr).toContain('every code about a document');
  });

  it('is honoured by validate run in the project', async () => {
    await write(
      'p.yaml',
      `pipeline:\n  name: p\n  identifier: p\n  projectIdentifier: web\n  orgIdentifier: default\n  stages:\n    - stage:\n        name: s\n        identifier: s\n        type: Custom\n        spec:\n          execution:\n            steps:\n              - step:\n                  name: x\n                  identifier: x\n                  type: ShellScript\n                  timeout: 1m\n                  spec:\n                    shell: Bash\n                    onDelegate: true\n                    source:\n                      type: Inline\n                      spec:\n                        script: echo ${TOKEN}\n`,
    );
    const warned = await runCli(['validate', 'p.yaml'], { cwd: dir });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('possible-secret');
    await config(`{ 'possible-secret': 'off' }`);
    const quiet = await runCli(['validate', 'p.yaml'], { cwd: dir });
    expect(quiet).toMatchObject({ code: 0, stderr: '', stdout: '1 document in 1 file: valid\n' });
  });
});

describe('rule settings', () => {
  const document = (identifier: string, script: string) => ({
    pipeline: {
      name: 'p',
      identifier,
      projectIdentifier: 'web',
      orgIdentifier: 'default',
      variables: [{ name: 'v', type: 'String', value: script }],
    },
  });
  // The documents have no stages, which the schema says every time: left out of what is compared.
  const codes = (doc: unknown, settings?: Parameters<typeof validateDocument>[2]) =>
    validateDocument('pipeline', doc, settings)
      .filter((d) => d.code !== 'missing-field')
      .map((d) => `${d.severity} ${d.code}`);

  it("switching the placeholder rule off leaves the schema's own verdict on a value it refuses", () => {
    expect(codes(document('${PIPELINE}', 'x'))).toEqual(['error unsubstituted-placeholder']);
    expect(codes(document('${PIPELINE}', 'x'), { 'unsubstituted-placeholder': 'off' })).toEqual([
      'error invalid-format',
    ]);
  });

  it('drops, keeps or re-grades only the codes named', () => {
    const doc = document('p', `<+input>.bogus(1) ${TOKEN}`);
    expect(codes(doc)).toEqual(['warning invalid-runtime-input', 'warning possible-secret']);
    expect(codes(doc, { 'possible-secret': 'off' })).toEqual(['warning invalid-runtime-input']);
    expect(codes(doc, { 'invalid-runtime-input': 'error', 'possible-secret': 'warning' })).toEqual([
      'error invalid-runtime-input',
      'warning possible-secret',
    ]);
  });
});
