import { shell } from 'pipewright';

/**
 * A shared step library: defined once, reused by every stage of every pipeline. Builders are immutable,
 * so a stage that adds to or changes a step never changes it for the others.
 */
export const smokeTest = shell({
  identifier: 'smoke_test',
  name: 'Smoke test',
  script: 'curl --fail --retry 5 "https://$SERVICE_HOST/healthz"',
  env: { SERVICE_HOST: '<+pipeline.variables.host>' },
  timeout: '5m',
});

export const notifyRelease = (environment: string) =>
  shell({
    identifier: `notify_${environment}`,
    name: `Announce ${environment} release`,
    script: ['set -euo pipefail', `echo "Released <+pipeline.sequenceId> to ${environment}"`, ''].join('\n'),
    timeout: '2m',
  });
