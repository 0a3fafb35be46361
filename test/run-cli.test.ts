import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, writeIn } from './support/cli.js';
import { ACCOUNT_ID } from './support/emulator.js';
import { assertNoKey, emulatorsPerTest, runBinary } from './support/emulator-run.js';
import { failing, plain, runEnv, seedPipelines, succeeding } from './support/run-fixtures.js';

const setup = emulatorsPerTest('pipewright-run-');

/** `pipewright run ...args` in the test's folder against `emulator`; every run's output is scanned for keys. */
async function run(args: readonly string[], env: Record<string, string | undefined>) {
  const result = await runBinary(['run', ...args], { cwd: setup.work, env });
  assertNoKey(result);
  return result;
}

describe('pipewright run: a pipeline of the compiled output, followed to its end', () => {
  it("runs with an input set of the project's own TypeScript: its compiled file given to --inputs", async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 10 } });
    seedPipelines(emulator, [succeeding()]);
    const inputSet = {
      inputSet: {
        name: 'prod',
        identifier: 'prod',
        orgIdentifier: 'default',
        projectIdentifier: 'shop',
        pipeline: {
          identifier: 'deploy',
          variables: [
            { name: 'env', type: 'String', value: 'prod' },
            { name: 'tag', type: 'String', value: 'v9' },
          ],
        },
      },
    };
    const out = await setup.compiled([succeeding(), inputSet]);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as {
      files: Array<{ file: string; kind: string }>;
    };
    const file = manifest.files.find((entry) => entry.kind === 'inputSet')!.file;
    const result = await run(['deploy', '--inputs', join('out', file)], runEnv(emulator));
    expect(result.code, result.stderr).toBe(0);
    const [id] = [...emulator.executions.runs.keys()];
    const sent = emulator.executions.runs.get(id!)!.inputs;
    expect(sent).toMatch(/name: env\n\s+type: String\n\s+value: prod/);
    expect(sent).toMatch(/name: tag\n\s+type: String\n\s+value: v9/);
  });

  it('prints each retried status read with --debug only, and the run still ends in success', async () => {
    // Every other status read is answered 429: each is retried, and only --debug says so.
    const faults = {
      rate: 0.5,
      kinds: ['too-many-requests' as const],
      seed: 3,
      match: ({ path }: { path: string }) => path.includes('/pipeline/api/pipelines/execution/v2/'),
    };
    const env = (emulator: Parameters<typeof runEnv>[0]) => ({ ...runEnv(emulator), PIPEWRIGHT_RETRY_BASE_MS: '20' });
    const values = ['--set', 'variables.env=prod', '--set', 'variables.tag=v1'];
    const emulator = await setup.emulate({ executions: { stepMs: 30 }, faults });
    seedPipelines(emulator, [succeeding()]);
    await setup.compiled([succeeding()]);
    const debugged = await run(['deploy', ...values, '--debug'], env(emulator));
    expect(debugged.code, debugged.stderr).toBe(0);
    expect(emulator.rateLimited).toBeGreaterThan(0);
    expect(debugged.stderr).toMatch(
      /^debug: GET \/gateway\/pipeline\/api\/pipelines\/execution\/v2\/\S+: .*HTTP 429.*; attempt \d+ in \d+ ms$/m,
    );
    const quiet = await run(['deploy', ...values], env(emulator));
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toMatch(/debug:/);
  });

  it('exits 0 when the execution succeeds, printing its id and URL at once and each stage and step as it changes', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 30 } });
    seedPipelines(emulator, [succeeding()]);
    await setup.compiled([succeeding()]);
    const result = await run(['deploy', '--set', 'variables.env=prod', '--set', 'variables.tag=v1'], runEnv(emulator));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [id] = [...emulator.executions.runs.keys()];
    const url = `${emulator.url}/ng/account/${ACCOUNT_ID}/all/orgs/default/projects/shop/pipelines/deploy/executions/${id}/pipeline`;
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      "3 runtime inputs checked against the project's compiled pipeline: 2 given, 1 by default",
      `started execution ${id}`,
      `  ${url}`,
    ]);
    // Each stage and step's last status is printed once (polls may fall between the changes before it).
    const ended = lines
      .filter((line) => /^(stage|step) .* Success( |$)/.test(line))
      .map((line) => line.replace(/ \(.*$/, ''));
    expect(ended.sort()).toEqual([
      'stage build Success',
      'stage ship Success',
      'step build/compile Success',
      'step build/test Success',
      'step ship/push Success',
    ]);
    expect(result.stdout).toMatch(new RegExp(`execution ${id} of pipeline "deploy": Success`));
    expect(emulator.executions.statusOf(id!)).toBe('Success');
    // The runtime inputs sent: the values given, the default, and the identity of the variables.
    const sent = emulator.executions.runs.get(id!)!.inputs;
    expect(sent).toContain('identifier: deploy');
    expect(sent).toMatch(/name: env\n\s+type: String\n\s+value: prod/);
    expect(sent).toMatch(/name: replicas\n\s+type: Number\n\s+value: 2/);
  });

  it("exits 1 when a step fails, naming the stage, the step and the platform's message", async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 20 } });
    seedPipelines(emulator, [failing()]);
    await setup.compiled([failing()]);
    const result = await run(['deploy', '--set', 'variables.env=dev', '--set', 'variables.tag=v1'], runEnv(emulator));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /execution \w+ of pipeline "deploy": Failed at stage ship, step rollout \(Failed\): Shell Script execution failed: exit status 1\n$/,
    );
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
    // The step after the failure never ran.
    expect(result.stdout).not.toContain('ship/after');
  });

  it("refuses a missing input and a value outside allowedValues before any execute request, with render's messages", async () => {
    const emulator = await setup.emulate();
    seedPipelines(emulator, [succeeding()]);
    await setup.compiled([succeeding()]);
    const result = await run(['deploy', '--set', 'variables.env=staging'], runEnv(emulator));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipeline.variables.env: "staging" is not among its allowed values dev, prod');
    expect(result.stderr).toContain('runtime input pipeline.variables.tag gets no value');
    expect(result.stdout).toBe('');
    expect(emulator.executions.executes).toEqual([]);
    expect(emulator.requests.filter((r) => r.path.includes('/execute'))).toEqual([]);
  });

  it('refuses a --set name the pipeline does not have, suggesting the closest, before any request to execute', async () => {
    const emulator = await setup.emulate();
    seedPipelines(emulator, [succeeding()]);
    await setup.compiled([succeeding()]);
    const result = await run(['deploy', '--set', 'variables.env=dev', '--set', 'variables.tga=v1'], runEnv(emulator));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--set: pipeline "deploy" has no runtime input variables.tga');
    expect(result.stderr).toContain('did you mean "pipeline.variables.tag"?');
    expect(emulator.executions.executes).toEqual([]);
  });

  it("types a --set value by the variable's declared type: a Number variable takes a number, and refuses text", async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 5 } });
    seedPipelines(emulator, [succeeding()]);
    await setup.compiled([succeeding()]);
    const refused = await run(
      ['deploy', '--set', 'variables.env=dev', '--set', 'variables.tag=v1', '--set', 'variables.replicas=three'],
      runEnv(emulator),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'pipeline.variables.replicas: "three" is not a number, and the variable is of type Number',
    );
    expect(emulator.executions.executes).toEqual([]);
    const typed = await run(
      [
        'deploy',
        '--set',
        'variables.env=dev',
        '--set',
        'variables.tag=v1',
        '--set',
        'variables.replicas=3',
        '--no-wait',
      ],
      runEnv(emulator),
    );
    expect(typed.code).toBe(0);
    const [run1] = emulator.executions.runs.values();
    expect(run1!.inputs).toMatch(/name: replicas\n\s+type: Number\n\s+value: 3\n/);
  });

  it('takes the runtime inputs from an --inputs file (pipeline: form), locating a refused value in it', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 5 } });
    seedPipelines(emulator, [succeeding()]);
    await setup.compiled([succeeding()]);
    await writeIn(
      setup.work,
      'inputs.yaml',
      'pipeline:\n  identifier: deploy\n  variables:\n    - name: env\n      type: String\n      value: qa\n    - name: tag\n      type: String\n      value: v2\n',
    );
    const refused = await run(['deploy', '--inputs', 'inputs.yaml'], runEnv(emulator));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('inputs.yaml:6:14');
    expect(refused.stderr).toContain('"qa" is not among its allowed values dev, prod');
    const given = await run(['deploy', '--inputs', 'inputs.yaml', '--set', 'variables.env=prod'], runEnv(emulator));
    expect(given.code).toBe(0);
  });
});

