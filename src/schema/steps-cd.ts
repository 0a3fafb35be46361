import { z } from 'zod';
import { orExpression } from './common.js';

const flag = orExpression(z.boolean()).optional();
const skipDryRun = orExpression(z.boolean()).optional().meta({ description: 'Skip the kubectl dry run of the manifests.' });
const pruningEnabled = orExpression(z.boolean()).optional().meta({ description: 'Delete resources the new release no longer declares.' });

export const k8sRollingDeploySpec = z
  .looseObject({ skipDryRun, pruningEnabled })
  .meta({ title: 'K8sRollingDeploy step spec' });

export const k8sRollingRollbackSpec = z
  .looseObject({ pruningEnabled, skipDryRun })
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
    skipDryRun,
  })
  .meta({ title: 'K8sCanaryDeploy step spec' });

export const k8sBlueGreenDeploySpec = z
  .looseObject({ skipDryRun, pruningEnabled, skipDeploymentIfSameManifest: flag })
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
