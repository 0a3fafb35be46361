import { catalogStep, type SugarStepOptions } from './catalog/catalog-step.js';
import type { StepBuilder } from './step.js';
import { declareStep } from './catalog/step-sugar.js';

/** Fields every Kubernetes deploy step ends with. */
const K8S_TAIL = ['commandFlags', 'delegateSelectors'] as const;

export const K8S_ROLLING_DEPLOY_SUGAR = declareStep('K8sRollingDeploy', {
  order: ['skipDryRun', 'pruningEnabled', ...K8S_TAIL],
});

/** Options of `k8sRollingDeploy()`: the common step options and the `K8sRollingDeploy` step's `spec` fields, flat. */
export type K8sRollingDeployStepOptions<Names extends string = never> = SugarStepOptions<
  typeof K8S_ROLLING_DEPLOY_SUGAR,
  Names
>;

/**
 * Rolling update of the stage service's Kubernetes manifests: pods are replaced a few at a time, then the step waits for the rollout.
 *
 * @example
 * ```ts
 * k8sRollingDeploy({ identifier: 'rollout', skipDryRun: false, pruningEnabled: false })
 * ```
 */
export const k8sRollingDeploy: <const Names extends string = never>(
  options: K8sRollingDeployStepOptions<Names>,
) => StepBuilder<Names, 'K8sRollingDeploy'> = catalogStep(K8S_ROLLING_DEPLOY_SUGAR);

export const K8S_ROLLING_ROLLBACK_SUGAR = declareStep('K8sRollingRollback', {
  order: ['pruningEnabled', 'skipDryRun', ...K8S_TAIL],
  outsideSchema: ['skipDryRun'],
});

/** Options of `k8sRollingRollback()`: the common step options and the `K8sRollingRollback` step's `spec` fields, flat. */
export type K8sRollingRollbackStepOptions<Names extends string = never> = SugarStepOptions<
  typeof K8S_ROLLING_ROLLBACK_SUGAR,
  Names
>;

/**
 * Returns the workloads a K8sRollingDeploy step changed to their previous revision; it belongs in `rollbackSteps`.
 *
 * @example
 * ```ts
 * k8sRollingRollback({ identifier: 'rollback', pruningEnabled: false })
 * ```
 */
export const k8sRollingRollback: <const Names extends string = never>(
  options: K8sRollingRollbackStepOptions<Names>,
) => StepBuilder<Names, 'K8sRollingRollback'> = catalogStep(K8S_ROLLING_ROLLBACK_SUGAR);

export const K8S_CANARY_DEPLOY_SUGAR = declareStep('K8sCanaryDeploy', {
  order: ['instanceSelection', 'skipDryRun', 'canaryType', ...K8S_TAIL, 'targetPercentage', 'trafficRouting'],
});

/** Options of `k8sCanaryDeploy()`: the common step options and the `K8sCanaryDeploy` step's `spec` fields, flat. */
export type K8sCanaryDeployStepOptions<Names extends string = never> = SugarStepOptions<
  typeof K8S_CANARY_DEPLOY_SUGAR,
  Names
>;

/**
 * Deploys a canary copy of the workload beside the current one, sized by `instanceSelection` (a count or a percentage of pods).
 *
 * @example
 * ```ts
 * k8sCanaryDeploy({ identifier: 'canary', skipDryRun: false, instanceSelection: { type: 'Count', spec: { count: 1 } } })
 * ```
 */
export const k8sCanaryDeploy: <const Names extends string = never>(
  options: K8sCanaryDeployStepOptions<Names>,
) => StepBuilder<Names, 'K8sCanaryDeploy'> = catalogStep(K8S_CANARY_DEPLOY_SUGAR);

export const K8S_BLUE_GREEN_DEPLOY_SUGAR = declareStep('K8sBlueGreenDeploy', {
  order: ['skipDryRun', 'pruningEnabled', 'skipDeploymentIfSameManifest', ...K8S_TAIL, 'trafficRouting'],
});

/** Options of `k8sBlueGreenDeploy()`: the common step options and the `K8sBlueGreenDeploy` step's `spec` fields, flat. */
export type K8sBlueGreenDeployStepOptions<Names extends string = never> = SugarStepOptions<
  typeof K8S_BLUE_GREEN_DEPLOY_SUGAR,
  Names
>;

/**
 * Deploys the new version as the stage colour of a blue/green pair, beside the primary one; K8sBGSwapServices then switches the traffic.
 *
 * @example
 * ```ts
 * k8sBlueGreenDeploy({ identifier: 'blueGreen', skipDryRun: false, pruningEnabled: false })
 * ```
 */
export const k8sBlueGreenDeploy: <const Names extends string = never>(
  options: K8sBlueGreenDeployStepOptions<Names>,
) => StepBuilder<Names, 'K8sBlueGreenDeploy'> = catalogStep(K8S_BLUE_GREEN_DEPLOY_SUGAR);

export const K8S_APPLY_SUGAR = declareStep('K8sApply', {
  order: [
    'filePaths',
    'skipDryRun',
    'skipSteadyStateCheck',
    'skipRendering',
    'overrides',
    ...K8S_TAIL,
    'manifestSource',
  ],
});

/** Options of `k8sApply()`: the common step options and the `K8sApply` step's `spec` fields, flat. */
export type K8sApplyStepOptions<Names extends string = never> = SugarStepOptions<typeof K8S_APPLY_SUGAR, Names>;

/**
 * Applies manifest files (jobs, config) outside the workload the service manages, and by default waits for them to be ready.
 *
 * @example
 * ```ts
 * k8sApply({ identifier: 'migrate', filePaths: ['jobs/migrate.yaml'], skipDryRun: false, skipSteadyStateCheck: false })
 * ```
 */
export const k8sApply: <const Names extends string = never>(
  options: K8sApplyStepOptions<Names>,
) => StepBuilder<Names, 'K8sApply'> = catalogStep(K8S_APPLY_SUGAR);

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

/** Options of `helmDeploy()`: the common step options and the `HelmDeploy` step's `spec` fields, flat. */
export type HelmDeployStepOptions<Names extends string = never> = SugarStepOptions<typeof HELM_DEPLOY_SUGAR, Names>;

/**
 * Installs or upgrades the stage service's chart as a native Helm release (`helm upgrade --install`).
 *
 * @example
 * ```ts
 * helmDeploy({ identifier: 'helm', skipDryRun: false, ignoreReleaseHistFailStatus: false })
 * ```
 */
export const helmDeploy: <const Names extends string = never>(
  options: HelmDeployStepOptions<Names>,
) => StepBuilder<Names, 'HelmDeploy'> = catalogStep(HELM_DEPLOY_SUGAR);
