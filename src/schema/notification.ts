import { z } from 'zod';
import { identifier } from './common.js';

/** Event names are strings, not an enum: the platform adds events, and an unknown one must not block a pipeline. */
export const PIPELINE_EVENTS = [
  'AllEvents',
  'PipelineStart',
  'PipelineSuccess',
  'PipelineFailed',
  'PipelineEnd',
  'PipelinePaused',
  'StageStart',
  'StageSuccess',
  'StageFailed',
  'StepFailed',
] as const;

export const NOTIFICATION_METHODS = ['Email', 'Slack', 'PagerDuty', 'MsTeams', 'Webhook', 'Datadog'] as const;

export const notificationRule = z
  .looseObject({
    name: z.string().min(1),
    identifier,
    enabled: z.boolean().optional(),
    pipelineEvents: z
      .array(
        z.looseObject({
          type: z
            .string()
            .meta({ description: `Event, e.g. ${PIPELINE_EVENTS.join(', ')}.`, examples: ['PipelineFailed'] }),
          forStages: z
            .array(z.string())
            .optional()
            .meta({ description: 'For stage events: stage identifiers, or AllStages.' }),
        }),
      )
      .min(1, { error: 'list at least one event, e.g. PipelineFailed' }),
    notificationMethod: z.looseObject({
      type: z.enum(NOTIFICATION_METHODS),
      spec: z.looseObject({
        userGroups: z.array(z.string()).optional(),
        recipients: z.array(z.string()).optional(),
        webhookUrl: z.string().optional(),
        integrationKey: z.string().optional(),
        msTeamKeys: z.array(z.string()).optional(),
        headers: z.record(z.string(), z.string()).optional(),
      }),
    }),
  })
  .meta({ title: 'Notification rule' });

export type NotificationRule = z.infer<typeof notificationRule>;
