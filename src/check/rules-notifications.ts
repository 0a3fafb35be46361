import type { Rule } from './walk.js';
import { isRecord } from '../core/is-record.js';
import { list, pipelineBody, ruleWarning } from './rule-kit.js';

/**
 * A notification rule without events or without a method is saved by the platform and sends nothing: the platform
 * reads the rules only when an event fires, and a rule it cannot use is logged, not refused (harness-core
 * `pipeline-service/.../pms/notification/NotificationHelper.java` L145-171; docs/fidelity.md). A warning.
 */
export const notificationDelivery: Rule = {
  code: 'notification-sends-nothing',
  kinds: ['pipeline'],
  document(_root, at) {
    for (const [index, rule] of list(pipelineBody(at.document).notificationRules).entries()) {
      if (!isRecord(rule) || rule.enabled === false) continue;
      const missing = [
        !hasEvents(rule.pipelineEvents) && 'pipelineEvents with a type',
        !(isRecord(rule.notificationMethod) && isRecord(rule.notificationMethod.spec)) &&
          'notificationMethod with a spec',
      ].filter((part): part is string => Boolean(part));
      if (missing.length === 0) continue;
      const named = typeof rule.name === 'string' ? ` "${rule.name}"` : '';
      at.report(
        ruleWarning(
          at.document,
          ['pipeline', 'notificationRules', index],
          'notification-sends-nothing',
          `notification rule${named} has no ${missing.join(' and no ')}: the platform saves it and sends nothing`,
          'list the events (e.g. pipelineEvents: [{ type: PipelineFailed }]) and the method (notificationMethod: { type: Slack, spec: { webhookUrl } }), or remove the rule',
        ),
      );
    }
  },
};

/** At least one event with a type: an event without one matches nothing (`PipelineEvent.type` is an enum). */
const hasEvents = (events: unknown) =>
  Array.isArray(events) && events.some((event) => isRecord(event) && event.type !== undefined);
