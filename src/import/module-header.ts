/**
 * The first line of every module import writes, a `//` comment naming the YAML it came from: written by
 * generate-module.ts and read back by pull, which finds a module an earlier pull wrote under another path by it.
 * Its own file so that reading it loads no TypeScript compiler.
 */

/** The header's text (the `//` is the printer's). */
export const headerLine = (source: string): string => `Imported by pipewright from ${source}.`;

const HEADER = /^\/\/ Imported by pipewright from (.+)\.$/;

/** The YAML a generated module came from, as its first line says; undefined for any other text. */
export function importedFrom(moduleText: string): string | undefined {
  const end = moduleText.indexOf('\n');
  return HEADER.exec(end === -1 ? moduleText : moduleText.slice(0, end))?.[1];
}
