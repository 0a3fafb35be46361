import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './support/cli.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(cleanups.map((c) => c())));

/** A folder with the given files, as the working directory of a run. */
async function project(files: Record<string, string>): Promise<string> {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const wait = (identifier: string, duration = '1m') => `
              - step:
                  type: Wait
                  name: ${identifier}
                  identifier: ${identifier}
                  spec:
                    duration: ${duration}`;

const pipelineYaml = (identifier: string, steps: string) => `pipeline:
  name: ${identifier}
  identifier: ${identifier}
  projectIdentifier: web
  orgIdentifier: default
  stages:
    - stage:
        name: s
        identifier: s
        type: Custom
        spec:
          execution:
            steps:${steps}
`;

describe('pipewright validate', () => {
  it('accepts the whole valid corpus and exits 0', async () => {
    const result = await runCli([
      'validate',
      'test/fixtures/valid/ci-nodejs-cloud.yaml',
      'test/fixtures/valid/multi-document.yaml',
    ]);
    expect(result.code).toBe(0);
    // The three-document file is valid for pipewright; the platform would read only its first document if sent whole.
    expect(result.stderr).toMatch(
      /^test\/fixtures\/valid\/multi-document\.yaml:12:1  this file holds 3 YAML documents; the platform reads only the first one/,
    );
    expect(result.stderr.match(/\[warning /g)).toHaveLength(1);
    expect(result.stdout).toBe('4 documents in 2 files: valid, 1 warning\n');
  });

  it('prints file:line:col, the message and a code frame, and exits 1', async () => {
    const cwd = await project({ 'p.yaml': pipelineYaml('p', wait('pause', '10x')) });
    const result = await runCli(['validate', 'p.yaml'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatchInlineSnapshot(`
      "p.yaml:19:31  pipeline "p" > stage "s" > step "pause": spec.duration "10x" is not a duration (e.g. 10m, 1h30m, 1d) [error invalid-format]
          18 |                   spec:
        > 19 |                     duration: 10x
             |                               ^

      1 document in 1 file: 1 error
      "
    `);
  });

  it('checks each document of a multi-document file, and duplicates across files', async () => {
    const one = pipelineYaml('p', wait('pause'));
    const cwd = await project({ 'a.yaml': `${one}---\n${pipelineYaml('q', wait('pause'))}`, 'b.yaml': one });
    const result = await runCli(['validate', 'a.yaml', 'b.yaml'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'b.yaml:3:15  pipeline "p": pipeline "p" in project default/web is defined twice [error duplicate-resource]',
    );
    expect(result.stderr).toContain('hint: the other one is at a.yaml:3:15; rename one identifier');
    expect(result.stderr).toContain('3 documents in 2 files: 1 error');
  });

  it('finds the same infrastructure definition in two plain files (its root key is not its kind name)', async () => {
    const infra = [
      'infrastructureDefinition:',
      '  identifier: cluster',
      '  name: cluster',
      '  orgIdentifier: default',
      '  projectIdentifier: web',
      '  environmentRef: staging',
      '  deploymentType: Kubernetes',
      '  type: KubernetesDirect',
      '  spec:',
      '    connectorRef: k8s',
      '    namespace: web',
      '    releaseName: release-<+INFRA_KEY>',
      '',
    ].join('\n');
    const cwd = await project({ 'a.yaml': infra, 'b.yaml': infra });
    const result = await runCli(['validate', 'a.yaml', 'b.yaml'], { cwd });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('b.yaml:2:15');
    expect(result.stderr).toContain('is defined twice [error duplicate-resource]');
    const one = await runCli(['validate', 'a.yaml'], { cwd });
    expect(one.code, one.stderr).toBe(0);
  });

  it('takes a placeholder scope of an environment as a warning, as for pipelines; a placeholder identifier stays an error', async () => {
    const environment = (identifier: string) =>
      [
        'environment:',
        `  identifier: ${identifier}`,
        '  name: staging',
        '  orgIdentifier: <YOUR_ORG_IDENTIFIER>',
        '  projectIdentifier: web',
        '  type: PreProduction',
        '',
      ].join('\n');
    const cwd = await project({ 'env.yaml': environment('staging'), 'bad.yaml': environment('${ENV_ID}') });
    const ok = await runCli(['validate', 'env.yaml'], { cwd });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('[warning unsubstituted-placeholder]');
    const bad = await runCli(['validate', 'bad.yaml'], { cwd });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('[error unsubstituted-placeholder]');
  });

  it('locates YAML syntax errors', async () => {
    const cwd = await project({ 'bad.yaml': 'pipeline:\n  name: x\n   identifier: y\n' });
    const result = await runCli(['validate', 'bad.yaml'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('bad.yaml:2:9  Implicit keys need to be on a single line [error yaml-syntax]');
    expect(result.stderr).toContain('0 documents in 1 file: 2 errors');
  });

  it('names the document kinds it knows when the root key is none of them', async () => {
    const cwd = await project({ 'x.yaml': 'inputSets:\n  name: x\n' });
    const result = await runCli(['validate', 'x.yaml'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'x.yaml:1:1  document has no project, connector, service, environment, infrastructureDefinition, template, pipeline, inputSet, overlayInputSet or trigger root key (found "inputSets") [error not-a-platform-document]',
    );
  });

  it('warns about a secret document beside a pipeline (a kind it does not manage), without a word of its value', async () => {
    const value = 'hunter2-not-for-logs';
    const cwd = await project({
      'p.yaml': pipelineYaml('p', wait('pause')),
      // Block and flow style: the flow form holds the value on the line the warning points at.
      'secret.yaml': `secret:\n  identifier: db\n  type: SecretText\n  spec:\n    secretManagerIdentifier: harnessSecretManager\n    valueType: Inline\n    value: ${value}\n`,
      'flow.yaml': `{secret: {identifier: db2, type: SecretText, spec: {valueType: Inline, value: ${value}}}}\n`,
      'ref.yaml':
        'secret:\n  identifier: db3\n  type: SecretText\n  spec:\n    valueType: Reference\n    value: vault/db\n',
    });
    const result = await runCli(['validate', '*.yaml'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('4 documents in 4 files: valid, 3 warnings');
    const warning =
      'secret documents are not managed by pipewright: validate does not check them, import writes no code for them and publish never sends them [warning unmanaged-kind]';
    expect(result.stderr).toContain(`secret.yaml:1:1  ${warning}`);
    expect(result.stderr).toContain(`flow.yaml:1:1  ${warning}`);
    expect(result.stderr).toContain(`ref.yaml:1:1  ${warning}`);
    // The hint names an inline value for the two that hold one, and only for them.
    expect(result.stderr.match(/holds its value in the file/g)).toHaveLength(2);
    expect(result.stderr).not.toContain(value);
    expect(result.stderr).not.toContain(' | ');
    const json = JSON.parse((await runCli(['validate', '*.yaml', '--json'], { cwd })).stdout);
    expect(JSON.stringify(json)).not.toContain(value);
    expect(json.diagnostics.map((d: { code: string }) => d.code)).toEqual([
      'unmanaged-kind',
      'unmanaged-kind',
      'unmanaged-kind',
    ]);
  });

  it('prints no source lines around a possible credential, and does around other findings', async () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    const step = `${wait('pause')}
              - step:
                  type: ShellScript
                  name: s2
                  identifier: s2
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: 'curl -H "Authorization: ${token}" x'`;
    const cwd = await project({ 'p.yaml': pipelineYaml('p', step).replace('duration: 1m', 'duration: 10x') });
    const result = await runCli(['validate', 'p.yaml'], { cwd });
    expect(result.stderr).toContain('[warning possible-secret]');
    expect(result.stderr).toContain('[error invalid-format]');
    expect(result.stderr).toContain('duration: 10x');
    expect(result.stderr).not.toContain(token);
  });

  it('shows a credential on a line it frames by its first characters only, whatever the finding', async () => {
    const token = `ghp_${'x9Y8'.repeat(9)}`;
    // Unquoted, `Authorization: ...` inside the script is a YAML syntax error on the token's line.
    const cwd = await project({
      'p.yaml': `pipeline:\n  name: p\n  identifier: p\n  script: curl -H Authorization: ${token} x\n`,
    });
    const result = await runCli(['validate', 'p.yaml'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[error yaml-syntax]');
    expect(result.stderr).toContain('curl -H Authorization: ghp_…');
    expect(result.stderr).not.toContain(token);
  });

  it('prints JSON with --json, with positions, and exits 1 on errors', async () => {
    const cwd = await project({ 'p.yaml': pipelineYaml('p', wait('pause') + wait('pause')) });
    const result = await runCli(['validate', 'p.yaml', '--json'], { cwd });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(false);
    expect(report.files).toEqual([{ file: 'p.yaml', documents: 1 }]);
    expect(report.diagnostics).toEqual([
      {
        location: { file: 'p.yaml', line: 23, column: 31, endLine: 23, endColumn: 36 },
        file: 'p.yaml',
        line: 23,
        column: 31,
        code: 'duplicate-identifier',
        severity: 'error',
        message: 'step identifier "pause" is used twice in execution.steps: steps[0] and steps[1]',
        subject: 'pipeline "p" > stage "s" > step "pause"',
        hint: 'identifiers must be unique within execution.steps; rename one (a step used twice needs its own identifier in each place)',
        path: ['pipeline', 'stages', 0, 'stage', 'spec', 'execution', 'steps', 1, 'step', 'identifier'],
      },
    ]);
  });

  it('prints ok JSON and exits 0 for valid files', async () => {
    const result = await runCli(['validate', 'test/fixtures/valid/approval-jira.yaml', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      pipewright: 1,
      command: 'validate',
      ok: true,
      files: [{ file: 'test/fixtures/valid/approval-jira.yaml', documents: 1 }],
      diagnostics: [],
    });
  });

  it('fails with exit 1 and a hint for a file that does not exist', async () => {
    const result = await runCli(['validate', 'nope.yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipewright: cannot read nope.yaml: no such file');
  });

  it('expands a quoted glob itself, as shells on Windows do not', async () => {
    const result = await runCli(['validate', 'test/fixtures/valid/approval-*.yaml']);
    expect(result).toMatchObject({ code: 0, stdout: '2 documents in 2 files: valid\n' });
    const none = await runCli(['validate', 'test/fixtures/valid/nothing-*.yaml']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('pipewright: no files match "test/fixtures/valid/nothing-*.yaml"');
  });

  it('is a usage error (exit 2) without files', async () => {
    const result = await runCli(['validate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("missing required argument 'files'");
  });
});
