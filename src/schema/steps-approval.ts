import { z } from 'zod';
import { delegateSelectors, duration, orExpression } from './common.js';

export const harnessApprovalSpec = z
  .looseObject({
    approvalMessage: z.string().optional().meta({ description: 'What approvers see.' }),
    includePipelineExecutionHistory: orExpression(z.boolean()).optional().meta({ description: 'Show approvers the earlier stages of this run.' }),
    isAutoRejectEnabled: orExpression(z.boolean()).optional(),
    approvers: z.looseObject({
      userGroups: orExpression(z.array(z.string()).min(1, { error: 'name at least one user group' })).meta({
        description: 'User groups that may approve, e.g. account._account_all_users.',
      }),
      minimumCount: orExpression(z.number().int().min(1)).meta({ description: 'Approvals needed.' }),
      disallowPipelineExecutor: orExpression(z.boolean()).meta({ description: 'Whoever started the run may not approve it.' }),
    }),
    approverInputs: z.array(z.looseObject({ name: z.string(), defaultValue: z.string().optional() })).optional(),
    autoApproval: z
      .looseObject({
        action: z.enum(['APPROVE', 'REJECT']),
        scheduledDeadline: z.looseObject({ setAfter: z.string(), timeZone: z.string() }),
        comments: z.string().optional(),
      })
      .optional(),
  })
  .meta({ title: 'HarnessApproval step spec' });

const JIRA_OPERATORS = ['equals', 'not equals', 'in', 'not in'] as const;

const criteria = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('KeyValues'),
    spec: z.looseObject({
      matchAnyCondition: orExpression(z.boolean()).optional(),
      conditions: z.array(z.looseObject({ key: z.string(), operator: z.enum(JIRA_OPERATORS), value: z.string() })),
    }),
  }),
  z.looseObject({ type: z.literal('Jexl'), spec: z.looseObject({ expression: z.string() }) }),
]);

export const jiraApprovalSpec = z
  .looseObject({
    connectorRef: z.string(),
    projectKey: z.string().optional(),
    issueType: z.string().optional(),
    issueKey: z.string().meta({ examples: ['<+input>', 'OPS-123'] }),
    approvalCriteria: criteria,
    rejectionCriteria: criteria.optional(),
    retryInterval: duration.optional().meta({ description: 'How often to read the issue again.' }),
    delegateSelectors: delegateSelectors.optional(),
  })
  .meta({ title: 'JiraApproval step spec' });
