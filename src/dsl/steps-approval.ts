import type { harnessApprovalSpec, jiraApprovalSpec } from '../schema/steps-approval.js';
import { typedStep } from './typed-step.js';

/** Waits for members of user groups to approve (or reject). */
export const harnessApproval = typedStep<typeof harnessApprovalSpec>('HarnessApproval', [
  'approvalMessage', 'includePipelineExecutionHistory', 'isAutoRejectEnabled', 'approvers', 'approverInputs', 'autoApproval',
]);

/** Waits until a Jira issue matches the approval (or rejection) criteria. */
export const jiraApproval = typedStep<typeof jiraApprovalSpec>('JiraApproval', [
  'connectorRef', 'projectKey', 'issueType', 'issueKey', 'approvalCriteria', 'rejectionCriteria', 'retryInterval', 'delegateSelectors',
]);
