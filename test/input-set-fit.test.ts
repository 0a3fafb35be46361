import { describe, expect, it } from 'vitest';
import { runCli, tempDir, writeIn } from './support/cli.js';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { input, inputSet, parallel, pipeline, shell, stage, type AnyResource } from '../src/index.js';
import { fieldKeysAt, fieldsOf } from '../src/check/input-fields.js';
import { runtimeInputs } from '../src/check/rules-input-sets.js';
import { shellStepLines } from './support/fixtures.js';

/** An input set is checked against its pipeline when both are compiled, as the platform checks it on save. */
const compileAll = (...resources: AnyResource[]) =>
  buildAndValidate(resources.map((resource, index) => ({ resource, file: 'x.ts', exportName: `r${index}` })))
    .diagnostics;

const deploy = pipeline({
  identifier: 'deploy',
  project: 'web',
  variables: { env: input(), region: input().default('eu'), team: 'core' },
}).stage(
  stage({ identifier: 'build', type: 'Custom' }).step(shell({ identifier: 'hi', script: 'echo hi', timeout: input() })),
);
const variable = <const Name extends string>(name: Name, value: string) => ({ name, type: 'String' as const, value });
const stageValues = {
  stages: [
    {
      stage: {
        identifier: 'build',
        type: 'Custom',
        spec: { execution: { steps: [{ step: { identifier: 'hi', type: 'ShellScript', timeout: '5m' } }] } },
      },
    },
  ],
};

describe('input sets against their pipeline', () => {
  it('accepts values for exactly the runtime inputs, matched by stage, step and variable identity', () => {
    const values = inputSet({
      identifier: 'prod',
      pipeline: deploy,
      values: { variables: [variable('env', 'prod')], ...stageValues },
    });
    expect(compileAll(deploy, values)).toEqual([]);
  });

  it('refuses a value for a field the pipeline fixes', () => {
    const values = inputSet({
      identifier: 'prod',
      pipeline: deploy,
      // @ts-expect-error: team is fixed in the pipeline, so the types refuse it too
      values: { variables: [variable('env', 'prod'), variable('team', 'other')], ...stageValues },
    });
    const found = compileAll(deploy, values);
    expect(found.map((d) => [d.code, d.severity, d.message])).toEqual([
      ['input-set-not-an-input', 'error', 'variables.team is not a runtime input of pipeline "deploy"'],
    ]);
    expect(found[0]!.path).toEqual(['inputSet', 'pipeline', 'variables', 1, 'value']);
  });

  it('warns about a runtime input without a default that it leaves unset', () => {
    const values = inputSet({ identifier: 'prod', pipeline: deploy, values: { variables: [variable('env', 'prod')] } });
    expect(compileAll(deploy, values).map((d) => [d.code, d.severity, d.message])).toEqual([
      [
        'input-set-missing-input',
        'warning',
        'leaves stages.build.spec.execution.steps.hi.timeout of pipeline "deploy" unset, and it has no default',
      ],
    ]);
  });

  it('takes variables by name, as pipeline({ variables }) takes them, and writes the list the platform reads', () => {
    const counted = pipeline({
      identifier: 'counted',
      project: 'web',
      variables: { tag: input(), replicas: { type: 'Number', value: input() } },
    }).stage(stage({ identifier: 'build', type: 'Custom' }).step(shell({ identifier: 'hi', script: 'echo' })));
    const values = inputSet({
      identifier: 'prod',
      pipeline: counted,
      values: { variables: { tag: 'v1.2.3', replicas: 3 } },
    });
    expect((values.toDocument() as { inputSet: { pipeline: unknown } }).inputSet.pipeline).toEqual({
      identifier: 'counted',
      variables: [
        { name: 'tag', type: 'String', value: 'v1.2.3' },
        { name: 'replicas', type: 'Number', value: 3 },
      ],
    });
    expect(compileAll(counted, values)).toEqual([]);
  });

  it('names one variable one way in its messages, whichever form the values take', () => {
    const byName = inputSet({
      identifier: 'prod',
      pipeline: deploy,
      values: { variables: { team: 'other' } as never, ...stageValues },
    });
    expect(compileAll(deploy, byName).map((d) => d.message)).toEqual([
      'variables.team is not a runtime input of pipeline "deploy"',
      'leaves variables.env of pipeline "deploy" unset, and it has no default',
    ]);
  });

  it('checks nothing when the pipeline is not compiled (it exists on the platform)', () => {
    expect(
      compileAll(inputSet({ identifier: 'prod', pipeline: 'deploy', project: 'web', values: { anything: 1 } })),
    ).toEqual([]);
  });
});

