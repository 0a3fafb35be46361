/**
 * Type tests for the key lists the builders declare (option lists, key orders), checked by `npm run typecheck`:
 * a list that leaves out a key of its type, or names one the type lacks, must not compile.
 */
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import { typedStep } from '../../src/dsl/typed-step.js';
import { keyList, type ExhaustiveKeys, type KeysOf } from '../../src/dsl/key-list.js';
import type { PipewrightTypeError } from '../../src/core/type-error.js';

interface Options {
  readonly identifier: string;
  readonly script?: string;
  readonly shell?: 'Bash' | 'PowerShell';
}

// Every key named: the list is kept as written (a tuple of its keys).
expectTypeOf(keyList<Options>()(['identifier', 'script', 'shell'])).toEqualTypeOf<
  readonly ['identifier', 'script', 'shell']
>();
// Any order is fine: the list is also a key order.
keyList<Options>()(['shell', 'script', 'identifier']);

// @ts-expect-error: "shell" is left out
keyList<Options>()(['identifier', 'script']);
// @ts-expect-error: "scipt" is misspelt
keyList<Options>()(['identifier', 'scipt', 'shell']);

// The error names the keys left out.
expectTypeOf<ExhaustiveKeys<Options, ['identifier']>>().toEqualTypeOf<
  PipewrightTypeError<
    | 'the list leaves out "script": name every key of the type'
    | 'the list leaves out "shell": name every key of the type'
  >
>();
expectTypeOf<ExhaustiveKeys<Options, ['identifier', 'script', 'shell']>>().toBeUnknown();

// A union's keys are those of every member (keyof of a union would give only the shared ones).
type Either = { readonly a: 1; readonly shared: 1 } | { readonly b: 1; readonly shared: 1 };
expectTypeOf<KeysOf<Either>>().toEqualTypeOf<'a' | 'b' | 'shared'>();
// @ts-expect-error: "b" is left out
keyList<Either>()(['a', 'shared']);

// An index signature adds no key: a loose wire object cannot let a misspelt name through.
type Loose = { readonly known: 1; readonly [key: string]: unknown };
expectTypeOf<KeysOf<Loose>>().toEqualTypeOf<'known'>();
// @ts-expect-error: "unknown" is no key of the type
keyList<Loose>()(['known', 'unknown']);

// typedStep's key order names fields of its spec: a misspelt one is a type error.
const httpSpec = z.object({ url: z.string(), method: z.string() });
typedStep<typeof httpSpec>('Http', ['url', 'method']);
// @ts-expect-error: "methd" is misspelt
typedStep<typeof httpSpec>('Http', ['url', 'methd']);
