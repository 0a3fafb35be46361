import type { Expressive, Value } from './expr.js';
import type { AnyResource } from '../ir/node.js';

/** The named keys of an object type, without its index signature (loose zod objects have one). */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 1 };

/**
 * Builder options derived from a wire schema's input type (`z.input`), so no shape is written twice:
 * strings also take expressions (`expr`, `input()`), booleans, numbers and enums take their own values or an
 * expression (`Expressive`: never other text), and a `connectorRef` also takes a connector builder (compile checks the reference).
 * Loose objects lose their index signature here, so a misspelt option is a type error.
 */
export type Expressible<T> = T extends string
  ? string extends T
    ? Value
    : Expressive<T>
  : T extends boolean
    ? Expressive<boolean>
    : T extends number
      ? Expressive<number>
      : T extends readonly (infer U)[]
        ? readonly Expressible<U>[]
        : T extends object
          ? [KnownKeys<T>] extends [never]
            ? { readonly [key: string]: Expressible<T[keyof T]> }
            : [IndexValue<T>] extends [never]
              ? Named<T>
              : unknown extends IndexValue<T>
                ? Named<T>
                : // A typed catch-all (a matrix's axes): keep it, next to the named keys.
                  Named<T> & {
                    readonly [key: string]: Expressible<IndexValue<T>> | Expressible<T[KnownKeys<T> & keyof T]>;
                  }
          : T;

/** The value type of a string index signature; `unknown` for a loose object, `never` without one. */
type IndexValue<T> = string extends keyof T ? T[string & keyof T] : never;

type Named<T> = {
  readonly [K in keyof T as string extends K ? never : number extends K ? never : K]: K extends 'connectorRef'
    ? Value | AnyResource
    : Expressible<T[K]>;
};
