import type { z } from 'zod';
import type { strategy } from '../schema/strategy.js';
import { irNode, type IrNode, type OptionIssue, type Reference } from '../ir/node.js';
import { Builder, reidentified, type Chainable } from './builder.js';
import { captureSite, type SourceSite } from '../core/source-site.js';
import { defined, failureStrategiesDocument, type FailureStrategyOption } from './common-options.js';
import { Expr, valueText, type Expressive, type Value } from './expr.js';
import { isRecord } from '../core/is-record.js';
import { declareMappedStep } from './catalog/step-sugar.js';
import { sameField, specOfOptions } from './catalog/sugar.js';
import { keyList } from './key-list.js';
import { missingOptions, unknownOptions } from './option-check.js';
import { plain } from './plain.js';
import { wireValue } from './references.js';
import type { Expressible } from './wire-types.js';
import { setField } from '../core/own-field.js';

/** A looping strategy: `{ matrix: {...} }`, `{ repeat: { times } }` or `{ parallelism: n }`, as on the wire. */
export type StrategyOption = Expressible<z.input<typeof strategy>>;

/** Steps, step groups and parallel blocks are recognised by this registered symbol. */
export const STEP_BRAND = Symbol.for('pipewright.step');

/**
 * Anything that can stand in a stage's step list. `Types` are the wire types of the steps it holds, so a
 * stage builder can refuse, in the types, a step its stage type cannot run.
 */
export interface StepNode<Types extends string = string> {
  readonly [STEP_BRAND]: true;
  /** The step types inside (phantom: for placement checks in the types only). */
  readonly stepTypes?: Types;
  readonly site: SourceSite;
  /** Its node in the IR (`lower` gives the wire element). */
  toNode(): IrNode;
}

export const isStepNode = (value: unknown): value is StepNode =>
  typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[STEP_BRAND] === true;

export interface WhenOption {
  readonly stageStatus?: 'Success' | 'Failure' | 'All';
  readonly pipelineStatus?: 'Success' | 'Failure' | 'All';
  readonly condition?: Value;
}

export interface StepCommonOptions {
  readonly identifier: string;
  /** Display name; defaults to the identifier. */
  readonly name?: string;
  readonly description?: string;
  /** Duration such as `10m` or `1h30m`. */
  readonly timeout?: Value;
  readonly when?: WhenOption;
  readonly failureStrategies?: readonly FailureStrategyOption[];
  /** Run this step several times: matrix, repeat or parallelism. */
  readonly strategy?: StrategyOption;
}

export interface StepOptions extends StepCommonOptions {
  /** Step type on the wire, e.g. `Http`, `K8sRollingDeploy`. */
  readonly type: string;
  readonly spec?: Readonly<Record<string, unknown>>;
}

export interface StepProps extends StepOptions {
  /** Output variable names, for typed `output()` references. */
  readonly outputs?: readonly string[];
  /** Extra node fields beside the common ones, in wire order after `spec`. */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** Mistakes in the options the builder was given, reported when the document is built. */
  readonly issues?: readonly OptionIssue[];
}

/** The options every step builder takes besides its type's own. */
export const STEP_COMMON_KEYS: readonly string[] = keyList<StepCommonOptions>()([
  'identifier',
  'name',
  'description',
  'timeout',
  'when',
  'failureStrategies',
  'strategy',
]);

/** A step: its identity, the settings every step has, and typed references to the outputs it declares. */
export interface StepBuilder<Outputs extends string = never, Type extends string = string>
  extends StepNode<Type>, Chainable {
  readonly identifier: string;
  /** Its wire type, e.g. `ShellScript`. */
  readonly type: Type;
  /** Duration such as `10m` or `1h30m`. */
  timeout(timeout: Value): this;
  when(when: WhenOption): this;
  failureStrategies(...strategies: FailureStrategyOption[]): this;
  /** A looping strategy: `{ matrix: { os: ['linux', 'mac'] } }`, `{ repeat: { times: 3 } }`, `{ parallelism: 4 }`. */
  strategy(strategy: StrategyOption): this;
  /**
   * The same step under another identifier (and name, unless given): reuse one definition twice in a
   * stage, e.g. a smoke test before and after a deploy. References from `output()` follow the new identifier.
   */
  withIdentifier(identifier: string, name?: string): this;
  /**
   * `<+execution.steps.ID.output.outputVariables.NAME>`: an output of this step, for later steps of the
   * same stage. Only names declared in `outputs` type-check.
   */
  output(name: Outputs): Expr;
}

