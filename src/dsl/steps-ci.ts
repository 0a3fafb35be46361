import { catalogStep, type SugarStepOptions } from './catalog/catalog-step.js';
import type { StepBuilder } from './step.js';
import { declareStep } from './catalog/step-sugar.js';

/** Where a container step's image comes from: the fields it starts with. */
const CONTAINER = ['connectorRef', 'image', 'shell'] as const;
/** Fields the platform added later, after the customary ones. */
const CONTAINER_TAIL = ['registryRef', 'resources', 'runAsUser'] as const;

export const RUN_SUGAR = declareStep('Run', {
  order: [
    ...CONTAINER,
    'command',
    'privileged',
    'reports',
    'envVariables',
    'outputVariables',
    'imagePullPolicy',
    'runAsUser',
    'resources',
    'outputAlias',
    'registryRef',
  ],
});

/** Options of `run()`: the common step options and the `Run` step's `spec` fields, flat. */
export type RunStepOptions<Names extends string = never> = SugarStepOptions<typeof RUN_SUGAR, Names>;

/**
 * A CI Run step: runs `command` in a container `image` (pulled through `connectorRef`), or straight on the build machine of Harness Cloud. Outputs named in `outputVariables` become `step.output(name)`.
 *
 * @example
 * ```ts
 * run({ identifier: 'test', shell: 'Sh', command: 'npm ci && npm test', image: 'node:20', connectorRef: 'dockerhub' })
 * ```
 */
export const run: <const Names extends string = never>(options: RunStepOptions<Names>) => StepBuilder<Names, 'Run'> =
  catalogStep(RUN_SUGAR);

export const RUN_TESTS_SUGAR = declareStep('RunTests', {
  order: [
    ...CONTAINER,
    'language',
    'buildTool',
    'args',
    'packages',
    'namespaces',
    'runOnlySelectedTests',
    'testAnnotations',
    'preCommand',
    'postCommand',
    'reports',
    'envVariables',
    'outputVariables',
    'enableTestSplitting',
    'testSplitStrategy',
    'testGlobs',
    'buildEnvironment',
    'frameworkVersion',
    'imagePullPolicy',
    'privileged',
    'pythonVersion',
    'resources',
    'runAsUser',
    'testRoot',
  ],
});

/** Options of `runTests()`: the common step options and the `RunTests` step's `spec` fields, flat. */
export type RunTestsStepOptions<Names extends string = never> = SugarStepOptions<typeof RUN_TESTS_SUGAR, Names>;

/**
 * A CI RunTests step (Test Intelligence): runs only the tests a change can affect, learning the mapping from earlier runs.
 *
 * @example
 * ```ts
 * runTests({ identifier: 'tests', language: 'Java', buildTool: 'Maven', args: 'test', runOnlySelectedTests: true })
 * ```
 */
export const runTests: <const Names extends string = never>(
  options: RunTestsStepOptions<Names>,
) => StepBuilder<Names, 'RunTests'> = catalogStep(RUN_TESTS_SUGAR);

export const BUILD_AND_PUSH_DOCKER_REGISTRY_SUGAR = declareStep('BuildAndPushDockerRegistry', {
  order: [
    'connectorRef',
    'repo',
    'tags',
    'caching',
    'dockerfile',
    'context',
    'labels',
    'buildArgs',
    'target',
    'optimize',
    'remoteCacheRepo',
    'baseImageConnectorRefs',
    'cacheFrom',
    'cacheTo',
    'envDockerSecrets',
    'envVariables',
    'fileDockerSecrets',
    ...CONTAINER_TAIL,
  ],
});

/** Options of `buildAndPushDockerRegistry()`: the common step options and the `BuildAndPushDockerRegistry` step's `spec` fields, flat. */
export type BuildAndPushDockerRegistryStepOptions<Names extends string = never> = SugarStepOptions<
  typeof BUILD_AND_PUSH_DOCKER_REGISTRY_SUGAR,
  Names
>;

/**
 * Builds an image from a Dockerfile in a CI stage and pushes it, with each tag, through a Docker registry connector.
 *
 * @example
 * ```ts
 * buildAndPushDockerRegistry({ identifier: 'push', connectorRef: 'dockerhub', repo: 'acme/web', tags: ['<+pipeline.sequenceId>', 'latest'] })
 * ```
 */
export const buildAndPushDockerRegistry: <const Names extends string = never>(
  options: BuildAndPushDockerRegistryStepOptions<Names>,
) => StepBuilder<Names, 'BuildAndPushDockerRegistry'> = catalogStep(BUILD_AND_PUSH_DOCKER_REGISTRY_SUGAR);

export const PLUGIN_SUGAR = declareStep('Plugin', {
  order: [
    'connectorRef',
    'image',
    'privileged',
    'settings',
    'entrypoint',
    'reports',
    'imagePullPolicy',
    ...CONTAINER_TAIL,
    'uses',
  ],
});

/** Options of `plugin()`: the common step options and the `Plugin` step's `spec` fields, flat. */
export type PluginStepOptions<Names extends string = never> = SugarStepOptions<typeof PLUGIN_SUGAR, Names>;

/**
 * Runs a Drone-style plugin image in a CI stage; `settings` become the plugin's `PLUGIN_*` environment.
 *
 * @example
 * ```ts
 * plugin({ identifier: 'notify', connectorRef: 'dockerhub', image: 'plugins/slack', settings: { webhook: '<+secrets.getValue("slack")>' } })
 * ```
 */
export const plugin: <const Names extends string = never>(
  options: PluginStepOptions<Names>,
) => StepBuilder<Names, 'Plugin'> = catalogStep(PLUGIN_SUGAR);

export const ACTION_SUGAR = declareStep('Action', { order: ['uses', 'with', 'env'] });

/** Options of `action()`: the common step options and the `Action` step's `spec` fields, flat. */
export type ActionStepOptions<Names extends string = never> = SugarStepOptions<typeof ACTION_SUGAR, Names>;

/**
 * Runs a GitHub Action (`uses: owner/repo@ref`) inside a CI stage; `with` are its inputs.
 *
 * @example
 * ```ts
 * action({ identifier: 'setupNode', uses: 'actions/setup-node@v4', with: { 'node-version': '20' } })
 * ```
 */
export const action: <const Names extends string = never>(
  options: ActionStepOptions<Names>,
) => StepBuilder<Names, 'Action'> = catalogStep(ACTION_SUGAR);
