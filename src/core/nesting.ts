/**
 * Real pipelines nest a few dozen levels at most; hostile or generated input can nest thousands, which would
 * overflow the stack of any recursive check. `plain` (builder data) and the walk of the rules (`src/check/walk.ts`)
 * count levels on the way down and stop past this one.
 */
export const MAX_NESTING = 200;
