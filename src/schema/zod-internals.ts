import type { z } from 'zod';

/**
 * zod 4 keeps each schema's definition under `_zod`; its public types do not expose it uniformly across schema
 * kinds. The walks that follow a schema's structure (the quick check, the key-typo rule, the JSON Schema's
 * registries) read it through these types, in one place, so that a change in zod's internals is mended here.
 */

/** A check or refinement: its optional guard (`when`) and the function that adds its issues to a payload. */
export interface ZodCheck {
  readonly _zod: {
    readonly def: { readonly when?: (payload: { value: unknown }) => boolean };
    check(payload: { value: unknown; issues: unknown[] }): unknown;
  };
}

/** A schema's definition: `type` names its kind; the other fields are those the kind has. */
export interface ZodDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly in?: z.ZodType;
  readonly getter?: () => z.ZodType;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly keyType?: z.ZodType;
  readonly valueType?: z.ZodType;
  /** An enum's values by name. */
  readonly entries?: Readonly<Record<string, unknown>>;
  /** A literal's values. */
  readonly values?: readonly unknown[];
  readonly checks?: readonly ZodCheck[];
}

/** A schema's internals: its definition, whether it may be absent (`optin`, `optout`), the values it takes. */
export interface ZodInternals {
  readonly def: ZodDef;
  readonly optin?: 'optional' | 'defaulted';
  readonly optout?: 'optional';
  readonly values?: ReadonlySet<unknown>;
}

export const zodInternals = (schema: z.ZodType): ZodInternals => (schema as unknown as { _zod: ZodInternals })._zod;

export const zodDef = (schema: z.ZodType): ZodDef => zodInternals(schema).def;
