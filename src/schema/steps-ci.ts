import { z } from 'zod';
import { orExpression, stringMap } from './common.js';

/** Fields every container step shares: where its image comes from and how the container runs. */
const container = {
  connectorRef: z.string().optional().meta({ description: 'Container registry connector of the image.' }),
  image: z.string().optional().meta({ description: 'Image to run, e.g. node:20; optional on Harness Cloud.' }),
  privileged: orExpression(z.boolean()).optional(),
  runAsUser: orExpression(z.number().int()).optional(),
  imagePullPolicy: orExpression(z.enum(['Always', 'Never', 'IfNotPresent'])).optional(),
  resources: z
    .looseObject({
      limits: z.looseObject({ memory: z.string().optional(), cpu: z.union([z.string(), z.number()]).optional() }),
    })
    .optional(),
  envVariables: stringMap.optional().meta({ description: 'Environment variables of the container.' }),
};

export const CI_SHELLS = ['Sh', 'Bash', 'Powershell', 'Pwsh', 'Python'] as const;

const reports = z.looseObject({
  type: z.literal('JUnit'),
  spec: z.looseObject({ paths: z.array(z.string()).min(1) }),
});

const outputVariables = z.array(
  z.looseObject({ name: z.string(), type: z.enum(['String', 'Secret']).optional(), value: z.string().optional() }),
);

export const runSpec = z
  .looseObject({
    ...container,
    shell: orExpression(z.enum(CI_SHELLS)).optional().meta({ description: 'Shell that runs command: Sh, Bash, Powershell, Pwsh or Python.' }),
    command: z.string().meta({ description: 'Commands to run.', examples: ['npm ci && npm test'] }),
    reports: reports.optional().meta({ description: 'JUnit XML files to show as test results.' }),
    outputVariables: outputVariables.optional().meta({ description: 'Environment variables to export as <+steps.ID.output.outputVariables.NAME>.' }),
  })
  .meta({ title: 'Run step spec' });

export const runTestsSpec = z
  .looseObject({
    ...container,
    language: orExpression(z.enum(['Java', 'Kotlin', 'Scala', 'Csharp', 'Python', 'Ruby'])),
    buildTool: orExpression(z.enum(['Maven', 'Gradle', 'Bazel', 'SBT', 'Dotnet', 'Nunitconsole', 'Pytest', 'Unittest', 'Rspec'])),
    args: z.string().meta({ description: 'Arguments of the build tool, e.g. test.' }),
    packages: z.string().optional(),
    namespaces: z.string().optional(),
    buildEnvironment: z.string().optional(),
    frameworkVersion: z.string().optional(),
    runOnlySelectedTests: orExpression(z.boolean()).optional(),
    testAnnotations: z.string().optional(),
    preCommand: z.string().optional(),
    postCommand: z.string().optional(),
    shell: orExpression(z.enum(CI_SHELLS)).optional(),
    enableTestSplitting: orExpression(z.boolean()).optional(),
    testSplitStrategy: z.string().optional(),
    testGlobs: z.string().optional(),
    reports: reports.optional(),
    outputVariables: outputVariables.optional(),
  })
  .meta({ title: 'RunTests step spec' });

export const buildAndPushDockerRegistrySpec = z
  .looseObject({
    connectorRef: z.string().meta({ description: 'Docker registry connector to push to.' }),
    repo: z.string().meta({ examples: ['myorg/web'] }),
    tags: orExpression(z.array(z.string()).min(1)).meta({ examples: [['latest', '<+pipeline.sequenceId>']] }),
    caching: orExpression(z.boolean()).optional(),
    dockerfile: z.string().optional().meta({ description: 'Dockerfile path; default Dockerfile in the context.' }),
    context: z.string().optional().meta({ description: 'Build context folder; default the repository root.' }),
    labels: stringMap.optional(),
    buildArgs: stringMap.optional(),
    target: z.string().optional(),
    optimize: orExpression(z.boolean()).optional(),
    remoteCacheRepo: z.string().optional(),
    baseImageConnectorRefs: orExpression(z.array(z.string())).optional(),
    envVariables: stringMap.optional(),
    runAsUser: orExpression(z.number().int()).optional(),
    resources: container.resources,
  })
  .meta({ title: 'BuildAndPushDockerRegistry step spec' });

export const pluginSpec = z
  .looseObject({
    ...container,
    image: z.string().meta({ description: 'Plugin image, e.g. plugins/s3.' }),
    settings: z.record(z.string(), z.unknown()).optional().meta({ description: 'Plugin settings (PLUGIN_* variables).' }),
    entrypoint: z.array(z.string()).optional(),
    reports: reports.optional(),
  })
  .meta({ title: 'Plugin step spec' });

export const actionSpec = z
  .looseObject({
    uses: z.string().meta({ description: 'GitHub Action, as owner/repo@ref.', examples: ['actions/setup-node@v4'] }),
    with: z.record(z.string(), z.unknown()).optional(),
    env: stringMap.optional(),
  })
  .meta({ title: 'Action step spec' });
