/** What each way of writing an input set in code names: `inputSet(`, `overlayInputSet(`, `raw.inputSet(`, `InputSet`. */
const MARK = 'nputSet';

/**
 * Whether any of `files` may define an input set, by its text (`contents`, the compile's one read of each file,
 * which also hashes it for the cache). Only then does each pipeline keep its runtime inputs while it is built:
 * keying them was about 5% of a compile of 1000 pipelines (docs/performance.md), and most projects have no input
 * sets. A file that builds one without naming it (through a library of its own) is still checked: the check
 * across entries finds an input set whose pipeline kept no inputs and builds the two again together (compile.ts,
 * `unknownFits`). A file that cannot be read counts as one that may.
 */
export function mayDefineInputSets(
  files: readonly string[],
  contents: (file: string) => Buffer | string | undefined,
): boolean {
  return files.some((file) => contents(file)?.includes(MARK) ?? true);
}
