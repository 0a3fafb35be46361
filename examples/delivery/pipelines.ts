import { deployment, input, pipeline, shell, stageTemplate } from 'pipewright';
import { delivery } from './platform.js';

/** The quality gate, as each pipeline's first stage: the template's v1. */
const gate = () => stageTemplate({ identifier: 'quality_gate', name: 'Quality gate', templateRef: 'quality_gate', versionLabel: 'v1' });

const rollout = shell({ identifier: 'rollout', name: 'Roll out', script: 'kubectl rollout status deploy/checkout', timeout: '10m' });

export const checkoutApi = pipeline({
  identifier: 'checkout_api',
  name: 'Checkout API',
  project: delivery,
  variables: { target: input() },
})
  .stage(gate())
  .stage(
    deployment({
      identifier: 'deploy',
      name: 'Deploy',
      deploymentType: 'Kubernetes',
      service: 'checkout',
      environment: 'staging',
      infrastructureDefinitions: ['staging_k8s'],
    }).step(rollout),
  );

export const checkoutWeb = pipeline({ identifier: 'checkout_web', name: 'Checkout web', project: delivery }).stage(gate());

export const checkoutWorker = pipeline({ identifier: 'checkout_worker', name: 'Checkout worker', project: delivery }).stage(gate());
