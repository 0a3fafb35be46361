import type {
  helmDeploySpec,
  k8sApplySpec,
  k8sBlueGreenDeploySpec,
  k8sCanaryDeploySpec,
  k8sRollingDeploySpec,
  k8sRollingRollbackSpec,
} from '../schema/steps-cd.js';
import { typedStep } from './typed-step.js';

/** Rolling update of the stage's service manifests. */
export const k8sRollingDeploy = typedStep<typeof k8sRollingDeploySpec>('K8sRollingDeploy', ['skipDryRun', 'pruningEnabled']);

/** Rolls back what K8sRollingDeploy changed; usually in rollbackSteps. */
export const k8sRollingRollback = typedStep<typeof k8sRollingRollbackSpec>('K8sRollingRollback', ['pruningEnabled', 'skipDryRun']);

/** Deploys a canary: `instanceSelection` by Count or Percentage. */
export const k8sCanaryDeploy = typedStep<typeof k8sCanaryDeploySpec>('K8sCanaryDeploy', ['instanceSelection', 'skipDryRun']);

/** Deploys the stage version of a blue/green pair. */
export const k8sBlueGreenDeploy = typedStep<typeof k8sBlueGreenDeploySpec>('K8sBlueGreenDeploy', ['skipDryRun', 'pruningEnabled', 'skipDeploymentIfSameManifest']);

/** Applies manifest files outside the service's managed workload (jobs, config). */
export const k8sApply = typedStep<typeof k8sApplySpec>('K8sApply', ['filePaths', 'skipDryRun', 'skipSteadyStateCheck', 'skipRendering', 'overrides']);

/** Native Helm deployment of the stage's chart. */
export const helmDeploy = typedStep<typeof helmDeploySpec>('HelmDeploy', ['skipDryRun', 'ignoreReleaseHistFailStatus', 'skipSteadyStateCheck', 'useUpgradeInstall']);
