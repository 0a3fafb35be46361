import { catalogStep } from './catalog/catalog-step.js';

/** Waits for members of user groups to approve (or reject). */
export const harnessApproval = catalogStep('HarnessApproval', {
  // The platform requires it; real documents write true (the editor default).
  defaults: { includePipelineExecutionHistory: true },
  order: [
    'approvalMessage',
    'includePipelineExecutionHistory',
    'isAutoRejectEnabled',
    'approvers',
    'approverInputs',
    'autoApproval',
  ],
});

/** Waits until a Jira issue matches the approval (or rejection) criteria. */
export const jiraApproval = catalogStep('JiraApproval', {
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
