import type { AnyResource, IrNode, Resource } from '../ir/node.js';
import type { Expr, Value } from './expr.js';
import type { RuntimeInput } from './input.js';
import type { StageSpecs, StepSpecs } from './catalog/generated/types.js';

/** The template types pipewright builds: the parts of a pipeline. */
export type TemplateKind = 'Step' | 'Stage' | 'StepGroup' | 'Pipeline';

/**
 * A template version as a use of it sees it (`stepTemplate({ templateRef })`): its identity, its version, and its
 * spec's type `S`, which types the use's `templateInputs`. `template.step(...)` and its kin make one.
 */
export interface TemplateRef<T extends TemplateKind = TemplateKind, S = unknown> extends Resource<'template'> {
  readonly versionLabel: string;
  readonly templateType: T;
  /** Never set: carries the spec's type. */
  readonly specType?: S;
}

/** A leaf the template leaves to each use: `input()` or `'<+input>...'` text. */
type IsInput<V> = V extends RuntimeInput ? true : V extends `<+input>${string}` ? true : false;
/** Whether a runtime input appears anywhere inside `V`. */
type HasInput<V> =
  IsInput<V> extends true
    ? true
    : V extends readonly (infer U)[]
      ? HasInput<U>
      : V extends object
        ? true extends { [K in keyof V]: HasInput<V[K]> }[keyof V]
          ? true
          : false
        : false;

/**
 * The `templateInputs` a use of a template may give, from the template's spec: only the fields that are runtime
 * inputs there (and the `type`, `identifier` and `name` fields that say where they are), so a misspelt field is a type
 * error. A builder spec's type knows its step or stage type but not its values: its uses take that type's fields
 * (`timout` is an error, a fixed field is not; compile checks that the fields given are the template's inputs).
 * A step group or pipeline builder, or an unknown spec, takes any values.
 */
export type TemplateInputsOf<S, K extends TemplateKind = TemplateKind> = unknown extends S
  ? { readonly [key: string]: unknown }
  : S extends { toNode(): IrNode }
    ? BuilderInputs<S, K>
    : InputsShape<S>;

/** A builder spec's inputs, by its wire type (`shell(...)` is a ShellScript step). */
type BuilderInputs<S, K extends TemplateKind> = S extends { readonly type: infer T }
  ? K extends 'Step'
    ? T extends keyof StepSpecs
      ? string extends T
        ? AnyInputs
        : StepTemplateInputs<T>
      : AnyInputs
    : K extends 'Stage'
      ? T extends keyof StageSpecs
        ? string extends T
          ? AnyInputs
          : StageTemplateInputs<T>
        : AnyInputs
      : AnyInputs
  : AnyInputs;
type AnyInputs = { readonly [key: string]: unknown };

/** Any part of a wire value, each field optional (a template's use gives only the inputs). */
type Partly<T> = T extends Expr | AnyResource
  ? T
  : T extends readonly (infer U)[]
    ? ReadonlyArray<Partly<U>>
    : T extends object
      ? { readonly [F in keyof T]?: Partly<T[F]> }
      : T;

/** The fields of a step element a template's use may set (FQN-keyed as the platform merges them). */
interface StepTemplateInputs<T extends keyof StepSpecs> {
  readonly type?: T;
  readonly identifier?: string;
  readonly name?: string;
  readonly description?: Value;
  readonly timeout?: Value;
  readonly when?: { readonly [key: string]: unknown };
  readonly failureStrategies?: ReadonlyArray<{ readonly [key: string]: unknown }> | Value;
  readonly strategy?: { readonly [key: string]: unknown } | Value;
  readonly spec?: Partly<StepSpecs[T]>;
}

/** The fields of a stage a template's use may set. */
interface StageTemplateInputs<T extends keyof StageSpecs> {
  readonly type?: T;
  readonly identifier?: string;
  readonly name?: string;
  readonly description?: Value;
  readonly timeout?: Value;
  readonly when?: { readonly [key: string]: unknown };
  readonly failureStrategies?: ReadonlyArray<{ readonly [key: string]: unknown }> | Value;
  readonly strategy?: { readonly [key: string]: unknown } | Value;
  readonly delegateSelectors?: ReadonlyArray<Value> | Value;
  readonly variables?: ReadonlyArray<{
    readonly name: string;
    readonly type?: 'String' | 'Number' | 'Secret';
    readonly value?: Value | number;
  }>;
  readonly spec?: Partly<StageSpecs[T]>;
}
/** Fields kept beside the inputs: they say which stage, step or variable a value is for. */
type IdentityKey = 'type' | 'identifier' | 'name';
type InputsShape<S> =
  IsInput<S> extends true
    ? Value
    : S extends readonly (infer U)[]
      ? ReadonlyArray<InputsShape<U>>
      : S extends object
        ? {
            readonly [
              K in keyof S as K extends IdentityKey ? K : HasInput<S[K]> extends true ? K : never
            ]?: K extends IdentityKey ? S[K] : InputsShape<S[K]>;
          }
        : never;
