import { catalogStep } from './catalog/catalog-step.js';
import { declareStep } from './catalog/step-sugar.js';

export const HARNESS_APPROVAL_SUGAR = declareStep('HarnessApproval', {
  // The platform requires it; real documents write true (the editor default).
  defaults: { includePipelineExecutionHistory: true },
  order: [
    'approvalMessage',
    'includePipelineExecutionHistory',
    'isAutoRejectEnabled',
    'approvers',
    'approverInputs',
    'autoApproval',
    'callbackId',
  ],
});

/** Waits for members of user groups to approve (or reject). */
export const harnessApproval = catalogStep(HARNESS_APPROVAL_SUGAR);

export const JIRA_APPROVAL_SUGAR = declareStep('JiraApproval', {
  order: [
    'connectorRef',
    'projectKey',
    'issueType',
    'issueKey',
    'approvalCriteria',
    'rejectionCriteria',
    'retryInterval',
    'delegateSelectors',
  ],
});

/** Waits until a Jira issue matches the approval (or rejection) criteria. */
export const jiraApproval = catalogStep(JIRA_APPROVAL_SUGAR);
