import type { FailureActionType, FailureStrategy, FailureType } from '../schema/failure-strategy.js';
import { valueText, type Expressive, type Value } from './expr.js';
import { plain } from './plain.js';
import { setField } from '../core/own-field.js';

/** Tags as a map, or a list of key-only tags. */
export type TagsOption = Readonly<Record<string, string>> | readonly string[];

/** Tags on the wire; absent when not given (pass `{}` to emit an empty map). */
export function tagsDocument(tags: TagsOption): Record<string, string>;
export function tagsDocument(tags: TagsOption | undefined): Record<string, string> | undefined;
export function tagsDocument(tags: TagsOption | undefined): Record<string, string> | undefined {
  if (tags === undefined) return undefined;
  return Array.isArray(tags)
    ? Object.fromEntries(tags.map((tag) => [tag, '']))
    : { ...(tags as Record<string, string>) };
}

/**
 * What happens after the retries fail, or after a manual intervention times out: any action but the one it follows
 * (the platform refuses a Retry after a Retry and a ManualIntervention after a ManualIntervention).
 */
interface FollowUpActionOption<Refused extends FailureActionType> {
  readonly action: Exclude<FailureActionOption, { readonly type: Refused }>;
}

/**
 * How often and how long apart to retry: `retryIntervals` are durations such as `10s`, one per attempt or the last
 * repeated. Fixed values: the platform refuses an expression here when it plans the run ("RetryCount fixed value is
 * not given": FailureStrategiesUtils.validateRetryFailureAction in the platform's pipeline service).
 */
interface RetrySpecOption {
  readonly retryCount?: number;
  readonly retryIntervals?: readonly string[];
}

/** The actions without a spec. */
type PlainFailureAction = Exclude<FailureActionType, 'Retry' | 'RetryStepGroup' | 'ManualIntervention'>;

/**
 * A failure strategy's action in full: its type and, for the three actions that take one, a typed `spec`
 * (editors complete its fields once the type is chosen).
 */
export type FailureActionOption =
  | {
      readonly type: 'Retry';
      readonly spec?: RetrySpecOption & { readonly onRetryFailure?: FollowUpActionOption<'Retry'> };
    }
  | { readonly type: 'RetryStepGroup'; readonly spec?: RetrySpecOption }
  | {
      readonly type: 'ManualIntervention';
      /** How long to wait for someone (a duration such as `1h`), and what to do then. */
      readonly spec?: { readonly timeout?: Value; readonly onTimeout?: FollowUpActionOption<'ManualIntervention'> };
    }
  | { readonly type: PlainFailureAction; readonly spec?: Readonly<Record<string, unknown>> };

/** A failure strategy in short: `{ errors: 'AllErrors', action: 'Abort' }`. */
export interface FailureStrategySugar {
  /** Error types this strategy handles; default AllErrors. */
  readonly errors?: FailureType | readonly FailureType[];
  /**
   * The action, by type (`'Abort'`, `'StageRollback'`), or in full with its spec.
   *
   * @example
   * ```ts
   * stage({ identifier: 'build', type: 'Custom' }).failureStrategies({
   *   errors: 'Timeout',
   *   action: { type: 'Retry', spec: { retryCount: 2, retryIntervals: ['10s'], onRetryFailure: { action: { type: 'Abort' } } } },
   * })
   * ```
   */
  readonly action: FailureActionType | FailureActionOption;
}

/** A failure strategy as the YAML has it: `{ onFailure: { errors: ['AllErrors'], action: { type: 'Abort' } } }`. */
export interface FailureStrategyWire {
  readonly onFailure: {
    readonly errors: FailureType | readonly FailureType[];
    readonly action: FailureActionOption;
  };
}

/** A failure strategy: in short (`{ errors, action: 'Abort' }`), or as the YAML has it (`{ onFailure: {...} }`). */
export type FailureStrategyOption = FailureStrategySugar | FailureStrategyWire;

/** What a failure strategy writes for options left out (import leaves out values equal to these). */
export const FAILURE_STRATEGY_DEFAULTS = { errors: 'AllErrors' } as const satisfies Pick<
  FailureStrategySugar,
  'errors'
>;

const isWire = (option: FailureStrategyOption): option is FailureStrategyWire =>
  typeof option === 'object' && option !== null && 'onFailure' in option && !('action' in option);

export const failureStrategiesDocument = (options: readonly FailureStrategyOption[]): FailureStrategy[] =>
  options.map((option) => {
    const { errors = FAILURE_STRATEGY_DEFAULTS.errors, action } = isWire(option)
      ? (option.onFailure ?? {})
      : (option as FailureStrategySugar);
    return {
      onFailure: {
        errors: typeof errors === 'string' ? [errors as FailureType] : [...(errors as FailureType[])],
        // plain: an `input()` or `expr` in the spec (a retry count) is written as its text.
        action:
          typeof action === 'string' ? { type: action } : (plain(action) as FailureStrategy['onFailure']['action']),
      },
    };
  });

/** What every typed variable may say besides its value (the platform's NGVariable). */
interface VariableFields {
  readonly description?: string;
  /** The platform asks for a value when the pipeline runs (with `value: input()`). */
  readonly required?: boolean;
  readonly metadata?: string;
}

/** A String variable: text, an expression or `input()`; its `default` is text. */
export interface StringVariableOption extends VariableFields {
  readonly type: 'String';
  readonly value: Value | number;
  /** The value a runtime input takes when none is given. */
  readonly default?: string;
}

/** A Number variable: a number, an expression or `input()`; its `default` is a number. */
export interface NumberVariableOption extends VariableFields {
  readonly type: 'Number';
  /** A number, `input()` or an expression; text that is neither (`'abc'`) is a type error. */
  readonly value: Expressive<number>;
  /** The value a runtime input takes when none is given. */
  readonly default?: number;
}

/** A Secret variable: a secret reference, an expression or `input()`; its `default` is a secret reference. */
export interface SecretVariableOption extends VariableFields {
  readonly type: 'Secret';
  readonly value: Value | number;
  /** The secret a runtime input takes when none is given. */
  readonly default?: string;
}

/** A variable: its value (text makes a String, a number a Number), or the variable in full, by type. */
export type VariableOption = Value | number | StringVariableOption | NumberVariableOption | SecretVariableOption;

/** `{ region: 'eu', replicas: 3 }` becomes the platform's list of typed variables. */
export const variablesDocument = (variables: Readonly<Record<string, VariableOption>>) =>
  Object.entries(variables).map(([name, option]) => {
    if (typeof option === 'object' && option !== null && 'type' in option) {
      const { type, value, description, required, metadata } = option;
      return {
        name,
        type,
        ...(description !== undefined ? { description } : {}),
        ...(required !== undefined ? { required } : {}),
        value: typeof value === 'number' ? value : valueText(value),
        ...(option.default !== undefined ? { default: option.default } : {}),
        ...(metadata !== undefined ? { metadata } : {}),
      };
    }
    return typeof option === 'number'
      ? { name, type: 'Number' as const, value: option }
      : { name, type: 'String' as const, value: valueText(option) };
  });

/** Keeps only defined entries, so optional options never emit `key: null`. */
export function defined<T extends Record<string, unknown>>(object: T): T {
  // A loop, not entries/filter/fromEntries: every builder calls this, and the arrays were most of its cost.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object)) if (object[key] !== undefined) setField(out, key, object[key]);
  return out as T;
}