describe('pipewright run: a pipeline only the platform holds, and input sets', () => {
  it("reads the runtime inputs from the platform's template and runs with input sets by reference, merged in order", async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 5 } });
    seedPipelines(emulator, [succeeding()]);
    for (const [identifier, env, tag] of [
      ['base', 'dev', 'v1'],
      ['prod', 'prod', undefined],
    ] as const)
      emulator.seed({
        kind: 'inputSet',
        org: 'default',
        project: 'shop',
        parent: 'deploy',
        identifier,
        body: {
          identifier,
          name: identifier,
          orgIdentifier: 'default',
          projectIdentifier: 'shop',
          pipeline: {
            identifier: 'deploy',
            variables: [
              { name: 'env', type: 'String', value: env },
              ...(tag ? [{ name: 'tag', type: 'String', value: tag }] : []),
            ],
          },
        },
      });
    const result = await run(['default/shop/deploy', '--input-set', 'base', '-i', 'prod'], runEnv(emulator));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "3 runtime inputs checked against the platform's runtime-input template: 2 given, 1 by default",
    );
    expect(emulator.executions.templateReads).toEqual(['deploy']);
    const [execute] = emulator.executions.executes;
    expect(execute!.path).toBe('/pipeline/api/pipeline/execute/deploy/inputSetList');
    const body = JSON.parse(execute!.body) as { inputSetReferences: string[]; lastYamlToMerge: string };
    expect(body.inputSetReferences).toEqual(['base', 'prod']);
    // What the input sets give, merged in order (prod's env wins), is what was checked and sent last.
    expect(body.lastYamlToMerge).toMatch(/name: env\n\s+type: String\n\s+value: prod/);
    expect(body.lastYamlToMerge).toMatch(/name: tag\n\s+type: String\n\s+value: v1/);
  });

  it('refuses an input set the platform does not have, before any execute request', async () => {
    const emulator = await setup.emulate();
    seedPipelines(emulator, [succeeding()]);
    const result = await run(
      ['default/shop/deploy', '--input-set', 'nope', '--set', 'variables.env=dev', '--set', 'variables.tag=1'],
      runEnv(emulator),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipeline "deploy" in default/shop has no input set "nope" on the platform');
    expect(emulator.executions.executes).toEqual([]);
  });

  it('is a usage error (exit 2) when neither the output nor the flags say where an unknown pipeline is', async () => {
    const emulator = await setup.emulate();
    const result = await run(['ghost'], runEnv(emulator));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pipeline "ghost" is not in the compiled output');
    expect(emulator.requests).toEqual([]);
  });

  it('says what the platform answered when the pipeline is not there', async () => {
    const emulator = await setup.emulate();
    seedPipelines(emulator, []);
    const result = await run(['default/shop/ghost'], runEnv(emulator));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/reading the runtime inputs of pipeline "ghost": .*doesn't exist/);
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
  });
});

