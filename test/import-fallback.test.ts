import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, lit, obj } from '../src/import/code.js';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { asStageElement, isExact, sameData } from '../src/import/verify.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { ROOT, runCli, tempDir, writeIn } from './support/cli.js';

/**
 * Import never gives up on a valid document: code the builders reproduce at run time but whose types refuse it
 * falls back part by part (typed -> step()/stage() -> raw.*), and real files (comments, CRLF, long pipelines,
 * long scripts) import to code that type-checks and compiles back to the same data.
 */
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const fixture = (name: string) => readFile(join(ROOT, 'test/fixtures/import', name), 'utf8');
const data = (text: string) => readYaml(text, 'test').documents.map((d) => d.value);

/** Imports the files, compiles the code, and returns the code and the compiled documents by identifier. */
async function roundTrip(files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) await writeIn(dir, `yaml/${name}`, text);
  const imported = await runCli(['import', ...Object.keys(files).map((f) => `yaml/${f}`), '-o', 'ts'], { cwd: dir });
  expect(imported.stderr).not.toContain('[error');
  expect(imported.code).toBe(0);
  const modules = (await readdir(join(dir, 'ts'))).filter((f) => f.endsWith('.ts'));
  const code = Object.fromEntries(
    await Promise.all(modules.map(async (m) => [m, await readFile(join(dir, 'ts', m), 'utf8')])),
  );
  const compiled = await runCli(['compile', 'ts/*.ts', '-o', 'out'], { cwd: dir });
  expect(compiled.stderr).toBe('');
  expect(compiled.code).toBe(0);
  const back = async (org: string, project: string, id: string) =>
    data(await readFile(join(dir, 'out/pipelines', org, project, `${id}.yaml`), 'utf8'))[0];
  return { code: code as Record<string, string>, back, stderr: imported.stderr };
}

