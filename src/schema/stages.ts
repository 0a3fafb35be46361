import type { z } from 'zod';
import { ciSpec } from './stage-ci.js';
import { deploymentSpec } from './stage-deployment.js';
import { approvalSpec, customSpec, pipelineStageSpec } from './stage-flow.js';

export * from './stage-ci.js';
export * from './stage-deployment.js';
export * from './stage-flow.js';

/** Typed specs of the stage types pipewright models; any other `type` passes through unchecked. */
export const stageSpecs: Record<string, z.ZodType> = {
  Deployment: deploymentSpec,
  CI: ciSpec,
  Approval: approvalSpec,
  Custom: customSpec,
  Pipeline: pipelineStageSpec,
};

/** Stage types of the platform that pipewright knows by name; used for "did you mean". */
export const KNOWN_STAGE_TYPES: readonly string[] = [
  'Deployment', 'CI', 'Approval', 'Custom', 'Pipeline', 'FeatureFlag', 'SecurityTests', 'IACM',
];
