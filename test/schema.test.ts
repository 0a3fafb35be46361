import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { glob } from 'tinyglobby';
import { afterAll, describe, expect, it } from 'vitest';
import { kindOfDocument } from '../src/catalog/kinds.js';
import { jsonSchemaOf } from '../src/schema/json-schema.js';
import { RESOURCE_KINDS } from '../src/schema/index.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { ROOT, runCli, tempDir } from './support/cli.js';

/**
 * ajv in strict mode: unknown keywords, ambiguous types, union `type` lists and unknown formats are errors.
 * ajv ships no formats (ajv-formats does); the schemas use only the standard `uri`, registered here.
 */
const compile = (kind: (typeof RESOURCE_KINDS)[number]) =>
  new Ajv2020.default({ strict: true, allErrors: true })
    .addFormat('uri', { type: 'string', validate: (text: string) => URL.canParse(text) })
    .compile(jsonSchemaOf(kind));
const validators = Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, compile(kind)])) as Record<
  (typeof RESOURCE_KINDS)[number],
  ReturnType<typeof compile>
>;

const VALID = (await glob('test/fixtures/valid/*.yaml', { cwd: ROOT })).sort();
const documentsOf = async (file: string) =>
  readYaml(await readFile(join(ROOT, file), 'utf8'), file).documents.map((d) => d.value as Record<string, unknown>);

const pipeline = (stage: Record<string, unknown>) => ({
  pipeline: { name: 'p', identifier: 'p', projectIdentifier: 'web', orgIdentifier: 'default', stages: [{ stage }] },
});
const customWith = (step: Record<string, unknown>) =>
  pipeline({
    name: 's',
    identifier: 's',
    type: 'Custom',
    spec: { execution: { steps: [{ step: { name: 'x', identifier: 'x', ...step } }] } },
  });

describe('JSON Schemas', () => {
  it.each(RESOURCE_KINDS)('the %s schema compiles in ajv strict mode (draft 2020-12)', (kind) => {
    const schema = jsonSchemaOf(kind);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(() => compile(kind)).not.toThrow();
  });

  it.each(VALID)('accepts every document of %s', async (file) => {
    for (const document of await documentsOf(file)) {
      const validate = validators[kindOfDocument(document)!];
      expect(validate(document), JSON.stringify(validate.errors, null, 2)).toBe(true);
    }
  });

  it('carries titles, descriptions and examples for hover docs', () => {
    const text = JSON.stringify(jsonSchemaOf('pipeline'));
    expect(text).toContain('"title":"Step"');
    expect(text).toContain('A duration: numbers with units');
    expect(text).toContain('"examples":["10m","1h30m","1d"]');
  });

  it('has one if/then branch per typed step and stage type, so editors complete each spec', () => {
    const defs = Object.keys(jsonSchemaOf('pipeline').$defs as object);
    expect(defs.filter((name) => /_(Run|Http|K8sCanaryDeploy|HarnessApproval)$/.test(name))).toHaveLength(4);
    expect(defs.filter((name) => /_(Deployment|CI|Approval|Custom|Pipeline)$/.test(name))).toHaveLength(5);
  });

  it.each([
    ['a step spec field of the wrong type', customWith({ type: 'Wait', spec: { duration: 10 } })],
    [
      'a ShellScript shell that does not exist',
      customWith({ type: 'ShellScript', spec: { shell: 'Zsh', source: { type: 'Inline', spec: { script: 'x' } } } }),
    ],
    ['an Http step without url', customWith({ type: 'Http', spec: { method: 'GET' } })],
    ['a bad timeout', customWith({ type: 'Wait', timeout: '10x', spec: { duration: '1m' } })],
    [
      'a canary instance selection of an unknown type',
      customWith({ type: 'K8sCanaryDeploy', spec: { instanceSelection: { type: 'Percent', spec: {} } } }),
    ],
    [
      'an invalid identifier',
      pipeline({ name: 's', identifier: 'bad-id', type: 'Custom', spec: { execution: { steps: [] } } }),
    ],
    [
      'a CI stage whose runtime type is unknown',
      pipeline({
        name: 's',
        identifier: 's',
        type: 'CI',
        spec: { runtime: { type: 'Mars' }, execution: { steps: [] } },
      }),
    ],
    ['a step with neither type nor template', customWith({ spec: { duration: '1m' } })],
    [
      'a Pipeline stage without its child pipeline',
      pipeline({ name: 's', identifier: 's', type: 'Pipeline', spec: { org: 'default', project: 'web' } }),
    ],
  ])('rejects %s, as validate does', (_, document) => {
    expect(validators.pipeline(document)).toBe(false);
  });

  it('rejects a connector whose DockerRegistry spec lacks providerType, and a project colour without #', () => {
    const connector = {
      connector: {
        name: 'c',
        identifier: 'c',
        type: 'DockerRegistry',
        spec: { dockerRegistryUrl: 'https://x/v2/', auth: { type: 'Anonymous' } },
      },
    };
    expect(validators.connector(connector)).toBe(false);
    expect(
      validators.project({ project: { name: 'p', identifier: 'p', orgIdentifier: 'default', color: '0063F7' } }),
    ).toBe(false);
  });

  it('validates step groups inside step groups in plain Ajv (its defaults), without overflowing the stack', () => {
    // Ajv inlines a $defs target that holds no reference; with every step spec inlined, the step element was one
    // function so large that a step group inside a step group overflowed the stack (docs/editor-setup.md).
    const plain = new Ajv2020.default().addFormat('uri', true).compile(jsonSchemaOf('pipeline'));
    const shell = {
      step: {
        name: 'sh',
        identifier: 'sh',
        type: 'ShellScript',
        timeout: '10m',
        spec: { shell: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { script: 'make' } } },
      },
    };
    const group = (depth: number): Record<string, unknown> => ({
      stepGroup: {
        name: `g${depth}`,
        identifier: `g${depth}`,
        steps: [shell, ...(depth > 1 ? [group(depth - 1)] : [])],
      },
    });
    const document = pipeline({
      name: 's',
      identifier: 's',
      type: 'Custom',
      spec: { execution: { steps: [group(4)] } },
    });
    expect(plain(document), JSON.stringify(plain.errors)).toBe(true);
    // And it still checks what is inside: the shell of the step four groups deep misspelt.
    const text = JSON.stringify(document);
    const last = text.lastIndexOf('"shell":"Bash"');
    const broken = JSON.parse(`${text.slice(0, last)}"shell":"Bashh"${text.slice(last + '"shell":"Bash"'.length)}`);
    expect(plain(broken)).toBe(false);
  });

  it('passes unknown step types and their specs through, like validate', () => {
    expect(validators.pipeline(customWith({ type: 'AcmeInternalDeploy', spec: { anything: [1, 2] } }))).toBe(true);
  });

  it('checks the spec of every step type the platform knows, e.g. TerraformPlan', () => {
    expect(validators.pipeline(customWith({ type: 'TerraformPlan', spec: { anything: [1, 2] } }))).toBe(false);
  });
});

