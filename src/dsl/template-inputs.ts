import type { IrNode, Resource } from '../ir/node.js';
import type { Value } from './expr.js';
import type { RuntimeInput } from './input.js';

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
 * error. A template whose spec is a builder, or unknown, takes any values.
 */
export type TemplateInputsOf<S> = unknown extends S
  ? { readonly [key: string]: unknown }
  : S extends { toNode(): IrNode }
    ? { readonly [key: string]: unknown }
    : InputsShape<S>;
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
