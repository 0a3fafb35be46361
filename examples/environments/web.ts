import { deployment, expr, input, pipeline, project, shell } from 'pipewright';
import { notifyRelease, smokeTest } from './steps.js';

export const payments = project({ identifier: 'payments', name: 'Payments', color: '#1F8A70' });

/** Why code beats YAML: three near-identical stages come from one array and one function. */
const environments = [
  { id: 'dev', namespace: 'web-dev', approval: false },
  { id: 'staging', namespace: 'web-staging', approval: false },
  { id: 'prod', namespace: 'web-prod', approval: true },
] as const;

const version = shell({
  identifier: 'version',
  name: 'Resolve version',
  script: 'export VERSION="$(cat VERSION)"',
  outputs: ['VERSION'],
  timeout: '1m',
});

export const web = environments.reduce(
  (built, env) =>
    built.stage(
      deployment({
        identifier: `deploy_${env.id}`,
        name: `Deploy ${env.id}`,
        service: 'web',
        environment: env.id,
        infrastructure: {
          connector: 'account.k8s_cluster',
          namespace: env.namespace,
          releaseName: expr`web-${expr.infra.key}`,
        },
        failureStrategies: [{ errors: 'AllErrors', action: 'StageRollback' }],
      })
        .step(version)
        .step(
          shell({
            identifier: 'rollout',
            name: 'Roll out',
            script: expr`kubectl -n ${env.namespace} set image deploy/web web=registry/web:${version.output('VERSION')}`,
            timeout: '10m',
          }),
        )
        .$if(env.approval, (stage) => stage.step(smokeTest))
        .step(notifyRelease(env.id)),
    ),
  pipeline({
    identifier: 'web',
    name: 'Web - dev to prod',
    project: payments,
    tags: { team: 'web' },
    variables: { host: input().default('web.example.com'), replicas: 3 },
  }),
);