describe('pipewright schema', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(() => Promise.all(cleanups.map((c) => c())));

  it('writes one schema per kind of the table to -o DIR, exactly as generated from the zod schemas', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const result = await runCli(['schema', '-o', join(dir, 'schemas')]);
    expect(result.code).toBe(0);
    expect(RESOURCE_KINDS).toHaveLength(10);
    for (const kind of RESOURCE_KINDS) {
      const written = JSON.parse(await readFile(join(dir, 'schemas', `${kind}.schema.json`), 'utf8'));
      expect(written).toEqual(jsonSchemaOf(kind));
      expect(result.stdout).toContain(`${kind}.schema.json`);
    }
  });

  it('writes to schemas/ by default', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    expect((await runCli(['schema'], { cwd: dir })).code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'schemas', 'project.schema.json'), 'utf8')).title).toBe(
      'pipewright project document',
    );
  });
});

describe('compile --schema-modeline', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(() => Promise.all(cleanups.map((c) => c())));
  const SOURCE = `import { custom, pipeline, project, wait } from 'pipewright';
export const web = project({ identifier: 'web' });
export const p = pipeline({ identifier: 'p', project: web }).stage(custom({ identifier: 's' }).step(wait({ identifier: 'w', duration: '1m' })));
`;
  const firstLines = async (...flags: string[]) => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'defs.ts'), SOURCE);
    const result = await runCli(['compile', 'defs.ts', '-o', 'out', ...flags], { cwd: dir });
    expect(result.stderr).toBe('');
    const first = async (file: string) => (await readFile(join(dir, 'out', file), 'utf8')).split('\n')[0];
    return [await first('pipelines/default/web/p.yaml'), await first('projects/default/web.yaml')];
  };

  it('points by default at schemas/ by a path relative to each file, where pipewright schema writes', async () => {
    expect(await firstLines('--schema-modeline')).toEqual([
      '# yaml-language-server: $schema=../../../../schemas/pipeline.schema.json',
      '# yaml-language-server: $schema=../../../schemas/project.schema.json',
    ]);
  });

  it('takes another folder, or an http(s) base URL', async () => {
    expect((await firstLines('--schema-modeline', '.vscode/schemas'))[0]).toBe(
      '# yaml-language-server: $schema=../../../../.vscode/schemas/pipeline.schema.json',
    );
    expect((await firstLines('--schema-modeline', 'https://example.com/pw/schemas/'))[1]).toBe(
      '# yaml-language-server: $schema=https://example.com/pw/schemas/project.schema.json',
    );
  });
});
