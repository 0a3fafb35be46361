import { connectorDocument } from './connector.js';
import { environmentDocument } from './environment.js';
import { infrastructureDocument } from './infrastructure.js';
import { inputSetDocument, overlayInputSetDocument } from './input-set.js';
import { pipelineDocument } from './pipeline.js';
import { projectDocument } from './project.js';
import { serviceDocument } from './service.js';
import { templateDocument } from './template.js';
import { triggerDocument } from './trigger.js';

export * from './common.js';
export * from './connector.js';
export * from './environment.js';
export * from './infrastructure.js';
export * from './input-set.js';
export * from './service.js';
export * from './template.js';
export * from './trigger.js';
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

/** The document schema of each kind (the table of kinds gives each its root key). */
export const documentSchemas = {
  project: projectDocument,
  connector: connectorDocument,
  service: serviceDocument,
  environment: environmentDocument,
  infrastructure: infrastructureDocument,
  template: templateDocument,
  pipeline: pipelineDocument,
  inputSet: inputSetDocument,
  overlayInputSet: overlayInputSetDocument,
  trigger: triggerDocument,
} as const;