describe('pipewright run: reports', () => {
  it('--json prints the envelope: status, ids, URL, stages and steps with status and times', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 10 } });
    seedPipelines(emulator, [failing()]);
    const result = await run(
      ['default/shop/deploy', '--set', 'variables.env=dev', '--set', 'variables.tag=v1', '--json'],
      runEnv(emulator),
    );
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Record<string, any>;
    const [id] = [...emulator.executions.runs.keys()];
    expect(report).toMatchObject({
      pipewright: 1,
      command: 'run',
      ok: false,
      pipeline: { identifier: 'deploy', org: 'default', project: 'shop' },
      planExecutionId: id,
      url: expect.stringContaining(`/executions/${id}/pipeline`),
      status: 'Failed',
      outcome: 'failed',
      failed: {
        stage: 'ship',
        step: 'rollout',
        status: 'Failed',
        message: 'Shell Script execution failed: exit status 1',
      },
      inputsFrom: 'platform',
    });
    expect(report.diagnostics).toEqual([expect.objectContaining({ code: 'run-failed', severity: 'error' })]);
    expect(report.stages.map((s: { identifier: string; status: string }) => `${s.identifier} ${s.status}`)).toEqual([
      'build Success',
      'ship Failed',
    ]);
    const compile = report.stages[0].steps[0];
    expect(compile).toMatchObject({ identifier: 'compile', stage: 'build', status: 'Success', type: 'ShellScript' });
    expect(compile.endTs).toBeGreaterThan(compile.startTs);
    // stdout is the report alone; the id and URL went to stderr at once.
    expect(result.stderr).toContain(`started execution ${id}`);
  });

  it('--format markdown prints a job summary with the stages drawn by render and coloured by outcome', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 10 } });
    seedPipelines(emulator, [failing()]);
    await setup.compiled([failing()]);
    const result = await run(
      ['deploy', '--set', 'variables.env=dev', '--set', 'variables.tag=v1', '--format', 'markdown'],
      runEnv(emulator),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^### ❌ pipewright run: `deploy` Failed\n/);
    expect(result.stdout).toContain('```mermaid\nflowchart TD\n');
    expect(result.stdout).toMatch(/ {2}class n1 succeeded\n/);
    expect(result.stdout).toMatch(/ {2}class n3 failed\n/);
    expect(result.stdout).toContain(
      '**failed** at stage ship, step rollout (Failed): Shell Script execution failed: exit status 1',
    );
    expect(result.stdout).toContain('| ship |  | Failed |');
    expect(result.stdout).toContain('|  | rollout | Failed |');
  });

  it('--no-wait returns 0 once the execution has started, and leaves it running', async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 60_000 } });
    seedPipelines(emulator, [plain('smoke', 2)]);
    const result = await run(['default/shop/smoke', '--no-wait'], runEnv(emulator));
    expect(result.code).toBe(0);
    const [id] = [...emulator.executions.runs.keys()];
    expect(result.stdout).toContain(`started execution ${id}`);
    expect(emulator.executions.statusOf(id!)).toBe('Running');
    expect(emulator.executions.statusReads).toEqual([]);
  });

  it('never prints the key, even when the platform plants it in a failure message and a correlationId', async () => {
    const emulator = await setup.emulate({ echoKey: true, executions: { stepMs: 10 } });
    seedPipelines(emulator, [failing()]);
    for (const format of [[], ['--json'], ['--format', 'markdown']]) {
      const result = await run(
        ['default/shop/deploy', '--set', 'variables.env=dev', '--set', 'variables.tag=v1', ...format],
        runEnv(emulator),
      );
      expect(result.code).toBe(1);
      expect(`${result.stdout}${result.stderr}`).toContain('(token [redacted])');
    }
  });
});

