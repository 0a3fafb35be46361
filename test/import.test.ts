import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runCli, tempDir, writeIn } from './support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const write = (file: string, text: string | Buffer) => writeIn(dir, file, text);
const importCli = (...args: string[]) => runCli(['import', ...args], { cwd: dir });

const SEED = `pipeline:
  name: deploy
  identifier: deploy
  projectIdentifier: web
  orgIdentifier: default
  stages:
    - stage:
        name: prod
        identifier: prod
        type: Deployment
        spec:
          serviceConfig:
            serviceRef: <+input>
            serviceDefinition:
              type: Kubernetes
              spec:
                variables: []
          infrastructure:
            environmentRef: <+input>.allowedValues(staging,prod)
            infrastructureDefinition:
              type: KubernetesDirect
              spec:
                connectorRef: account.cluster
                namespace: <+input>.default(web)
                releaseName: release-<+INFRA_KEY>
            allowSimultaneousDeployments: false
          execution:
            steps:
              - step:
                  type: ShellScript
                  name: echo
                  identifier: echo
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: |-
                          echo one
                          echo two
                  timeout: 10m
            rollbackSteps: []
        failureStrategies:
          - onFailure:
              errors:
                - AllErrors
              action:
                type: StageRollback
`;

describe('pipewright import', () => {
  it('writes code a person would write: builders, input() chains, expr templates, template-literal scripts', async () => {
    await write('deploy.yaml', SEED);
    const result = await importCli('deploy.yaml', '-o', 'ts');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(await readFile(join(dir, 'ts/deploy.ts'), 'utf8')).toBe(`// Imported by pipewright from deploy.yaml.
import { deployment, expr, input, pipeline, shell } from 'pipewright';

export const deploy = pipeline({ identifier: 'deploy', project: 'web' })
  .stage(
    deployment({
      identifier: 'prod',
      service: input(),
      environment: input().allowedValues('staging', 'prod'),
      infrastructure: {
        connector: 'account.cluster',
        namespace: input().default('web'),
        releaseName: expr\`release-\${expr.infra.key}\`,
      },
      failureStrategies: [{ action: 'StageRollback' }],
    }),
  )
  .step(
    shell({
      identifier: 'echo',
      script: \`echo one
echo two\`,
      timeout: '10m',
    }),
  );
`);
  });

  it('keeps empty variable lists and execution target the UI writes', async () => {
    await write(
      'ui.yaml',
      SEED.replace(
        '                          echo two\n',
        '                          echo two\n                    environmentVariables: []\n                    outputVariables: []\n                    executionTarget: {}\n',
      ),
    );
    expect((await importCli('ui.yaml', '-o', 'ts')).stderr).toBe('');
    expect(await readFile(join(dir, 'ts/deploy.ts'), 'utf8')).toContain(
      "echo two`,\n      env: {},\n      outputs: [],\n      executionTarget: {},\n      timeout: '10m',",
    );
  });

  it("writes the older Deployment form whole as deployment()'s serviceConfig variant, and serviceOverrideInputs", async () => {
    await write(
      'legacy.yaml',
      await readFile(join(ROOT, 'test', 'fixtures', 'import', 'legacy-deployment-forms.yaml'), 'utf8'),
    );
    expect((await importCli('legacy.yaml', '-o', 'ts')).stderr).toBe('');
    const code = await readFile(join(dir, 'ts/legacy.ts'), 'utf8');
    expect(code).toContain(
      "deployment({\n      identifier: 'qa',\n      serviceConfig: {\n        useFromStage: { stage: 'dev' },",
    );
    expect(code).toContain(
      "infrastructure: {\n        environment: { name: 'qa', identifier: 'qa', type: 'PreProduction' },",
    );
    expect(code).toContain('serviceOverrideInputs: input(),');
    expect(code).not.toMatch(/raw\.|stage\(\{/);
  });

  it('reads standard input with "-"', async () => {
    const result = await runCli(['import', '-', '-o', 'ts'], { cwd: dir, input: SEED });
    expect(result.code).toBe(0);
    expect(await readdir(join(dir, 'ts'))).toEqual(['deploy.ts', 'pipewright.import.json']);
  });

  it('writes one module per document of a multi-document file', async () => {
    await write('all.yaml', `project:\n  name: Web\n  identifier: web\n  orgIdentifier: default\n---\n${SEED}`);
    const result = await importCli('all.yaml', '-o', 'ts');
    expect(result.stdout).toBe(
      'imported 2 documents into ts (2 typed, 0 partly raw, 0 need attention):\n  web.ts\n  deploy.ts\n',
    );
    expect(await readFile(join(dir, 'ts/web.ts'), 'utf8')).toContain(
      "export const web = project({ identifier: 'web', name: 'Web' });",
    );
  });

  it('reports a document that is not a platform document, with its location, and writes the others', async () => {
    await write('x.yaml', `${SEED}---\nworkflow:\n  jobs: {}\n`);
    const result = await importCli('x.yaml', '-o', 'ts');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'x.yaml:51:1  not a platform document: the root key must be project, connector, service, environment, infrastructureDefinition, template, pipeline, inputSet, overlayInputSet or trigger (found workflow)',
    );
    expect(await readdir(join(dir, 'ts'))).toEqual(['deploy.ts', 'pipewright.import.json']);
  });

  it('fails, writing nothing, when no document can be imported', async () => {
    await write('x.yaml', 'workflow:\n  jobs: {}\n');
    const result = await importCli('x.yaml', '-o', 'ts');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(found workflow) [error not-a-platform-document]');
    expect(await readdir(dir)).toEqual(['x.yaml']);
  });

  it('skips a platform kind it does not manage (a secret, service overrides) with the warning validate gives, and imports the rest', async () => {
    await write(
      't.yaml',
      'overrides:\n  identifier: prod_overrides\n  environmentRef: prod\n  type: ENV_GLOBAL_OVERRIDE\n',
    );
    await write('s.yaml', `secret:\n  identifier: token\n  type: SecretText\n---\n${SEED}`);
    const result = await importCli('t.yaml', 's.yaml', '-o', 'ts');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      't.yaml:1:1  overrides documents are not managed by pipewright: validate does not check them, import writes no code for them and publish never sends them [warning unmanaged-kind]',
    );
    expect(result.stderr).toContain('s.yaml:1:1  secret documents are not managed by pipewright');
    expect(result.stderr).not.toContain('unexpected error');
    expect(await readdir(join(dir, 'ts'))).toEqual(['deploy.ts', 'pipewright.import.json']);
  });

  it('ends its findings with a count on a line of their own, so the summary starts a line after them', async () => {
    const pipeline = (id: string) =>
      SEED.replace('  name: deploy\n  identifier: deploy\n', `  name: ${id}\n  identifier: ${id}\n`);
    await write('yaml/good.yaml', pipeline('good'));
    // Refused by validate (a timeout the platform does not take): written as it is, needs attention. (An identity
    // the platform refuses is not written at all: test/path-attacks.test.ts.)
    await write('yaml/refused.yaml', pipeline('refused').replace('timeout: 10m', 'timeout: 10x'));
    const refusedOnly = await importCli('--mode', 'project', 'yaml', '-o', 'ts');
    expect(refusedOnly.code).toBe(0);
    expect(refusedOnly.stderr).toBe(
      [
        'pipelines/default/web/refused.ts from yaml/refused.yaml: needs attention',
        '  yaml/refused.yaml:42:28  pipeline "refused" > stage "prod" > step "echo": timeout "10x" is not a duration (e.g. 10m, 1h30m, 1d) [error invalid-format]',
        '',
        '1 error',
        '',
      ].join('\n'),
    );
    expect(refusedOnly.stdout).toBe(
      [
        'imported 2 documents into ts (1 typed, 0 partly raw, 1 needs attention):',
        '  pipelines/default/web/good.ts',
        '  pipelines/default/web/refused.ts  (needs attention)',
        '  pipewright.config.ts',
        '',
      ].join('\n'),
    );
    // With a finding about a file too (a kind import skips), every finding is counted, not only the file's.
    await write('yaml/secret.yaml', 'secret:\n  identifier: token\n  type: SecretText\n');
    const withSkipped = await importCli('--mode', 'project', 'yaml', '-o', 'ts2');
    expect(withSkipped.stderr).toMatch(
      /\[error invalid-format\]\n\nyaml\/secret\.yaml:1:1  secret documents are not managed by pipewright: .*\[warning unmanaged-kind\]\n {4}hint: .*\n\n1 error, 1 warning\n$/,
    );
    expect(withSkipped.stdout).toBe(refusedOnly.stdout.replace('into ts ', 'into ts2 '));
  });

  it('names no module eval or arguments (strict mode refuses them as names): a pipeline so named is written', async () => {
    await write('eval.yaml', SEED.replace(/identifier: deploy/, 'identifier: eval'));
    await write('arguments.yaml', SEED.replace(/identifier: deploy/, 'identifier: arguments'));
    const result = await importCli('eval.yaml', 'arguments.yaml', '-o', 'ts');
    expect(result.stderr).toBe('');
    expect(await readFile(join(dir, 'ts/eval.ts'), 'utf8')).toContain('export const evalPipeline = pipeline(');
    expect(await readFile(join(dir, 'ts/arguments.ts'), 'utf8')).toContain(
      'export const argumentsPipeline = pipeline(',
    );
  });

  it("says in --json which module each finding went to, and each module's status", async () => {
    await write('all.yaml', `${SEED}---\nsecret:\n  identifier: token\n`);
    const result = await importCli('all.yaml', '-o', 'ts', '--json');
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as {
      diagnostics: Array<{ code: string }>;
      modules: Array<{ path: string; status: string; source: string }>;
    };
    expect(out.modules).toEqual([
      expect.objectContaining({
        path: 'deploy.ts',
        source: 'all.yaml#1',
        status: 'typed',
        written: true,
        kind: 'pipeline',
      }),
    ]);
    expect(out.diagnostics.map((d) => d.code)).toContain('unmanaged-kind');
  });

  it('locates YAML syntax errors', async () => {
    await write('bad.yaml', 'pipeline:\n  name: [unclosed\n  identifier: x\n');
    const result = await importCli('bad.yaml', '-o', 'ts');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bad\.yaml:\d+:\d+  .*\[error yaml-syntax\]/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('reads an alias bomb as the platform does (aliases are not expanded) and says so', async () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      levels.push(
        `l${i}: &l${i} [${Array(9)
          .fill(i === 1 ? '*a' : `*l${i - 1}`)
          .join(',')}]`,
      );
    await write('bomb.yaml', `${levels.join('\n')}\npipeline: *l8\n`);
    const result = await importCli('bomb.yaml', '-o', 'ts');
    expect(result.code).toBe(1);
    // The platform reads `*l8` as the text "l8": the pipeline is not a map, and the aliases are named, once each up to a count.
    expect(result.stderr).toContain(
      'the platform does not expand aliases: *a is read as the text "a" [warning yaml-alias]',
    );
    expect(result.stderr).toMatch(/more aliases in this document \(73 in all\)/);
    expect(result.stderr).toContain(
      'pipeline holds the string "l8", not a map of fields [error not-a-platform-document]',
    );
  });

  it('rejects a file that is not UTF-8', async () => {
    await write('latin1.yaml', Buffer.from([0x70, 0x69, 0x70, 0x65, 0x3a, 0x20, 0xe9, 0x0a]));
    const result = await importCli('latin1.yaml', '-o', 'ts');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('latin1.yaml is not valid UTF-8 text');
  });

  it('keeps comments above a document as // comments', async () => {
    await write('c.yaml', `# Deploys the web app.\n# Owner: team web\n${SEED}`);
    await importCli('c.yaml', '-o', 'ts');
    expect(await readFile(join(dir, 'ts/deploy.ts'), 'utf8')).toContain(
      '// Deploys the web app.\n// Owner: team web\nexport const deploy',
    );
  });

  it('keeps comments above stages and steps as // comments on their builder calls', async () => {
    await write(
      'c.yaml',
      SEED.replace('  stages:\n', '  stages:\n    # Production only.\n').replace(
        '            steps:\n',
        '            steps:\n              # Say hello.\n',
      ),
    );
    expect((await importCli('c.yaml', '-o', 'ts')).stderr).toBe('');
    const code = await readFile(join(dir, 'ts/deploy.ts'), 'utf8');
    expect(code).toContain('  .stage(\n    // Production only.\n    deployment({');
    expect(code).toContain('  .step(\n    // Say hello.\n    shell({');
  });

  it('makes identical steps one shared const', async () => {
    // A second stage with the same step, after the first (the first keeps its failure strategies).
    const twice =
      SEED +
      '    - stage:\n        name: again\n        identifier: again\n        type: Custom\n        spec:\n          execution:\n            steps:\n' +
      SEED.split('            steps:\n')[1]!.split('            rollbackSteps')[0]!;
    await write('twice.yaml', twice);
    const result = await importCli('twice.yaml', '-o', 'ts');
    expect(result.stderr).toBe('');
    const code = await readFile(join(dir, 'ts/deploy.ts'), 'utf8');
    expect(code).toContain('const echo = shell({');
    expect(code.match(/\.step\(echo\)/g)).toHaveLength(2);
  });
  it('makes steps that differ only in identifier and name one const, used with .withIdentifier()', async () => {
    // Stage d has a description, so that it is not the same stage as a (whose step it shares).
    const stage = (id: string, stepId: string, stepName?: string) =>
      `    - stage:\n        name: ${id}\n        identifier: ${id}\n${id === 'd' ? '        description: last\n' : ''}        type: Custom\n        spec:\n          execution:\n            steps:\n              - step:\n                  type: Wait\n                  name: ${stepName ?? stepId}\n                  identifier: ${stepId}\n                  spec:\n                    duration: 5m\n`;
    await write(
      'near.yaml',
      `pipeline:\n  name: near\n  identifier: near\n  projectIdentifier: web\n  orgIdentifier: default\n  stages:\n${stage('a', 'soak')}${stage('b', 'soak_b')}${stage('c', 'soak_c', 'Soak C')}${stage('d', 'soak')}`,
    );
    expect((await importCli('near.yaml', '-o', 'ts')).code).toBe(0);
    const code = await readFile(join(dir, 'ts/near.ts'), 'utf8');
    expect(code).toContain("const soak = wait({ identifier: 'soak', duration: '5m' });");
    expect(code).toContain(".step(soak.withIdentifier('soak_b'))");
    expect(code).toContain(".step(soak.withIdentifier('soak_c', 'Soak C'))");
    expect(code.match(/\.step\(soak\)/g)).toHaveLength(2);
    const compiled = await runCli(['compile', 'ts/*.ts', '-o', 'out'], { cwd: dir });
    expect(compiled.code).toBe(0);
    const back = await readFile(join(dir, 'out/pipelines/default/web/near.yaml'), 'utf8');
    expect(back).toContain('name: Soak C\n');
    expect(back).toContain('identifier: soak_b\n');
  });
});

describe('import writes code no longer than the YAML', () => {
  it('makes five stages alike but for a few texts one function of those texts, called once per stage', async () => {
    const yaml = await readFile(join(ROOT, 'test', 'fixtures', 'import', 'similar-stages.yaml'), 'utf8');
    await write('similar.yaml', yaml);
    expect(await importCli('similar.yaml', '-o', 'ts')).toMatchObject({ code: 0, stderr: '' });
    const code = await readFile(join(dir, 'ts/p.ts'), 'utf8');
    expect(code).toContain(
      [
        'const deployStage = (',
        '  identifier: string,',
        '  name: string,',
        '  environment: string,',
        '  infrastructureDefinition: string,',
        ') =>',
        '  deployment({',
        '    identifier,',
        '    name,',
      ].join('\n'),
    );
    expect(code).toContain('    infrastructureDefinitions: [infrastructureDefinition],\n');
    expect(code).toContain('  }).step(rollout);\n');
    expect(code).toContain(".stage(deployStage('deploy_qa', 'Deploy qa', 'qa', 'k8s_qa'))");
    expect(code.match(/\.stage\(deployStage\(/g)).toHaveLength(5);
    expect(code.split('\n').length).toBeLessThan(yaml.split('\n').length / 4);
    expect((await runCli(['compile', 'ts/p.ts', '-o', 'out'], { cwd: dir })).code).toBe(0);
    const back = parse(await readFile(join(dir, 'out/pipelines/default/web/p.yaml'), 'utf8')) as unknown;
    expect(back).toEqual(parse(yaml));
  });

  it('writes stages out when only two are alike, or when they differ in an option that takes no text (deploymentType)', async () => {
    const yaml = await readFile(join(ROOT, 'test', 'fixtures', 'import', 'similar-stages.yaml'), 'utf8');
    const two = yaml.split('    - stage:\n').slice(0, 3).join('    - stage:\n');
    await write('two.yaml', two);
    expect((await importCli('two.yaml', '-o', 'ts')).code).toBe(0);
    expect(await readFile(join(dir, 'ts/p.ts'), 'utf8')).not.toContain('=>');
    let typed = 0;
    const types = yaml.replace(/deploymentType: Kubernetes/g, () =>
      typed++ % 2 ? 'deploymentType: NativeHelm' : 'deploymentType: Kubernetes',
    );
    await write('types.yaml', types);
    expect((await importCli('types.yaml', '-o', 'ts')).code).toBe(0);
    const code = await readFile(join(dir, 'ts/p.ts'), 'utf8');
    expect(code).not.toContain('deploymentType: string');
    expect(code).toContain("deploymentType: 'NativeHelm',");
  });

  it('makes a stage used twice (steps and all) and a step group used four times one const each, renamed where only the identity differs', async () => {
    const yaml = await readFile(join(ROOT, 'test', 'fixtures', 'import', 'shared-stages-and-groups.yaml'), 'utf8');
    await write('shared.yaml', yaml);
    expect(await importCli('shared.yaml', '-o', 'ts')).toMatchObject({ code: 0, stderr: '' });
    // The group is declared before the stage that uses it; the step inside the shared stage keeps its comment.
    expect(await readFile(join(dir, 'ts/shared.ts'), 'utf8')).toBe(`// Imported by pipewright from shared.yaml.
import { custom, pipeline, shell, stepGroup, wait } from 'pipewright';

const soak = stepGroup({
  identifier: 'soak',
  steps: [wait({ identifier: 'wait', duration: '5m' })],
});

const checks = custom({ identifier: 'checks_eu', failureStrategies: [{ action: 'Abort' }] }).step(
  // Lint first.
  shell({ identifier: 'lint', script: 'make lint', timeout: '10m' }),
  soak,
);

// The same checks stage run for two regions, and one soak phase written four times: import makes each one const
// (stages with their steps, step groups), renamed with .withIdentifier() where only the identity differs.
export const shared = pipeline({ identifier: 'shared', project: 'web' })
  .stage(checks.withIdentifier('checks_eu'))
  .stage(checks.withIdentifier('checks_us'))
  .stage(
    custom({
      identifier: 'deploy',
      when: {
        pipelineStatus: 'Success',
        condition: '<+pipeline.variables.deploy> == "yes"',
      },
    }),
  )
  .step(soak.withIdentifier('soak_1'), soak.withIdentifier('soak_2', 'Soak two'));
`);
    expect((await runCli(['compile', 'ts/*.ts', '-o', 'out'], { cwd: dir })).code).toBe(0);
    const back = parse(await readFile(join(dir, 'out/pipelines/default/web/shared.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(back).toEqual(parse(yaml));
  });

  it('shares the stages and steps inside parallel(...) as it shares those of the list, renamed where only the identity differs', async () => {
    const yaml = await readFile(join(ROOT, 'test', 'fixtures', 'import', 'shared-in-parallel.yaml'), 'utf8');
    await write('regions.yaml', yaml);
    expect(await importCli('regions.yaml', '-o', 'ts')).toMatchObject({ code: 0, stderr: '' });
    expect(await readFile(join(dir, 'ts/regions.ts'), 'utf8')).toBe(`// Imported by pipewright from regions.yaml.
import { custom, parallel, pipeline, shell, wait } from 'pipewright';

const shellStep = shell({ identifier: 'lint', script: 'make check', timeout: '10m' });

const checks = custom({ identifier: 'checks_eu', failureStrategies: [{ action: 'Abort' }] }).step(
  parallel(shellStep.withIdentifier('lint'), shellStep.withIdentifier('test')),
  wait({ identifier: 'soak', duration: '5m' }),
);

// The checks stage run for three regions, two of them side by side: import shares the stage inside parallel(...)
// as it does a top-level one, and the two checks steps run side by side in each stage as one const.
export const regions = pipeline({ identifier: 'regions', project: 'web' })
  .stage(parallel(checks.withIdentifier('checks_eu'), checks.withIdentifier('checks_us')))
  .stage(checks.withIdentifier('checks_ap'));
`);
    expect((await runCli(['compile', 'ts/*.ts', '-o', 'out'], { cwd: dir })).code).toBe(0);
    const back = parse(await readFile(join(dir, 'out/pipelines/default/web/regions.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(back).toEqual(parse(yaml));
  });

  it('shares a stage met only inside parallel blocks, across two blocks, and a step of it used in another stage', async () => {
    // checks_ap moves into a second parallel block beside a deploy stage: the stage is shared across both blocks.
    const yaml = (await readFile(join(ROOT, 'test', 'fixtures', 'import', 'shared-in-parallel.yaml'), 'utf8')).replace(
      /\n    - stage:\n        name: checks_ap[^]*$/,
      (stage) =>
        `\n    - parallel:${stage.replace(/\n/g, '\n    ').trimEnd()}\n        - stage:\n            name: deploy\n            identifier: deploy\n            type: Custom\n            spec:\n              execution:\n                steps:\n                  - step:\n                      type: Wait\n                      name: soak\n                      identifier: soak\n                      spec:\n                        duration: 5m\n`,
    );
    await write('regions.yaml', yaml);
    expect(await importCli('regions.yaml', '-o', 'ts')).toMatchObject({ code: 0, stderr: '' });
    const code = await readFile(join(dir, 'ts/regions.ts'), 'utf8');
    expect(code).toContain(".stage(parallel(checks.withIdentifier('checks_eu'), checks.withIdentifier('checks_us')))");
    expect(code).toContain(
      ".stage(parallel(checks.withIdentifier('checks_ap'), custom({ identifier: 'deploy' }).step(soak)));",
    );
    expect((await runCli(['compile', 'ts/*.ts', '-o', 'out'], { cwd: dir })).code).toBe(0);
    const back = parse(await readFile(join(dir, 'out/pipelines/default/web/regions.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(back).toEqual(parse(yaml));
  });

  it('keeps stages apart when they differ in more than their identity, and shares only the step they have in common', async () => {
    const yaml = (
      await readFile(join(ROOT, 'test', 'fixtures', 'import', 'shared-stages-and-groups.yaml'), 'utf8')
    ).replace('        name: checks_us\n', '        name: checks_us\n        description: the US checks\n');
    await write('shared.yaml', yaml);
    expect((await importCli('shared.yaml', '-o', 'ts')).stderr).toBe('');
    const code = await readFile(join(dir, 'ts/shared.ts'), 'utf8');
    expect(code).not.toContain('checksEu');
    expect(code).toContain("const lint = shell({ identifier: 'lint', script: 'make lint', timeout: '10m' });");
    expect(code.match(/\(lint, soak\)/g)).toHaveLength(2);
  });

  it('writes small objects on one line and steps in a row in one .step() call; larger objects keep a field a line', async () => {
    await write(
      'small.yaml',
      `pipeline:
  name: small
  identifier: small
  projectIdentifier: web
  orgIdentifier: default
  variables:
    - name: region
      type: String
      value: eu
    - name: image
      type: String
      description: the image the later stages deploy, built and pushed by the CI stage
      value: registry.example.com/web/app:<+pipeline.sequenceId>
  stages:
    - stage:
        name: checks
        identifier: checks
        type: Custom
        spec:
          execution:
            steps:
              - step:
                  type: Wait
                  name: a
                  identifier: a
                  spec:
                    duration: 1m
                  when:
                    stageStatus: Success
              - step:
                  type: Wait
                  name: b
                  identifier: b
                  spec:
                    duration: 2m
`,
    );
    expect((await importCli('small.yaml', '-o', 'ts')).stderr).toBe('');
    expect(await readFile(join(dir, 'ts/small.ts'), 'utf8')).toBe(`// Imported by pipewright from small.yaml.
import { custom, pipeline, wait } from 'pipewright';

export const small = pipeline({
  identifier: 'small',
  project: 'web',
  variables: {
    region: 'eu',
    image: {
      type: 'String',
      value: 'registry.example.com/web/app:<+pipeline.sequenceId>',
      description: 'the image the later stages deploy, built and pushed by the CI stage',
    },
  },
})
  .stage(custom({ identifier: 'checks' }))
  .step(
    wait({ identifier: 'a', duration: '1m', when: { stageStatus: 'Success' } }),
    wait({ identifier: 'b', duration: '2m' }),
  );
`);
  });

  it('keeps a long script a template literal, line for line, with backquotes and ${ escaped', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `echo "step ${i}: \${HOME}" \`date\``);
    const block = lines.map((line) => `                          ${line}`).join('\n');
    await write(
      'long.yaml',
      SEED.replace('                          echo one\n                          echo two', block),
    );
    expect((await importCli('long.yaml', '-o', 'ts')).stderr).toBe('');
    const code = await readFile(join(dir, 'ts/deploy.ts'), 'utf8');
    const script = /script: `([\s\S]*?)`,\n/.exec(code)?.[1];
    expect(script?.split('\n')).toEqual(lines.map((line) => line.replace(/`/g, '\\`').replace(/\$\{/g, '\\${')));
  });
});

describe('the README before/after', () => {
  it('shows exactly what import writes for the YAML shown', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const before = /Before, `deploy\.yaml`:\n\n```yaml\n([\s\S]*?)```/.exec(readme)![1]!;
    const after = /After, `pipelines\/deploy\.ts`[^\n]*\n\n```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    await write('deploy.yaml', before);
    const result = await importCli('deploy.yaml', '-o', 'pipelines');
    expect(result.stderr).toBe('');
    expect(await readFile(join(dir, 'pipelines/deploy.ts'), 'utf8')).toBe(after);
  });
});
