import { cp, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ROOT, runCli, tempDir } from './support/cli.js';

/**
 * Each example has its compiled output checked in under `expected/`. The test compiles it with the real
 * binary and compares every byte. PIPEWRIGHT_UPDATE_GOLDEN=1 rewrites the golden files on purpose (never in CI).
 */
const EXAMPLES = ['seed', 'environments', 'delivery', 'testing'];
const update = process.env.PIPEWRIGHT_UPDATE_GOLDEN === '1' && !process.env.CI;

async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => Promise.all(cleanups.map((c) => c())));

describe.each(EXAMPLES)('examples/%s', (name) => {
  it('compiles to exactly the golden files', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const result = await runCli(['compile', `examples/${name}/*.ts`, '-o', dir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const golden = join(ROOT, 'examples', name, 'expected');
    if (update) {
      await rm(golden, { recursive: true, force: true });
      await cp(dir, golden, { recursive: true });
    }
    const produced = await listTree(dir);
    expect(produced).toEqual(await listTree(golden));
    for (const file of produced)
      expect(await readFile(join(dir, file), 'utf8'), file).toBe(await readFile(join(golden, file), 'utf8'));
  });
});

describe('the seed example matches the spec field tables', () => {
  const load = async (file: string) =>
    YAML.parse(await readFile(join(ROOT, 'examples/seed/expected', file), 'utf8'), { version: '1.1' });

  it('has a project in org default with colour and empty description, tags and modules', async () => {
    const { project } = await load('projects/default/pipewright_seed.yaml');
    expect(Object.keys(project).sort()).toEqual([
      'color',
      'description',
      'identifier',
      'modules',
      'name',
      'orgIdentifier',
      'tags',
    ]);
    expect(project).toMatchObject({
      orgIdentifier: 'default',
      color: '#0063F7',
      description: '',
      tags: {},
      modules: [],
    });
  });

  it('has an anonymous Docker Hub registry connector in that project', async () => {
    const { connector } = await load('connectors/default/pipewright_seed/dockerhub.yaml');
    expect(connector).toMatchObject({
      orgIdentifier: 'default',
      projectIdentifier: 'pipewright_seed',
      type: 'DockerRegistry',
      description: '',
      tags: {},
      spec: {
        dockerRegistryUrl: 'https://index.docker.io/v2/',
        providerType: 'DockerHub',
        auth: { type: 'Anonymous' },
      },
    });
  });

  it('has one Deployment stage with runtime inputs, a 10m Bash step and a StageRollback strategy', async () => {
    const { pipeline } = await load('pipelines/default/pipewright_seed/deploy.yaml');
    expect(pipeline).toMatchObject({ projectIdentifier: 'pipewright_seed', orgIdentifier: 'default', tags: {} });
    expect(pipeline.stages).toHaveLength(1);
    const { stage } = pipeline.stages[0];
    expect(stage.type).toBe('Deployment');
    expect(stage.spec.serviceConfig.serviceRef).toBe('<+input>');
    expect(stage.spec.serviceConfig.serviceDefinition).toEqual({ type: 'Kubernetes', spec: { variables: [] } });
    expect(stage.spec.infrastructure).toEqual({
      environmentRef: '<+input>',
      infrastructureDefinition: {
        type: 'KubernetesDirect',
        spec: { connectorRef: '<+input>', namespace: '<+input>', releaseName: 'release-<+INFRA_KEY>' },
      },
      allowSimultaneousDeployments: false,
    });
    expect(stage.spec.execution.rollbackSteps).toEqual([]);
    expect(stage.failureStrategies).toEqual([
      { onFailure: { errors: ['AllErrors'], action: { type: 'StageRollback' } } },
    ]);
    const [{ step }] = stage.spec.execution.steps;
    expect(step).toMatchObject({
      type: 'ShellScript',
      timeout: '10m',
      spec: {
        shell: 'Bash',
        onDelegate: true,
        source: { type: 'Inline' },
        environmentVariables: [],
        outputVariables: [],
        executionTarget: {},
      },
    });
  });
});