describe('pipewright run: polling', () => {
  it("reads the execution about once a second at most, on the server's clock", async () => {
    const emulator = await setup.emulate({ executions: { stepMs: 800 } });
    seedPipelines(emulator, [plain('slow', 4)]);
    const result = await run(['default/shop/slow'], runEnv(emulator, null));
    expect(result.code).toBe(0);
    const reads = emulator.executions.statusReads.map((read) => read.at);
    const span = reads.at(-1)! - reads[0]!;
    expect(reads.length).toBeGreaterThanOrEqual(3);
    // One read at the start, then at most one a second (a little slack for the server's own timer).
    expect(reads.length).toBeLessThanOrEqual(1 + Math.ceil(span / 950));
    for (let i = 1; i < reads.length; i++) expect(reads[i]! - reads[i - 1]!).toBeGreaterThanOrEqual(950);
  });
});

describe("the scaffolded workflow's optional run step", () => {
  it('is commented out, and once uncommented runs the named pipeline after publish with its summary', async () => {
    const text = await readFile(join(ROOT, 'templates/default/_github/workflows/pipewright.yml'), 'utf8');
    expect((parse(text) as { jobs: { publish: { steps: unknown[] } } }).jobs.publish.steps).toHaveLength(6);
    const at = text.indexOf('      # - name: run the smoke pipeline');
    expect(at).toBeGreaterThan(0);
    const uncommented = text.slice(0, at) + text.slice(at).replace(/^( {6})# /gm, '$1');
    const steps = (parse(uncommented) as { jobs: { publish: { steps: Array<{ name?: string; run?: string }> } } }).jobs
      .publish.steps;
    expect(steps.map((step) => step.name).slice(-3)).toEqual([
      'publish',
      'keep the publish record',
      'run the smoke pipeline',
    ]);
    const command = steps.at(-1)!.run!;
    expect(command).toMatch(/^npx pipewright run .* >> "\$GITHUB_STEP_SUMMARY"$/);
    const args = command
      .replace(/^npx pipewright /, '')
      .replace(/ >>.*$/, '')
      .split(' ');
    const emulator = await setup.emulate({ executions: { stepMs: 5 } });
    seedPipelines(emulator, [plain('smoke', 2)]);
    await setup.compiled([plain('smoke', 2)]);
    const result = await run(args.slice(1), runEnv(emulator));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^### ✅ pipewright run: `smoke` Success\n/);
  });
});
