import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupDiagnostics, type Diagnostic, type SourceLocation } from '../src/core/diagnostics.js';
import { runCli, tempDir, writeIn } from './support/cli.js';

// One mistake in a shared step used by many pipelines is one diagnostic with a count and a few of the places,
// not one line per pipeline; the same mistake at different places (each YAML file its own) stays apart.

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-grouping-')));
afterEach(async () => cleanup());

const SHARED = `import { shell } from 'pipewright';
// Defined once, used by every pipeline: one mistake in the timeout, one misspelt option.
export const deployStaging = () =>
  shell({ identifier: 'deploy_staging', script: './deploy.sh', timeout: '10x', shel: 'Bash' } as never);
`;
const PROJECT = `import { project } from 'pipewright';
export const web = project({ identifier: 'web', org: 'default' });
`;
const pipelineFile = (n: number) => `import { pipeline, stage } from 'pipewright';
import { web } from './a-project.js';
import { deployStaging } from '../lib/steps.js';
export const svc_${n} = pipeline({ identifier: 'svc_${n}_cd', name: 'svc ${n}', project: web })
  .stage(stage({ identifier: 'deploy', type: 'Custom', spec: {} }).step(deployStaging()));
`;
const PIPELINES = 50;

async function writeProject(): Promise<void> {
  await writeIn(dir, 'lib/steps.ts', SHARED);
  await writeIn(dir, 'defs/a-project.ts', PROJECT);
  for (let n = 1; n <= PIPELINES; n++) await writeIn(dir, `defs/svc_${n}.ts`, pipelineFile(n));
}

const compile = (batchSize: number, args: readonly string[] = []) =>
  runCli(['compile', 'defs/*.ts', '-o', 'out', ...args], {
    cwd: dir,
    env: { PIPEWRIGHT_BATCH_SIZE: String(batchSize), PIPEWRIGHT_NO_CACHE: '1' },
  });

describe('grouping the same mistake at the same place', () => {
  it('compile reports a shared step mistake once, with the count and the first places, in one thread and in batches', async () => {
    await writeProject();
    const one = await compile(0);
    expect(one.code).toBe(1);
    const places = `(in ${PIPELINES} places: svc_1_cd > deploy > deploy_staging, svc_2_cd > deploy > deploy_staging, svc_3_cd > deploy > deploy_staging, ... and ${PIPELINES - 3} more)`;
    expect(one.stderr).toBe(
      `lib/steps.ts:4:3  shell() has no option "shel" ${places} [error unknown-option]\n` +
        '    hint: did you mean "shell"?\n' +
        `lib/steps.ts:4:3  timeout "10x" is not a duration (e.g. 10m, 1h30m, 1d) ${places} [error invalid-format]\n` +
        '\n2 errors\n',
    );
    // Batches of 7 files: each worker finds its own share, the main thread reports the same two lines.
    const batched = await compile(7);
    expect(batched.code).toBe(1);
    expect(batched.stderr).toBe(one.stderr);
  });

  it('puts the count and the places in --json, the same in batches', async () => {
    await writeProject();
    const one = JSON.parse((await compile(0, ['--json'])).stdout) as { diagnostics: Array<Record<string, unknown>> };
    const timeout = one.diagnostics.find((d) => d.code === 'invalid-format')!;
    expect(timeout).toMatchObject({ location: { file: 'lib/steps.ts', line: 4, column: 3 }, count: PIPELINES });
    expect(timeout.subject).toBeUndefined();
    expect(timeout.places).toHaveLength(10);
    expect((timeout.places as string[]).slice(0, 2)).toEqual([
      'pipeline "svc_1_cd" > stage "deploy" > step "deploy_staging"',
      'pipeline "svc_2_cd" > stage "deploy" > step "deploy_staging"',
    ]);
    const batched = JSON.parse((await compile(7, ['--json'])).stdout);
    expect(batched.diagnostics).toEqual(one.diagnostics);
  });

  it('leaves a mistake used once as it was: its subject, no count', async () => {
    await writeIn(dir, 'lib/steps.ts', SHARED);
    await writeIn(dir, 'defs/a-project.ts', PROJECT);
    await writeIn(dir, 'defs/svc_1.ts', pipelineFile(1));
    const result = await compile(0);
    expect(result.stderr).toContain(
      'lib/steps.ts:4:3  pipeline "svc_1_cd" > stage "deploy" > step "deploy_staging": timeout "10x" is not a duration',
    );
    expect(result.stderr).not.toContain('places');
  });

  it('validate does not merge the same mistake in different files: each has its own location', async () => {
    const yaml = (n: number) =>
      `pipeline:\n  identifier: svc_${n}\n  name: svc ${n}\n  projectIdentifier: web\n  orgIdentifier: default\n  stages:\n` +
      '    - stage:\n        identifier: deploy\n        name: deploy\n        type: Custom\n        spec:\n          execution:\n            steps:\n' +
      '              - step:\n                  identifier: deploy_staging\n                  name: deploy_staging\n                  type: ShellScript\n' +
      '                  timeout: 10x\n                  spec:\n                    shell: Bash\n                    onDelegate: true\n' +
      '                    source:\n                      type: Inline\n                      spec:\n                        script: ./deploy.sh\n';
    for (let n = 1; n <= 3; n++) await writeIn(dir, `p${n}.yaml`, yaml(n));
    const result = await runCli(['validate', 'p1.yaml', 'p2.yaml', 'p3.yaml', '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    const found = (JSON.parse(result.stdout) as { diagnostics: Array<Record<string, unknown>> }).diagnostics;
    expect(
      found.map((d) => [d.code, (d.location as SourceLocation).file, (d.location as SourceLocation).line, d.count]),
    ).toEqual([
      ['invalid-format', 'p1.yaml', 18, undefined],
      ['invalid-format', 'p2.yaml', 18, undefined],
      ['invalid-format', 'p3.yaml', 18, undefined],
    ]);
  });
});

describe('groupDiagnostics', () => {
  const STEPS: SourceLocation = { file: 'lib/steps.ts', line: 4, column: 3 };
  const at = (subject: string, location: SourceLocation = STEPS): Diagnostic => ({
    code: 'invalid-format',
    severity: 'error',
    message: 'bad',
    path: ['x'],
    subject,
    location,
  });

  it('merges already grouped diagnostics by adding their counts (worker batches), and keeps different places apart', () => {
    const first = groupDiagnostics([at('pipeline "a"'), at('pipeline "b"')]);
    const second = groupDiagnostics([at('pipeline "c"'), at('pipeline "d"'), at('pipeline "e"')]);
    const other: SourceLocation = { file: 'lib/other.ts', line: 1, column: 1 };
    const merged = groupDiagnostics([...first, ...second, at('pipeline "f"', other)]);
    expect(merged).toEqual([
      {
        code: 'invalid-format',
        severity: 'error',
        message: 'bad',
        path: ['x'],
        location: STEPS,
        count: 5,
        places: ['pipeline "a"', 'pipeline "b"', 'pipeline "c"', 'pipeline "d"', 'pipeline "e"'],
      },
      at('pipeline "f"', other),
    ]);
  });

  it('never merges diagnostics without a place, nor different messages at one place', () => {
    const unplaced: Diagnostic = { code: 'no-entries', severity: 'error', message: 'none', path: [] };
    const other: Diagnostic = { ...at('pipeline "a"'), message: 'worse' };
    expect(groupDiagnostics([unplaced, unplaced, at('pipeline "a"'), other])).toEqual([
      unplaced,
      unplaced,
      at('pipeline "a"'),
      other,
    ]);
  });
});
