import { z } from 'zod';
import { orExpression } from './common.js';

const flag = orExpression(z.boolean()).optional();

export const k8sRollingDeploySpec = z
  .looseObject({ skipDryRun: flag, pruningEnabled: flag })
  .meta({ title: 'K8sRollingDeploy step spec' });

export const k8sRollingRollbackSpec = z
  .looseObject({ pruningEnabled: flag, skipDryRun: flag })
  .meta({ title: 'K8sRollingRollback step spec' });

export const k8sCanaryDeploySpec = z
  .looseObject({
    instanceSelection: z.discriminatedUnion('type', [
      z.looseObject({ type: z.literal('Count'), spec: z.looseObject({ count: orExpression(z.number().int().positive()) }) }),
      z.looseObject({
        type: z.literal('Percentage'),
        spec: z.looseObject({ percentage: orExpression(z.number().positive().max(100)) }),
      }),
    ]),
    skipDryRun: flag,
  })
  .meta({ title: 'K8sCanaryDeploy step spec' });

export const k8sBlueGreenDeploySpec = z
  .looseObject({ skipDryRun: flag, pruningEnabled: flag, skipDeploymentIfSameManifest: flag })
  .meta({ title: 'K8sBlueGreenDeploy step spec' });

export const k8sApplySpec = z
  .looseObject({
    filePaths: orExpression(z.array(z.string()).min(1)).meta({ description: 'Manifest paths, relative to the manifest root.' }),
    skipDryRun: flag,
    skipSteadyStateCheck: flag,
    skipRendering: flag,
    overrides: z.array(z.looseObject({})).optional(),
  })
  .meta({ title: 'K8sApply step spec' });

export const helmDeploySpec = z
  .looseObject({ skipDryRun: flag, ignoreReleaseHistFailStatus: flag, skipSteadyStateCheck: flag, useUpgradeInstall: flag })
  .meta({ title: 'HelmDeploy step spec' });
