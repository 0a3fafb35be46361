/**
 * Real pipelines nest a few dozen levels at most; hostile or generated input can nest thousands, which
 * would overflow the stack of any recursive check. Depth is measured without recursion.
 */
export const MAX_NESTING = 200;

/** The deepest nesting of maps and lists in a value, stopping early past `limit`. */
export function nestingDepth(value: unknown, limit = MAX_NESTING): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}