describe('input sets are keyed as the platform keys fields when it merges them (one keying with render)', () => {
  // Steps in a parallel block: the platform gives the block no position (FQNMapGenerator), so an input set
  // that lists only the block holding an input still names the same fields.
  const fanOut = pipeline({ identifier: 'fan_out', project: 'web' }).stage(
    stage({ identifier: 'test', type: 'Custom' })
      .step(shell({ identifier: 'prepare', script: 'echo', timeout: '1m' }))
      .step(
        parallel(
          shell({ identifier: 'unit', script: 'echo', timeout: input() }),
          shell({ identifier: 'lint', script: 'echo', timeout: '1m' }),
        ),
      ),
  );
  const unitTimeout = {
    stages: [
      {
        stage: {
          identifier: 'test',
          type: 'Custom',
          spec: {
            execution: {
              steps: [{ parallel: [{ step: { identifier: 'unit', type: 'ShellScript', timeout: '5m' } }] }],
            },
          },
        },
      },
    ],
  };

  it("accepts a value for a step of a parallel block, whatever the block's position", () => {
    expect(compileAll(fanOut, inputSet({ identifier: 'quick', pipeline: fanOut, values: unitTimeout }))).toEqual([]);
  });

  it("refuses a value for a fixed field of a parallel block's step", () => {
    const lint = structuredClone(unitTimeout);
    lint.stages[0]!.stage.spec.execution.steps[0]!.parallel[0]!.step.identifier = 'lint';
    expect(
      compileAll(fanOut, inputSet({ identifier: 'quick', pipeline: fanOut, values: lint })).map((d) => [
        d.code,
        d.message,
      ]),
    ).toEqual([
      [
        'input-set-not-an-input',
        'stages.test.spec.execution.steps.lint.timeout is not a runtime input of pipeline "fan_out"',
      ],
      [
        'input-set-missing-input',
        'leaves stages.test.spec.execution.steps.unit.timeout of pipeline "fan_out" unset, and it has no default',
      ],
    ]);
  });

  it('fieldKeysAt gives every field the key fieldsOf gives it, paths in any order; inside a one-piece field, that field', () => {
    const body = {
      identifier: 'p',
      variables: [{ name: 'env', type: 'String', value: '<+input>' }],
      stages: [
        {
          stage: {
            identifier: 'a',
            spec: {
              execution: {
                steps: [
                  { step: { identifier: 's', spec: { list: ['x', 'y'] } } },
                  { parallel: [{ step: { identifier: 't' } }, { step: { identifier: 'u', timeout: '<+input>' } }] },
                ],
              },
            },
          },
        },
        { parallel: [{ stage: { identifier: 'b', delegateSelectors: [{ plain: 1 }] } }] },
      ],
    };
    const leaves = fieldsOf(body, ['pipeline']).filter((field) => field.leaf);
    for (const order of [leaves, [...leaves].reverse()]) {
      const keyAt = fieldKeysAt(body);
      for (const field of order) expect(keyAt(field.path.slice(1)), field.key).toBe(field.key);
    }
    const keyAt = fieldKeysAt(body);
    expect(keyAt(['stages', 0, 'stage', 'spec', 'execution', 'steps', 0, 'step', 'spec', 'list', 1])).toBe(
      'pipeline/stages/stage[identifier:a]/spec/execution/steps/step[identifier:s]/spec/list',
    );
    expect(keyAt(['stages', 1, 'parallel', 0, 'stage', 'delegateSelectors', 0, 'plain'])).toBe(
      'pipeline/stages/parallel/stage[identifier:b]/delegateSelectors',
    );
    expect(keyAt(['variables', 0, 'value'])).toBe('pipeline/variables/[name:env]/value');
  });

  it("keys each runtime input as fieldsOf keys the pipeline's field (the key render merges by)", () => {
    const document = deploy.toDocument() as { pipeline: unknown };
    for (const pipelineDocument of [document, fanOut.toDocument() as { pipeline: unknown }]) {
      const inputs = runtimeInputs(pipelineDocument);
      const all = fieldsOf(pipelineDocument.pipeline, ['pipeline']);
      expect(inputs.length).toBeGreaterThan(0);
      for (const found of inputs)
        expect(all.find((field) => field.key === found.key && field.leaf)?.path).toEqual(found.path);
    }
    expect(runtimeInputs(document).map((found) => found.key)).toEqual([
      'pipeline/variables/[name:env]/value',
      'pipeline/variables/[name:region]/value',
      'pipeline/stages/stage[identifier:build]/spec/execution/steps/step[identifier:hi]/timeout',
    ]);
  });
});

describe('validate: input sets against their pipeline among the files', () => {
  const pipelineYaml = [
    'pipeline:',
    '  identifier: deploy',
    '  name: deploy',
    '  orgIdentifier: default',
    '  projectIdentifier: web',
    '  variables:',
    '    - name: env',
    '      type: String',
    '      value: <+input>',
    '    - name: team',
    '      type: String',
    '      value: core',
    '  stages:',
    '    - stage:',
    '        identifier: build',
    '        name: build',
    '        type: Custom',
    '        spec:',
    '          execution:',
    '            steps:',
    ...shellStepLines('hi', 'echo hi'),
    '',
  ].join('\n');
  const inputSetYaml = (team: boolean) =>
    [
      'inputSet:',
      '  identifier: prod',
      '  name: prod',
      '  orgIdentifier: default',
      '  projectIdentifier: web',
      '  pipeline:',
      '    identifier: deploy',
      '    variables:',
      '      - name: env',
      '        type: String',
      '        value: prod',
      ...(team ? ['      - name: team', '        type: String', '        value: other'] : []),
      '',
    ].join('\n');

  it('refuses, at its line, a value for a field the pipeline fixes; accepts one that fills only runtime inputs', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeIn(dir, 'deploy.yaml', pipelineYaml);
      await writeIn(dir, 'prod.yaml', inputSetYaml(true));
      await writeIn(dir, 'ok.yaml', inputSetYaml(false).replace('identifier: prod', 'identifier: ok'));
      const result = await runCli(['validate', 'deploy.yaml', 'prod.yaml', 'ok.yaml'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('prod.yaml:14:16  ');
      expect(result.stderr).toContain(
        'variables.team is not a runtime input of pipeline "deploy" [error input-set-not-an-input]',
      );
      expect(result.stderr).not.toContain('ok.yaml:');
      // Without its pipeline among the files, the input set is not checked against it (the pipeline is on the platform).
      const alone = await runCli(['validate', 'prod.yaml'], { cwd: dir });
      expect(alone.code, alone.stderr).toBe(0);
    } finally {
      await cleanup();
    }
  });
});

