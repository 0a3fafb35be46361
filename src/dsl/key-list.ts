import type { PipewrightTypeError } from '../core/type-error.js';

/**
 * The named keys of every member of `T` (`keyof` of a union gives only the keys all members share), without
 * index signatures (a loose wire object has one, and it would let any name through).
 */
export type KeysOf<T> = T extends unknown
  ? keyof { [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: 1 } &
      string
  : never;

/**
 * `unknown` when `Keys` names every one of `All`, else a type error naming those it leaves out. Used as
 * `keys: Keys & CoversKeys<All, Keys>`: a list (an option list, a key order) that misses a key then fails to
 * compile at the list, and a misspelt key fails at `Keys extends readonly All[]`.
 */
export type CoversKeys<All extends string, Keys extends readonly unknown[]> = [Exclude<All, Keys[number]>] extends [
  never,
]
  ? unknown
  : PipewrightTypeError<`the list leaves out ${Quoted<Exclude<All, Keys[number]>>}: name every key of the type`>;

/** `CoversKeys` for the keys of an object type. */
export type ExhaustiveKeys<T, Keys extends readonly unknown[]> = CoversKeys<KeysOf<T>, Keys>;

/** `"a"`, one union member per missing key (the editor shows them all). */
type Quoted<K extends string> = K extends string ? `"${K}"` : never;

/**
 * Every key of `T` (but those of `Leave`), checked by the compiler: none left out, none misspelt. Curried so
 * that the types are given and the list inferred: `keyList<CiOptions, keyof StageCommonOptions>()([...])`.
 */
export const keyList =
  <T, Leave extends PropertyKey = never>() =>
  <const Keys extends readonly Exclude<KeysOf<T>, Leave>[]>(
    keys: Keys & CoversKeys<Exclude<KeysOf<T>, Leave>, Keys>,
  ): Keys =>
    keys;
