import { project, raw } from 'pipewright';

/**
 * What the pipelines deploy with, defined once beside them: the project, the service, the environment and the
 * cluster in it. publish sends them before the pipelines that refer to them.
 */
export const delivery = project({ identifier: 'delivery', name: 'Delivery', org: 'default', color: '#0063F7' });

export const checkout = raw.service({
  service: {
    name: 'Checkout',
    identifier: 'checkout',
    orgIdentifier: 'default',
    projectIdentifier: 'delivery',
    tags: { team: 'payments' },
    serviceDefinition: {
      type: 'Kubernetes',
      spec: {
        manifests: [
          {
            manifest: {
              identifier: 'checkout_manifests',
              type: 'K8sManifest',
              spec: {
                store: { type: 'Github', spec: { connectorRef: 'account.github', gitFetchType: 'Branch', paths: ['deploy/checkout'], repoName: 'checkout', branch: 'main' } },
              },
            },
          },
        ],
        variables: [{ name: 'replicas', type: 'String', value: '3' }],
      },
    },
  },
});

export const staging = raw.environment({
  environment: {
    name: 'Staging',
    identifier: 'staging',
    orgIdentifier: 'default',
    projectIdentifier: 'delivery',
    type: 'PreProduction',
    tags: {},
    variables: [{ name: 'region', type: 'String', value: 'eu-west-1' }],
  },
});

export const stagingCluster = raw.infrastructure({
  infrastructureDefinition: {
    name: 'Staging cluster',
    identifier: 'staging_k8s',
    orgIdentifier: 'default',
    projectIdentifier: 'delivery',
    environmentRef: 'staging',
    deploymentType: 'Kubernetes',
    type: 'KubernetesDirect',
    spec: { connectorRef: 'account.k8s_cluster', namespace: 'delivery-staging', releaseName: 'release-<+INFRA_KEY>' },
    allowSimultaneousDeployments: false,
  },
});