describe('compile: pipelines keep their runtime inputs only where an input set may fill them', () => {
  const deployTs = `import { input, pipeline, shell, stage } from 'pipewright';
export const deploy = pipeline({ identifier: 'deploy', org: 'default', project: 'web', variables: { env: input(), team: 'core' } })
  .stage(stage({ identifier: 's', type: 'Custom' }).step(shell({ identifier: 'hi', script: 'echo hi', timeout: '5m' })));
`;
  const setsTs = `import { inputSet } from 'pipewright';
import { deploy } from '../defs/deploy.js';
export const prod = inputSet({ identifier: 'prod', pipeline: deploy, values: { variables: [{ name: 'team', type: 'String', value: 'other' }] } });
`;

  it('names input sets by their text: a file that builds none does not make pipelines keep theirs', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeIn(dir, 'defs/deploy.ts', deployTs);
      await writeIn(dir, 'lib/sets.ts', setsTs);
      await writeIn(dir, 'defs/values.ts', `export { prod } from '../lib/sets.js';\n`);
      const { mayDefineInputSets } = await import('../src/compile/input-set-scan.js');
      const { FileHashes } = await import('../src/compile/compile-cache.js');
      const hashes = new FileHashes();
      const contents = (file: string) => hashes.contents(file);
      expect(mayDefineInputSets([`${dir}/defs/deploy.ts`], contents)).toBe(false);
      expect(mayDefineInputSets([`${dir}/defs/deploy.ts`, `${dir}/lib/sets.ts`], contents)).toBe(true);
      expect(mayDefineInputSets([`${dir}/defs/gone.ts`], contents)).toBe(true);
    } finally {
      await cleanup();
    }
  });

  it("reads each entry file once for the scan and the cache's hash: the hash is of the text the scan read", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeIn(dir, 'defs/deploy.ts', deployTs);
      const { mayDefineInputSets } = await import('../src/compile/input-set-scan.js');
      const { FileHashes } = await import('../src/compile/compile-cache.js');
      const { sha256 } = await import('../src/compile/layout.js');
      const hashes = new FileHashes();
      expect(mayDefineInputSets([`${dir}/defs/deploy.ts`], (file) => hashes.contents(file))).toBe(false);
      // Changed after the scan (as during a build): the hash stays the scanned text's, so the next compile builds it again.
      await writeIn(dir, 'defs/deploy.ts', `${deployTs}// edited\n`);
      expect(hashes.get(`${dir}/defs/deploy.ts`)).toBe(sha256(deployTs));
    } finally {
      await cleanup();
    }
  });

  it('still checks an input set that an entry exports without naming it (built in a library) against its pipeline', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeIn(dir, 'defs/deploy.ts', deployTs);
      await writeIn(dir, 'lib/sets.ts', setsTs);
      // The entry names no input set: the pipeline is built without its runtime inputs, then again with the input set.
      await writeIn(dir, 'defs/values.ts', `export { prod } from '../lib/sets.js';\n`);
      const hidden = await runCli(['compile', 'defs/deploy.ts', 'defs/values.ts', '-o', 'out'], {
        cwd: dir,
        env: { PIPEWRIGHT_NO_CACHE: '1' },
      });
      expect(hidden.code).toBe(1);
      expect(hidden.stderr).toMatch(
        /lib\/sets\.ts:\d+:\d+ .*variables\.team is not a runtime input of pipeline "deploy" \[error input-set-not-an-input\]/,
      );
      // The same words as when the entry names it.
      await writeIn(dir, 'defs/values.ts', setsTs.replace('../defs/deploy.js', './deploy.js'));
      const named = await runCli(['compile', 'defs/deploy.ts', 'defs/values.ts', '-o', 'out'], {
        cwd: dir,
        env: { PIPEWRIGHT_NO_CACHE: '1' },
      });
      expect(named.code).toBe(1);
      expect(named.stderr.replace(/defs\/values\.ts:\d+:\d+/g, 'X')).toBe(
        hidden.stderr.replace(/lib\/sets\.ts:\d+:\d+/g, 'X'),
      );
    } finally {
      await cleanup();
    }
  });
});
