/**
 * deployment()'s forms in the types: the current service/environment form (with `serviceOverrideInputs`), the
 * Kubernetes shorthand of the older form, and the older `serviceConfig`/`infrastructure` form given whole, whose
 * combinations follow the platform's schema (a service by reference, inline, or from an earlier stage).
 */
import { deployment, environment, infrastructure, input, k8sRollingDeploy, service } from 'pipewright';

const definition = { type: 'Kubernetes', spec: { variables: [] } } as const;

// --- the current form ---------------------------------------------------------------------------------------
deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  service: 's',
  environment: 'e',
  serviceOverrideInputs: input(),
  infrastructureDefinitions: input(),
});
deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  service: 's',
  environment: 'e',
  serviceOverrideInputs: { variables: [{ name: 'replicas', type: 'String', value: '<+input>' }] },
});

// A GitOps stage: syncs the clusters of an Argo agent rather than deploying to infrastructures.
deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  gitOpsEnabled: true,
  service: 's',
  environment: 'e',
  gitOpsClusters: [{ identifier: 'incluster', agentIdentifier: 'argo' }],
});
deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  gitOpsEnabled: input(),
  service: 's',
  environment: 'e',
  gitOpsClusters: input(),
});
// A custom deployment's template, the deployment type's metadata, a service and an environment kept in Git.
deployment({
  identifier: 'd',
  deploymentType: 'CustomDeployment',
  customDeploymentRef: { templateRef: 'vm_fleet', versionLabel: '1' },
  deploymentMetadata: { environmentType: 'GenOne' },
  service: 's',
  serviceGitBranch: 'main',
  environment: 'e',
  environmentGitBranch: input(),
});
// @ts-expect-error: customDeploymentRef names its template
deployment({
  identifier: 'd',
  deploymentType: 'CustomDeployment',
  customDeploymentRef: { versionLabel: '1' },
  service: 's',
  environment: 'e',
});
// @ts-expect-error: a GitOps cluster names its identifier
deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  gitOpsEnabled: true,
  service: 's',
  environment: 'e',
  gitOpsClusters: [{ agentIdentifier: 'argo' }],
});
deployment({
  identifier: 'd',
  service: 's',
  environment: 'e',
  infrastructure: { connector: 'k', namespace: 'n' },
  // @ts-expect-error: gitOpsEnabled is the current form's; the Kubernetes shorthand of the older form has no such option
  gitOpsEnabled: true,
});

// --- the older form, given whole ------------------------------------------------------------------------------
deployment({
  identifier: 'd',
  serviceConfig: { useFromStage: { stage: 'dev' } },
  infrastructure: { environmentRef: 'qa', useFromStage: { stage: 'dev' } },
});
deployment({
  identifier: 'd',
  serviceConfig: { serviceRef: 'cart', serviceDefinition: definition, stageOverrides: { manifests: [] } },
  infrastructure: {
    environmentRef: 'dev',
    infrastructureDefinition: {
      type: 'KubernetesDirect',
      spec: { connectorRef: 'k', namespace: 'n', releaseName: 'r' },
    },
  },
  steps: [k8sRollingDeploy({ identifier: 'roll' })],
});
deployment({
  identifier: 'd',
  serviceConfig: { service: { name: 'cart', identifier: 'cart' }, serviceDefinition: definition },
  infrastructure: {
    environment: { name: 'dev', identifier: 'dev', type: 'PreProduction' },
    infrastructureDefinition: {
      type: 'KubernetesDirect',
      spec: { connectorRef: 'k', namespace: 'n', releaseName: 'r' },
    },
    allowSimultaneousDeployments: input(),
  },
});

deployment({
  identifier: 'd',
  // @ts-expect-error a service by reference needs its serviceDefinition
  serviceConfig: { serviceRef: 'cart' },
  infrastructure: { environmentRef: 'qa', useFromStage: { stage: 'dev' } },
});
deployment({
  identifier: 'd',
  // @ts-expect-error a service from an earlier stage has no serviceDefinition of its own
  serviceConfig: { useFromStage: { stage: 'dev' }, serviceDefinition: definition },
  infrastructure: { environmentRef: 'qa', useFromStage: { stage: 'dev' } },
});
deployment({
  identifier: 'd',
  serviceConfig: { useFromStage: { stage: 'dev' } },
  // @ts-expect-error an environment is given by reference or inline, not both
  infrastructure: {
    environmentRef: 'qa',
    environment: { name: 'qa', identifier: 'qa', type: 'PreProduction' },
    useFromStage: { stage: 'dev' },
  },
});
deployment({
  identifier: 'd',
  serviceConfig: { useFromStage: { stage: 'dev' } },
  // @ts-expect-error an inline environment is Production or PreProduction
  infrastructure: { environment: { name: 'qa', identifier: 'qa', type: 'Staging' }, useFromStage: { stage: 'dev' } },
});
// @ts-expect-error the older form takes no serviceRef beside serviceConfig (serviceConfig says the service)
deployment({
  identifier: 'd',
  service: 's',
  serviceConfig: { useFromStage: { stage: 'dev' } },
  infrastructure: { environmentRef: 'qa', useFromStage: { stage: 'dev' } },
});
// @ts-expect-error the older form needs its infrastructure
deployment({ identifier: 'd', serviceConfig: { useFromStage: { stage: 'dev' } } });
deployment({
  identifier: 'd',
  service: 's',
  environment: 'e',
  infrastructure: { connector: 'k', namespace: 'n' },
  // @ts-expect-error serviceOverrideInputs belongs to the current form
  serviceOverrideInputs: {},
});

// The deployment type is one of the platform's (an enum in its schema).
deployment({ identifier: 'd', deploymentType: 'NativeHelm', service: 's', environment: 'e', deployToAll: true });
// @ts-expect-error: "Kubernetess" is no deployment type
deployment({ identifier: 'd', deploymentType: 'Kubernetess', service: 's', environment: 'e', deployToAll: true });

// --- the service, environment and infrastructures as builders (what import writes when it imported them) -----
const checkoutService = service({ identifier: 'checkout', project: 'shop', deploymentType: 'Kubernetes', spec: {} });
const prodEnvironment = environment({ identifier: 'prod', project: 'shop', type: 'Production' });
const euInfrastructure = infrastructure({
  identifier: 'eu',
  project: 'shop',
  environment: prodEnvironment,
  deploymentType: 'Kubernetes',
  type: 'KubernetesDirect',
  spec: { connectorRef: 'account.cluster', namespace: 'shop' },
});
deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  service: checkoutService,
  environment: prodEnvironment,
  infrastructureDefinitions: [euInfrastructure, 'us'],
});
deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  // @ts-expect-error an environment is no service
  service: prodEnvironment,
  environment: prodEnvironment,
});
deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  service: checkoutService,
  // @ts-expect-error a service is no environment
  environment: checkoutService,
});
// @ts-expect-error an environment is no infrastructure (reported at the call: both forms now take the builders)
deployment({
  identifier: 'd',
  deploymentType: 'Kubernetes',
  service: checkoutService,
  environment: prodEnvironment,
  infrastructureDefinitions: [prodEnvironment],
});
// The Kubernetes shorthand of the older form takes the service's and the environment's builders too.
deployment({
  identifier: 'd',
  service: checkoutService,
  environment: prodEnvironment,
  infrastructure: { connector: 'k', namespace: 'n' },
});
deployment({
  identifier: 'd',
  // @ts-expect-error an environment is no service, in the older form too
  service: prodEnvironment,
  environment: prodEnvironment,
  infrastructure: { connector: 'k', namespace: 'n' },
});