/** The step builders' class; users hold it as a `StepBuilder`. */
export class StepBuilderImpl<Outputs extends string = never, Type extends string = string>
  extends Builder<StepProps>
  implements StepBuilder<Outputs, Type>
{
  declare readonly stepTypes?: Type;
  get [STEP_BRAND](): true {
    return true;
  }
  get identifier(): string {
    return this.props.identifier;
  }
  get type(): Type {
    return this.props.type as Type;
  }

  timeout(timeout: Value): this {
    return this.with({ timeout });
  }
  when(when: WhenOption): this {
    return this.with({ when });
  }
  failureStrategies(...strategies: FailureStrategyOption[]): this {
    return this.with({ failureStrategies: strategies });
  }
  strategy(strategy: StrategyOption): this {
    return this.with({ strategy });
  }
  withIdentifier(identifier: string, name?: string): this {
    return this.with(reidentified(this.props, identifier, name));
  }
  output(name: Outputs): Expr {
    return new Expr(`<+execution.steps.${this.props.identifier}.output.outputVariables.${name}>`);
  }

  protected makeNode(): IrNode {
    const { type, identifier, name, description, spec, timeout, when, failureStrategies, strategy, extra, issues } =
      this.props;
    const references: Reference[] = [];
    const body = defined({
      type,
      name: name ?? identifier,
      identifier,
      description,
      spec: spec === undefined ? undefined : (wireValue(spec, references, ['spec']) as Record<string, unknown>),
      timeout: timeout === undefined ? undefined : valueText(timeout),
      when: when === undefined ? undefined : (plain(when) as never),
      failureStrategies: failureStrategies && failureStrategiesDocument(failureStrategies),
      strategy: strategy === undefined ? undefined : (plain(strategy) as never),
      ...(extra && (plain(extra) as Record<string, unknown>)),
    });
    return irNode({ kind: 'step', wrapper: 'step', identifier, type, site: this.site, body, references, issues });
  }
}

/**
 * Any step type, given its wire `type` and `spec` as the platform writes them: for step types without a builder
 * of their own (every catalogue type has one, named after the type).
 *
 * @example
 * ```ts
 * step({ identifier: 'notify', type: 'Email', spec: { to: 'team@example.com', subject: 'Deployed', body: 'Done.' } })
 * ```
 */
export function step(options: StepOptions): StepBuilder {
  const issues = [
    ...unknownOptions('step', options, [...STEP_COMMON_KEYS, 'type', 'spec']),
    ...missingOptions('step', options, ['identifier', 'type']),
  ];
  return new StepBuilderImpl({ ...options, issues }, captureSite(step));
}

export interface ShellOptions<Outputs extends string> extends StepCommonOptions {
  /** The script to run; multi-line scripts stay block scalars in YAML. */
  readonly script: Value;
  /** Bash (default) or PowerShell. */
  readonly shell?: 'Bash' | 'PowerShell';
  /**
   * Run on the delegate (default true). `null` writes no `onDelegate` at all, as many saved documents have it:
   * the platform's published schema requires only `shell` and `source` (ShellScriptStepInfo).
   */
  readonly onDelegate?: Expressive<boolean> | null;
  /** Environment variables visible to the script. */
  readonly env?: Readonly<Record<string, Value>>;
  /**
   * Variables the script exports, readable later through `step.output(name)`: their names (each output takes the
   * shell variable of its name), or `{ name: value }` where the value names another variable or is an expression.
   *
   * @example
   * ```ts
   * shell({ identifier: 'version', script: 'VERSION=1.2.3', outputs: ['VERSION'] })
   * shell({ identifier: 'renamed', script: 'APP_VERSION=1.2.3', outputs: { VERSION: 'APP_VERSION' } })
   * ```
   */
  readonly outputs?: readonly Outputs[] | { readonly [Name in Outputs]: Value };
  /** Run on a host instead of the delegate. */
  readonly executionTarget?: { host?: Value; connectorRef?: Value; workingDirectory?: Value };
  readonly delegateSelectors?: readonly string[];
}

/** `outputVariables` of a ShellScript: a name reads the shell variable of the same name; a map names another (or an expression). */
const outputVariables = (outputs: readonly string[] | Readonly<Record<string, Value>>) =>
  Array.isArray(outputs)
    ? (outputs as readonly string[]).map((name) => ({ name, type: 'String', value: name }))
    : stringVariables(outputs as Readonly<Record<string, Value>>);

/** The output names `step.output()` takes, from either form. */
const outputNames = (
  outputs: readonly string[] | Readonly<Record<string, Value>> | undefined,
): readonly string[] | undefined =>
  outputs === undefined || Array.isArray(outputs) ? (outputs as readonly string[] | undefined) : Object.keys(outputs);

