import { connectorDocument } from './connector.js';
import { pipelineDocument } from './pipeline.js';
import { projectDocument } from './project.js';

export * from './common.js';
export * from './connector.js';
export * from './failure-strategy.js';
export * from './pipeline-elements.js';
export * from './pipeline.js';
export * from './project.js';
export * from './notification.js';
export * from './stages.js';
export * from './step-categories.js';
export * from './steps.js';
export * from './strategy.js';
export * from './template-ref.js';

export { RESOURCE_KINDS, type ResourceKind } from '../catalog/kinds.js';

/** The document schema of each kind; the root key of a document is its kind. */
export const documentSchemas = {
  project: projectDocument,
  connector: connectorDocument,
  pipeline: pipelineDocument,
} as const;
