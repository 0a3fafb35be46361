import { environment, infrastructure, project, service } from 'pipewright';

/**
 * What the pipelines deploy with, defined once beside them: the project, the service, the environment and the
 * cluster in it. publish sends them before the pipelines that refer to them.
 */
export const delivery = project({ identifier: 'delivery', name: 'Delivery', org: 'default', color: '#0063F7' });

export const checkout = service({
  identifier: 'checkout',
  name: 'Checkout',
  project: delivery,
  tags: { team: 'payments' },
  deploymentType: 'Kubernetes',
  spec: {
    manifests: [
      {
        manifest: {
          identifier: 'checkout_manifests',
          type: 'K8sManifest',
          spec: {
            store: {
              type: 'Github',
              spec: {
                connectorRef: 'account.github',
                gitFetchType: 'Branch',
                paths: ['deploy/checkout'],
                repoName: 'checkout',
                branch: 'main',
              },
            },
          },
        },
      },
    ],
    variables: [{ name: 'replicas', type: 'String', value: '3' }],
  },
});

export const staging = environment({
  identifier: 'staging',
  name: 'Staging',
  project: delivery,
  type: 'PreProduction',
  variables: { region: 'eu-west-1' },
});

export const stagingCluster = infrastructure({
  identifier: 'staging_k8s',
  name: 'Staging cluster',
  environment: staging,
  deploymentType: 'Kubernetes',
  type: 'KubernetesDirect',
  spec: { connectorRef: 'account.k8s_cluster', namespace: 'delivery-staging', releaseName: 'release-<+INFRA_KEY>' },
});
