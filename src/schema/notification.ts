import { z } from 'zod';

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

/**
 * Every field is optional, as on the platform: it reads notification rules only when an event fires
 * (harness-core `NotificationHelper.java` L197-202, `NotificationRules.java` has no required field and no
 * `identifier`), so a rule without events or a method is saved and sends nothing. The rule
 * `notification-sends-nothing` warns about that (docs/fidelity.md).
 */
export const notificationRule = z
  .looseObject({
    name: z.string().optional(),
    // The platform's rule has no identifier (it ignores the key), so any value is taken.
    identifier: z.unknown().optional(),
    enabled: z.boolean().optional(),
    pipelineEvents: z
      .array(
        z.looseObject({
          type: z
            .string()
            .optional()
            .meta({ description: `Event, e.g. ${PIPELINE_EVENTS.join(', ')}.`, examples: ['PipelineFailed'] }),
          forStages: z
            .array(z.string())
            .optional()
            .meta({ description: 'For stage events: stage identifiers, or AllStages.' }),
        }),
      )
      .optional(),
    notificationMethod: z
      .looseObject({
        type: z.enum(NOTIFICATION_METHODS),
        spec: z
          .looseObject({
            userGroups: z.array(z.string()).optional(),
            recipients: z.array(z.string()).optional(),
            webhookUrl: z.string().optional(),
            integrationKey: z.string().optional(),
            msTeamKeys: z.array(z.string()).optional(),
            headers: z.record(z.string(), z.string()).optional(),
          })
          .optional(),
      })
      .optional(),
  })
  .meta({ title: 'Notification rule' });

export type NotificationRule = z.infer<typeof notificationRule>;
