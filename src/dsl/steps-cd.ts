import { catalogStep } from './catalog/catalog-step.js';
import { declareStep } from './catalog/step-sugar.js';

/** Fields every Kubernetes deploy step ends with. */
const K8S_TAIL = ['commandFlags', 'delegateSelectors'] as const;

export const K8S_ROLLING_DEPLOY_SUGAR = declareStep('K8sRollingDeploy', { order: ['skipDryRun', 'pruningEnabled', ...K8S_TAIL] });

/** Rolling update of the stage's service manifests. */
export const k8sRollingDeploy = catalogStep(K8S_ROLLING_DEPLOY_SUGAR);

export const K8S_ROLLING_ROLLBACK_SUGAR = declareStep('K8sRollingRollback', {
  order: ['pruningEnabled', 'skipDryRun', ...K8S_TAIL],
  outsideSchema: ['skipDryRun'],
});

/** Rolls back what K8sRollingDeploy changed; usually in rollbackSteps. */
export const k8sRollingRollback = catalogStep(K8S_ROLLING_ROLLBACK_SUGAR);

export const K8S_CANARY_DEPLOY_SUGAR = declareStep('K8sCanaryDeploy', {
  order: ['instanceSelection', 'skipDryRun', 'canaryType', ...K8S_TAIL, 'targetPercentage', 'trafficRouting'],
});

/** Deploys a canary: `instanceSelection` by Count or Percentage. */
export const k8sCanaryDeploy = catalogStep(K8S_CANARY_DEPLOY_SUGAR);

export const K8S_BLUE_GREEN_DEPLOY_SUGAR = declareStep('K8sBlueGreenDeploy', {
  order: ['skipDryRun', 'pruningEnabled', 'skipDeploymentIfSameManifest', ...K8S_TAIL, 'trafficRouting'],
});

/** Deploys the stage version of a blue/green pair. */
export const k8sBlueGreenDeploy = catalogStep(K8S_BLUE_GREEN_DEPLOY_SUGAR);

export const K8S_APPLY_SUGAR = declareStep('K8sApply', {
  order: ['filePaths', 'skipDryRun', 'skipSteadyStateCheck', 'skipRendering', 'overrides', ...K8S_TAIL, 'manifestSource'],
});

/** Applies manifest files outside the service's managed workload (jobs, config). */
export const k8sApply = catalogStep(K8S_APPLY_SUGAR);

export const HELM_DEPLOY_SUGAR = declareStep('HelmDeploy', {
  order: [
    'skipDryRun',
    'ignoreReleaseHistFailStatus',
    'skipSteadyStateCheck',
    'useUpgradeInstall',
    ...K8S_TAIL,
    'environmentVariables',
    'runChartTests',
    'skipCleanup',
  ],
});

/** Native Helm deployment of the stage's chart. */
export const helmDeploy = catalogStep(HELM_DEPLOY_SUGAR);
