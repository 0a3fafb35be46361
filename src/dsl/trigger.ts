import type { TriggerFields, Trigger_trigger_source } from './catalog/generated/types.js';
import { type Child, type Reference, RESOURCE_BRAND, type Scope } from '../ir/node.js';
import { captureSite } from '../core/source-site.js';
import { inputSetRefs, ownedScope, pipelineReference, type InputSetsOption, type PipelineOption } from './input-set.js';
import { keyList } from './key-list.js';
import { checkOptions } from './option-check.js';
import { wireValue } from './references.js';
import {
  SCOPED_KEYS,
  ScopedResource,
  type OtherFieldsOption,
  type ResourceBuilder,
  type ScopedOptions,
} from './scoped-resource.js';

interface TriggerCommonOptions extends ScopedOptions, OtherFieldsOption {
  /** The pipeline it runs: a builder (checked to be compiled too, and giving the scope) or its identifier. */
  readonly pipeline: PipelineOption;
  readonly enabled?: boolean;
  /** The runtime inputs of the run, as a pipeline-shaped YAML text (`inputYaml`). */
  readonly inputYaml?: string;
  /** Input sets to run with (`inputSetRefs`), by builder or identifier. */
  readonly inputSets?: InputSetsOption;
  readonly pipelineBranchName?: string;
  readonly stagesToExecute?: readonly string[];
}

export interface TriggerOptions extends TriggerCommonOptions {
  /** `source` as the platform's schema describes it: `{ type: 'Webhook' | 'Artifact' | 'Scheduled' | ..., spec }`. */
  readonly source: Trigger_trigger_source;
}

/** A trigger: what starts a pipeline (a schedule, a webhook, a new artifact). */
export interface TriggerBuilder extends ResourceBuilder<'trigger'> {}

class TriggerImpl extends ScopedResource<'trigger', TriggerOptions> implements TriggerBuilder {
  get [RESOURCE_BRAND]() {
    return 'trigger' as const;
  }
  override get scope(): Scope {
    return ownedScope(this.props.pipeline, this.props, super.scope);
  }
  protected fields(references: Reference[], _children: Child[]): Record<string, unknown> {
    const { enabled, source, inputYaml, inputSets, pipelineBranchName, stagesToExecute } = this.props;
    return {
      enabled,
      pipelineIdentifier: pipelineReference(this.props.pipeline, references, ['pipelineIdentifier']),
      source: wireValue(source, references, ['source']),
      inputYaml,
      inputSetRefs: inputSets && inputSetRefs(inputSets, references, ['inputSetRefs']),
      pipelineBranchName,
      stagesToExecute: stagesToExecute && [...stagesToExecute],
    };
  }
}

const COMMON_KEYS = [
  ...SCOPED_KEYS,
  ...keyList<TriggerCommonOptions, keyof ScopedOptions>()([
    'otherFields',
    'pipeline',
    'enabled',
    'inputYaml',
    'inputSets',
    'pipelineBranchName',
    'stagesToExecute',
  ]),
];

function make(
  name: string,
  options: TriggerCommonOptions,
  extra: readonly string[],
  required: readonly string[],
  source: TriggerOptions['source'],
  caller: (...args: never[]) => unknown,
): TriggerBuilder {
  const issues = checkOptions(name, options, [...COMMON_KEYS, ...extra], ['identifier', 'pipeline', ...required]);
  const common = Object.fromEntries(
    Object.entries(options).filter(([key]) => COMMON_KEYS.includes(key)),
  ) as unknown as TriggerCommonOptions;
  return new TriggerImpl({ ...common, source, issues }, captureSite(caller));
}

export interface CronTriggerOptions extends TriggerCommonOptions {
  /** A cron expression, e.g. `0 2 * * *`. */
  readonly expression: string;
  /** `UNIX` (five fields) or `QUARTZ` (with seconds); the platform's own `spec.type`. */
  readonly cronType?: 'UNIX' | 'QUARTZ';
  readonly timezone?: string;
}

export interface WebhookTriggerOptions extends TriggerCommonOptions {
  /** The Git provider or `Custom`: `Github`, `Gitlab`, `Bitbucket`, `AzureRepo`, `Harness`, `Custom`. */
  readonly provider: string;
  /** The event, e.g. `PullRequest`, `Push`, `IssueComment`, `Release`; absent for a Custom webhook. */
  readonly event?: string;
  /** The event's `spec`: connector, actions, payload and header conditions, as on the wire. */
  readonly spec: { readonly [key: string]: unknown };
}

export interface ArtifactTriggerOptions extends TriggerCommonOptions {
  /** The artifact registry type: `DockerRegistry`, `Ecr`, `Gcr`, `ArtifactoryRegistry`, ... */
  readonly artifactType: string;
  /** The registry's `spec`: connector, image path, tag, event conditions, as on the wire. */
  readonly spec: { readonly [key: string]: unknown };
}

/**
 * A trigger: what starts a pipeline. `trigger({ source })` takes any source as the platform's schema has it;
 * `trigger.cron`, `trigger.webhook` and `trigger.artifact` write the common ones.
 *
 * @example
 * ```ts
 * trigger.cron({ identifier: 'nightly', pipeline: 'release', project: 'web', expression: '0 2 * * *' })
 * ```
 */
export const trigger = Object.assign(
  function trigger(options: TriggerOptions): TriggerBuilder {
    return make('trigger', options, ['source'], ['source'], options.source, trigger);
  },
  {
    cron: function cron(options: CronTriggerOptions): TriggerBuilder {
      const { expression, cronType, timezone } = options;
      const spec = { type: cronType, expression, timezone };
      return make(
        'trigger.cron',
        options,
        ['expression', 'cronType', 'timezone'],
        ['expression'],
        { type: 'Scheduled', spec: { type: 'Cron', spec } } as never,
        cron,
      );
    },
    webhook: function webhook(options: WebhookTriggerOptions): TriggerBuilder {
      const { provider, event, spec } = options;
      const inner = event === undefined ? spec : { type: event, spec };
      return make(
        'trigger.webhook',
        options,
        ['provider', 'event', 'spec'],
        ['provider', 'spec'],
        { type: 'Webhook', spec: { type: provider, spec: inner } } as never,
        webhook,
      );
    },
    artifact: function artifact(options: ArtifactTriggerOptions): TriggerBuilder {
      const { artifactType, spec } = options;
      return make(
        'trigger.artifact',
        options,
        ['artifactType', 'spec'],
        ['artifactType', 'spec'],
        { type: 'Artifact', spec: { type: artifactType, spec } } as never,
        artifact,
      );
    },
  },
);

/** A trigger's body and document as on the wire, typed by the platform's published schema. */
export type TriggerBody = TriggerFields;
export type TriggerDocument = { trigger: TriggerFields };
