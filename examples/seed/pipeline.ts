import { deployment, expr, input, pipeline, shell } from 'pipewright';
import { seedProject } from './project.js';

/** The spec's pipeline: one Deployment stage whose service, environment and cluster come at run time. */
export const deploy = pipeline({ identifier: 'deploy', name: 'deploy', project: seedProject, tags: {} })
  .stage(
    deployment({
      identifier: 'deploy_to_k8s',
      name: 'deploy to k8s',
      description: '',
      tags: {},
      service: input(),
      environment: input(),
      infrastructure: {
        connector: input(),
        namespace: input(),
        releaseName: expr`release-${expr.infra.key}`,
      },
      failureStrategies: [{ errors: 'AllErrors', action: 'StageRollback' }],
    }),
  )
  .step(
    shell({
      identifier: 'echo',
      name: 'echo',
      script: 'echo "deploying build <+pipeline.sequenceId>"',
      env: {},
      outputs: [],
      executionTarget: {},
      timeout: '10m',
    }),
  );
