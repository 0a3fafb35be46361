import { deployment, input, pipeline, shell, stageTemplate } from 'pipewright';
import { checkout, delivery, staging, stagingCluster } from './platform.js';
import { qualityGate } from './quality-gate.js';

/** The quality gate, as each pipeline's first stage: the template builder, so its version comes with it. */
const gate = () => stageTemplate({ identifier: 'quality_gate', name: 'Quality gate', templateRef: qualityGate });

const rollout = shell({
  identifier: 'rollout',
  name: 'Roll out',
  script: 'kubectl rollout status deploy/checkout',
  timeout: '10m',
});

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
      service: checkout,
      environment: staging,
      infrastructureDefinitions: [stagingCluster],
    }).step(rollout),
  );

export const checkoutWeb = pipeline({ identifier: 'checkout_web', name: 'Checkout web', project: delivery }).stage(
  gate(),
);

export const checkoutWorker = pipeline({
  identifier: 'checkout_worker',
  name: 'Checkout worker',
  project: delivery,
}).stage(gate());
