import { catalogStep } from './catalog/catalog-step.js';

const CONTAINER = ['connectorRef', 'image', 'shell'];

/** A CI Run step: `command` in a container (`image`), or on the build machine with Harness Cloud. */
export const run = catalogStep('Run', {
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
  ],
});

/** A CI RunTests step (Test Intelligence): runs only the tests a change can affect. */
export const runTests = catalogStep('RunTests', {
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
  ],
});

/** Builds an image from a Dockerfile and pushes it to a Docker registry connector. */
export const buildAndPushDockerRegistry = catalogStep('BuildAndPushDockerRegistry', {
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
  ],
});

/** A Drone-style plugin image, configured by `settings`. */
export const plugin = catalogStep('Plugin', {
  order: ['connectorRef', 'image', 'privileged', 'settings', 'entrypoint', 'reports', 'imagePullPolicy'],
});

/** A GitHub Action (`uses: owner/repo@ref`) run by the CI stage. */
export const action = catalogStep('Action', { order: ['uses', 'with', 'env'] });
