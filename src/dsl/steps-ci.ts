import { catalogStep } from './catalog/catalog-step.js';
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

/** A CI Run step: `command` in a container (`image`), or on the build machine with Harness Cloud. */
export const run = catalogStep(RUN_SUGAR);

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

/** A CI RunTests step (Test Intelligence): runs only the tests a change can affect. */
export const runTests = catalogStep(RUN_TESTS_SUGAR);

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

/** Builds an image from a Dockerfile and pushes it to a Docker registry connector. */
export const buildAndPushDockerRegistry = catalogStep(BUILD_AND_PUSH_DOCKER_REGISTRY_SUGAR);

export const PLUGIN_SUGAR = declareStep('Plugin', {
  order: ['connectorRef', 'image', 'privileged', 'settings', 'entrypoint', 'reports', 'imagePullPolicy', ...CONTAINER_TAIL, 'uses'],
});

/** A Drone-style plugin image, configured by `settings`. */
export const plugin = catalogStep(PLUGIN_SUGAR);

export const ACTION_SUGAR = declareStep('Action', { order: ['uses', 'with', 'env'] });

/** A GitHub Action (`uses: owner/repo@ref`) run by the CI stage. */
export const action = catalogStep(ACTION_SUGAR);
