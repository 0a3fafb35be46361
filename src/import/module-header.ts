/**
 * The first line of every module import writes, a `//` comment naming the YAML it came from: written by
 * generate-module.ts and read back by pull, which finds a module an earlier pull wrote under another path by it.
 * Its own file so that reading it loads no TypeScript compiler.
 */
import { oneLineCommentText } from './ts-text.js';

/**
 * The header's text (the `//` is the printer's): one line whatever the source's name holds (a line terminator in it
 * is written as `\uXXXX` text, `ts-text.ts`).
 */
export const headerLine = (source: string): string => `Imported by pipewright from ${oneLineCommentText(source)}.`;

const HEADER = /^\/\/ Imported by pipewright from (.+)\.$/;

/**
 * The YAML a generated module came from, as its first line writes it (a name with control characters as `\uXXXX`
 * text: compared with another header, never opened); undefined for any other text.
 */
export function importedFrom(moduleText: string): string | undefined {
  const end = moduleText.indexOf('\n');
  return HEADER.exec(end === -1 ? moduleText : moduleText.slice(0, end))?.[1];
}
