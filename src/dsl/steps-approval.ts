import { catalogStep, type SugarStepOptions } from './catalog/catalog-step.js';
import type { StepBuilder } from './step.js';
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

/** Options of `harnessApproval()`: the common step options and the `HarnessApproval` step's `spec` fields, flat. */
export type HarnessApprovalStepOptions<Names extends string = never> = SugarStepOptions<
  typeof HARNESS_APPROVAL_SUGAR,
  Names
>;

/**
 * Stops the pipeline until enough members of the approver user groups approve (`minimumCount`), or one rejects it.
 *
 * @example
 * ```ts
 * harnessApproval({
 *   identifier: 'approve',
 *   approvalMessage: 'Deploy to prod?',
 *   approvers: { userGroups: ['account.release_managers'], minimumCount: 1, disallowPipelineExecutor: false },
 * })
 * ```
 */
export const harnessApproval: <const Names extends string = never>(
  options: HarnessApprovalStepOptions<Names>,
) => StepBuilder<Names, 'HarnessApproval'> = catalogStep(HARNESS_APPROVAL_SUGAR);

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

/** Options of `jiraApproval()`: the common step options and the `JiraApproval` step's `spec` fields, flat. */
export type JiraApprovalStepOptions<Names extends string = never> = SugarStepOptions<typeof JIRA_APPROVAL_SUGAR, Names>;

/**
 * Waits until a Jira issue meets the approval criteria (for example its status is Done); meeting the rejection criteria fails the step.
 *
 * @example
 * ```ts
 * jiraApproval({
 *   identifier: 'jira',
 *   connectorRef: 'jira',
 *   projectKey: 'OPS',
 *   issueType: 'Task',
 *   issueKey: 'OPS-42',
 *   approvalCriteria: { type: 'KeyValues', spec: { matchAnyCondition: true, conditions: [{ key: 'Status', operator: 'equals', value: 'Done' }] } },
 *   rejectionCriteria: { type: 'KeyValues', spec: { matchAnyCondition: true, conditions: [] } },
 * })
 * ```
 */
export const jiraApproval: <const Names extends string = never>(
  options: JiraApprovalStepOptions<Names>,
) => StepBuilder<Names, 'JiraApproval'> = catalogStep(JIRA_APPROVAL_SUGAR);
