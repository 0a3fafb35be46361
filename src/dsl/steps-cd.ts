import { catalogStep } from './catalog/catalog-step.js';

/** Rolling update of the stage's service manifests. */
export const k8sRollingDeploy = catalogStep('K8sRollingDeploy', { order: ['skipDryRun', 'pruningEnabled'] });

/** Rolls back what K8sRollingDeploy changed; usually in rollbackSteps. */
export const k8sRollingRollback = catalogStep('K8sRollingRollback', { order: ['pruningEnabled', 'skipDryRun'] });

/** Deploys a canary: `instanceSelection` by Count or Percentage. */
export const k8sCanaryDeploy = catalogStep('K8sCanaryDeploy', { order: ['instanceSelection', 'skipDryRun'] });

/** Deploys the stage version of a blue/green pair. */
export const k8sBlueGreenDeploy = catalogStep('K8sBlueGreenDeploy', {
  order: ['skipDryRun', 'pruningEnabled', 'skipDeploymentIfSameManifest'],
});

/** Applies manifest files outside the service's managed workload (jobs, config). */
export const k8sApply = catalogStep('K8sApply', {
  order: ['filePaths', 'skipDryRun', 'skipSteadyStateCheck', 'skipRendering', 'overrides'],
});

/** Native Helm deployment of the stage's chart. */
export const helmDeploy = catalogStep('HelmDeploy', {
  order: ['skipDryRun', 'ignoreReleaseHistFailStatus', 'skipSteadyStateCheck', 'useUpgradeInstall'],
});
