import type { z } from 'zod';
import { STAGE_TYPES } from '../catalog/catalog.js';
import { stageSpecRegistry } from './catalog-schemas.js';
import { ciSpec } from './stage-ci.js';
import { deploymentSpec } from './stage-deployment.js';
import { approvalSpec, customSpec, pipelineStageSpec } from './stage-flow.js';

export * from './stage-ci.js';
export * from './stage-deployment.js';
export * from './stage-flow.js';

/**
 * Stage specs modelled by hand: they check the stage's execution steps and the rules between a stage's
 * fields (a CI stage says where it runs; a Deployment stage names its service) that the platform's schema
 * cannot express.
 */
export const HAND_MODELLED_STAGE_SPECS: Readonly<Record<string, z.ZodType>> = {
  Deployment: deploymentSpec,
  CI: ciSpec,
  Approval: approvalSpec,
  Custom: customSpec,
  Pipeline: pipelineStageSpec,
};

/** The wire `spec` of every stage type the platform's schema knows, by `type`: hand-modelled, else the catalogue's. */
export const stageSpecs: Readonly<Record<string, z.ZodType>> = Object.freeze(
  Object.defineProperties(
    {},
    Object.fromEntries(
      STAGE_TYPES.map((type) => [
        type,
        { enumerable: true, get: () => HAND_MODELLED_STAGE_SPECS[type] ?? stageSpecRegistry[type] },
      ]),
    ),
  ) as Record<string, z.ZodType>,
);