const stringVariables = (names: Readonly<Record<string, Value>>) =>
  Object.entries(names).map(([name, value]) => ({ name, type: 'String', value: valueText(value) }));

/** Entries of a wire list that are records with a string `name` (else undefined): variables read back by name. */
const named = (list: unknown): Array<Record<string, unknown> & { name: string }> | undefined =>
  Array.isArray(list) && list.every((entry) => isRecord(entry) && typeof entry.name === 'string')
    ? (list as Array<Record<string, unknown> & { name: string }>)
    : undefined;

/**
 * `shell()` declared beside the ShellScript catalogue entry: how each option maps to the spec and back, the
 * values written when one is left out, and the spec's key order. `shell()` writes with it; import reads it back.
 */
export const SHELL_SUGAR = declareMappedStep<Omit<ShellOptions<string>, keyof StepCommonOptions>>()('ShellScript', {
  builder: 'shell',
  order: [
    'shell',
    'onDelegate',
    'source',
    'environmentVariables',
    'outputVariables',
    'executionTarget',
    'delegateSelectors',
    'includeInfraSelectors',
    'metadata',
    'outputAlias',
  ],
  defaults: { shell: 'Bash', onDelegate: true },
  fields: {
    script: {
      key: 'source',
      required: true,
      verbatim: true,
      write: (script) => ({ type: 'Inline', spec: { script } }),
      read: (source) =>
        isRecord(source) && source.type === 'Inline' && isRecord(source.spec) && typeof source.spec.script === 'string'
          ? source.spec.script
          : undefined,
    },
    shell: sameField('shell'),
    onDelegate: { ...sameField('onDelegate'), omittable: true },
    // Written only when given (pass `env: {}` for `environmentVariables: []`), so output stays minimal.
    env: {
      key: 'environmentVariables',
      write: (env) => env && stringVariables(env),
      read: (list) =>
        named(list) && Object.fromEntries(named(list)!.map((variable) => [variable.name, variable.value])),
    },
    outputs: {
      key: 'outputVariables',
      write: (outputs) => outputs && outputVariables(outputs),
      // Names when each output reads the variable of its own name (what the platform's editor writes), else the map.
      read: (list) => {
        const variables = named(list);
        if (!variables?.every((variable) => variable.type === 'String' && typeof variable.value === 'string'))
          return undefined;
        return variables.every((variable) => variable.value === variable.name)
          ? variables.map((variable) => variable.name)
          : Object.fromEntries(variables.map((variable) => [variable.name, variable.value as string]));
      },
    },
    executionTarget: { ...sameField('executionTarget'), write: (target) => target && plain(target) },
    delegateSelectors: sameField('delegateSelectors'),
  },
});

const SHELL_FIELDS = Object.keys(SHELL_SUGAR.fields!);
const SHELL_REQUIRED = SHELL_FIELDS.filter((option) => SHELL_SUGAR.fields![option]!.required);
const SHELL_OPTIONS = [...STEP_COMMON_KEYS, ...SHELL_FIELDS];
const SHELL_NEEDED = ['identifier', ...SHELL_REQUIRED];

/**
 * A ShellScript step: runs an inline Bash (or PowerShell) script on the delegate, or on a target host. `outputs`
 * are the variables the script exports, read later with `step.output(name)`.
 *
 * @example
 * ```ts
 * const version = shell({ identifier: 'version', script: 'export VERSION=$(cat VERSION)', outputs: ['VERSION'] });
 * shell({ identifier: 'tag', script: expr`git tag v${version.output('VERSION')}` });
 * ```
 */
export function shell<const Outputs extends string = never>(
  options: ShellOptions<Outputs>,
): StepBuilder<Outputs, 'ShellScript'> {
  const issues = [
    ...unknownOptions('shell', options, SHELL_OPTIONS),
    ...missingOptions('shell', options, SHELL_NEEDED),
  ];
  const given: Record<string, unknown> = {};
  const common: Record<string, unknown> = {};
  for (const key in options)
    setField(SHELL_FIELDS.includes(key) ? given : common, key, (options as unknown as Record<string, unknown>)[key]);
  const spec = specOfOptions(SHELL_SUGAR, given);
  return new StepBuilderImpl<Outputs, 'ShellScript'>(
    {
      ...(common as unknown as StepCommonOptions),
      type: 'ShellScript',
      spec,
      outputs: outputNames(options.outputs),
      issues,
    },
    captureSite(shell),
  );
}