describe('import falls back part by part', () => {
  it('demotes only the parts whose code does not type-check, and keeps the fields the types refuse', async () => {
    const yaml = await fixture('fields-the-types-refuse.yaml');
    const { code, back, stderr } = await roundTrip({ 'refused.yaml': yaml });
    const text = code['fields_the_types_refuse.ts']!;
    // Each fallback is reported at its node, with the builder it fell to and why.
    expect(stderr).toContain('fields_the_types_refuse.ts from yaml/refused.yaml: partly raw');
    expect(stderr).toContain(
      'yaml/refused.yaml:18:7  pipeline "fields_the_types_refuse" > stage "build": written as stage() in fields_the_types_refuse.ts: ci() has no option for spec.slsa_provenance [warning import-fallback]',
    );
    expect(stderr).toMatch(
      /stage "build" > stepGroup "checks": written as raw\.step\(\) in fields_the_types_refuse\.ts: the builder has no option for stepGroup\.stepGroupInfra\.spec\.containerSecurityContext/,
    );
    expect(stderr).toMatch(
      /stage "govern" > step "fan_out": written as raw\.step\(\) in fields_the_types_refuse\.ts: its typed code does not type-check \(Object literal may only specify known properties, and 'maxConcurrency'/,
    );
    expect(stderr.match(/import-fallback/g)).toHaveLength(3);
    // codebase.sparseCheckout is in the platform's schema: the codebase shortcut keeps it.
    expect(text).toMatch(/codebase: \{\s+connectorRef: 'github'/);
    expect(text).toContain('sparseCheckout: []');
    // slsa_provenance: the CI stage is a generic stage() (keeping cache override); its Run step keeps its typed builder.
    expect(text).toMatch(/stage\(\{\n\s+identifier: 'build',\n\s+type: 'CI'/);
    expect(text).toContain('override: false');
    expect(text).toMatch(/run\(\{\s+identifier: 'test'/);
    // maxConcurrency beside a matrix (the platform's schema has no such field) survives in the raw step group.
    expect(text).toMatch(/matrix: \{ node: \['18', '20'\] \},\s+maxConcurrency: 1\b/);
    // A spec field named `type` on a Policy step goes under `spec` of policy(); maxConcurrency beside a step's
    // matrix is refused by the types only: that step alone is demoted (to raw), the stage around it stays custom().
    expect(text).toContain("custom({ identifier: 'govern' })");
    expect(text).toMatch(/policy\(\{\n\s+identifier: 'policy',[^]*?spec: \{ type: 'Custom' \}/);
    expect(text).toMatch(/raw\.step\(\{\n\s+step: \{\n\s+type: 'ShellScript',\n\s+name: 'fan out'/);
    expect(await back('default', 'web', 'fields_the_types_refuse')).toEqual(data(yaml)[0]);
  }, 120_000);

  it('writes the typed form where one exists: step groups with rollbackSteps, variables with default, catalogue stages', async () => {
    const yaml = await fixture('typed-forms.yaml');
    const { code, back, stderr } = await roundTrip({ 'typed.yaml': yaml });
    expect(stderr).not.toContain('import-fallback');
    const text = code['typed_forms.ts']!;
    expect(text).not.toMatch(/raw\.|(?<![.\w])stage\(|(?<![.\w])step\(/);
    expect(text).toMatch(
      /region: \{\s+type: 'String',\s+value: input\(\),\s+description: 'where to deploy',\s+required: true,\s+default: 'eu'/,
    );
    expect(text).toMatch(/replicas: \{\s+type: 'Number',\s+value: input\(\),\s+default: 3\b/);
    expect(text).toMatch(/rollbackSteps: \[\s*wait\(\{\s+identifier: 'undo'/);
    expect(text).toContain("featureFlag({ identifier: 'flags' })");
    expect(await back('default', 'web', 'typed_forms')).toEqual(data(yaml)[0]);
  }, 120_000);

  it('names the variable field that has no typed option, and passes the variables alone as written', async () => {
    const yaml = (await fixture('typed-forms.yaml')).replace(
      '      default: eu\n',
      '      default: eu\n      allowedValues: [eu, us]\n',
    );
    const { code, back, stderr } = await roundTrip({ 'typed.yaml': yaml });
    expect(stderr).toContain(
      'written as pipeline().withFields() in typed_forms.ts: variables passed as written, the rest typed (a variable has no option allowedValues (variable region)) [warning import-fallback]',
    );
    const text = code['typed_forms.ts']!;
    expect(text).not.toContain('raw.');
    expect(text).toMatch(/\.withFields\(\{\s+variables: \[/);
    expect(await back('default', 'web', 'typed_forms')).toEqual(data(yaml)[0]);
  }, 120_000);

  it("keeps the node typed when one field has no typed form: a step group's empty spec, a notification rule's conditions", async () => {
    const yaml =
      (await fixture('typed-forms.yaml')).replace('- stepGroup:\n', '- stepGroup:\n                  spec: {}\n') +
      [
        '  notificationRules:',
        '    - name: failures',
        '      identifier: failures',
        '      pipelineEvents:',
        '        - type: PipelineFailed',
        '      notificationMethod:',
        '        type: Slack',
        '        spec:',
        '          webhookUrl: https://hooks.example/x',
        '      conditions:',
        '        - type: FailureCount',
        '          spec:',
        '            count: 2',
        '',
      ].join('\n');
    const { code, back, stderr } = await roundTrip({ 'typed.yaml': yaml });
    const text = code['typed_forms.ts']!;
    expect(text).not.toMatch(/raw\.|(?<![.\w])stage\(|(?<![.\w])step\(/);
    expect(text).toMatch(/\)\s*\.withFields\(\{ spec: \{\} \}\)/);
    expect(text).toMatch(/\.withFields\(\{\s+notificationRules: \[/);
    expect(stderr).toContain(
      'written as stepGroup().withFields() in typed_forms.ts: spec passed as written, the rest typed',
    );
    expect(stderr).toContain(
      'written as pipeline().withFields() in typed_forms.ts: notificationRules passed as written',
    );
    expect(await back('default', 'web', 'typed_forms')).toEqual(data(yaml)[0]);
  }, 240_000);

  it('passes over, while it verifies, a builder call with an option the builder does not know (no type check needed)', () => {
    const stage = {
      name: 'build',
      identifier: 'build',
      type: 'CI',
      spec: { cloneCodebase: true, execution: { steps: [] } },
    };
    const code = (spec: Record<string, ReturnType<typeof lit>>) =>
      call('ci', [obj({ identifier: lit('build'), ...spec })]);
    expect(isExact(code({ cloneCodebase: lit(true) }), { stage }, asStageElement)).toBe(true);
    // ci() has no slsa_provenance option: its types refuse it, so the CI stage is not reproduced by ci().
    const withSlsa = { stage: { ...stage, spec: { ...stage.spec, slsa_provenance: { enabled: false } } } };
    expect(
      isExact(
        code({ cloneCodebase: lit(true), slsa_provenance: obj({ enabled: lit(false) }) }),
        withSlsa,
        asStageElement,
      ),
    ).toBe(false);
  });

  it('judges two documents equal exactly when isDeepStrictEqual does, key order aside', () => {
    const data = fc.jsonValue().map((value) => value as unknown);
    // A copy with its keys in another order, and one changed at a random place.
    const reordered = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reordered)
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([k, v]) => [k, reordered(v)]),
            )
          : value;
    fc.assert(
      fc.property(data, data, (a, b) => {
        expect(sameData(a, b)).toBe(isDeepStrictEqual(a, b));
        expect(sameData(a, reordered(a))).toBe(true);
      }),
      { numRuns: 500 },
    );
    for (const [a, b] of [
      [{ a: undefined }, {}],
      [0, -0],
      [NaN, NaN],
      [[1, 2], { 0: 1, 1: 2 }],
      [{ a: [1] }, { a: [1, undefined] }],
      [Object.create(null), {}],
    ] as const)
      expect(sameData(a, b)).toBe(isDeepStrictEqual(a, b));
  });

  it('keeps the typed builders where the types accept every field', async () => {
    const yaml = (await fixture('fields-the-types-refuse.yaml'))
      .replace(/\n\s+sparseCheckout: \[\]/, '')
      .replace(/\n\s+override: false/, '')
      .replace(/\n\s+slsa_provenance:\n\s+enabled: false/, '');
    const { code, back } = await roundTrip({ 'accepted.yaml': yaml });
    const text = code['fields_the_types_refuse.ts']!;
    expect(text).toMatch(/codebase: \{\s+connectorRef: 'github'/);
    expect(text).not.toContain('properties:');
    expect(text).toMatch(/ci\(\{\n\s+identifier: 'build'/);
    expect(await back('default', 'web', 'fields_the_types_refuse')).toEqual(data(yaml)[0]);
  }, 120_000);

  it('never shadows a builder it imports: a pipeline called ci, a shared step called shell', async () => {
    const yaml = await fixture('names-the-builders-use.yaml');
    const { code, back } = await roundTrip({ 'names.yaml': yaml });
    const text = code['ci.ts']!;
    expect(text).toMatch(/import \{ ci, custom, pipeline, run, shell, wait \} from 'pipewright';/);
    expect(text).toContain('export const ciPipeline = pipeline(');
    expect(text).toContain('const shellStep = shell(');
    expect(await back('default', 'web', 'ci')).toEqual(data(yaml)[0]);
  }, 120_000);
});

/** A Custom stage whose first step is a shell script (`script`: YAML text after `script:`), then `more` steps. */
const shellStage = (id: string, script: string, more = '') => `    - stage:
        name: ${id}
        identifier: ${id}
        type: Custom
        spec:
          execution:
            steps:
              - step:
                  type: ShellScript
                  name: ${id} script
                  identifier: ${id}_script
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: ${script}
                  timeout: 10m
${more}`;

/** A pipeline of `stages` Custom stages with a shell and a wait step each, then a script `scriptBytes` long. */
function longPipeline(stages: number, scriptBytes: number): string {
  const line = 'echo "${TARGET:-all}" | tr a-z A-Z # `quoted` \\ and <+pipeline.sequenceId>\n';
  const script = line
    .repeat(Math.ceil(scriptBytes / line.length))
    .slice(0, scriptBytes)
    .replace(/\n?$/, '\n');
  const block = script.replace(/^(?=.)/gm, '                          ');
  const parts = [
    `pipeline:\n  name: long\n  identifier: long\n  projectIdentifier: web\n  orgIdentifier: default\n  stages:\n`,
  ];
  for (let s = 0; s < stages; s++)
    parts.push(
      shellStage(
        `stage_${s}`,
        `echo ${s}`,
        `              - step:
                  type: Wait
                  name: wait ${s}
                  identifier: wait_${s}
                  spec:
                    duration: ${s + 1}m
`,
      ),
    );
  parts.push(shellStage('long', `|\n${block.replace(/\n$/, '')}`));
  return parts.join('');
}

describe('import reads real files cleanly', () => {
  it('comments, CRLF line ends, a 600-line pipeline and a 34 KB script', async () => {
    const comments = await fixture('comments-everywhere.yaml');
    const crlf = comments
      .replace(/\n/g, '\r\n')
      .replace('identifier: comments_everywhere', 'identifier: comments_crlf');
    const long = longPipeline(24, 34 * 1024);
    expect(long.split('\n').length).toBeGreaterThan(600);
    const { code, back } = await roundTrip({ 'comments.yaml': comments, 'crlf.yaml': crlf, 'long.yaml': long });
    expect(await back('default', 'web', 'comments_everywhere')).toEqual(data(comments)[0]);
    expect(await back('default', 'web', 'comments_crlf')).toEqual(data(crlf)[0]);
    expect(await back('default', 'web', 'long')).toEqual(data(long)[0]);
    // Comments above stages and steps survive as // lines, with or without CR; no CR leaks into the code.
    for (const file of ['comments_everywhere.ts', 'comments_crlf.ts']) {
      expect(code[file]).toContain('// first, build');
      expect(code[file]).toContain('//     type: ShellScript');
      expect(code[file]).not.toContain('\r');
    }
    expect(code['long.ts']).toMatch(/shell\(\{\n\s+identifier: 'long_script'/);
  }, 180_000);
});
