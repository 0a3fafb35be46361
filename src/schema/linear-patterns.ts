import { DURATION_PATTERN } from './common.js';

/**
 * The platform schema's patterns that backtrack, each with a rewrite that gives the same verdict in linear time.
 * validate, compile and the language server run the schema's patterns on users' values (the editor on every
 * keystroke, through the JSON Schema we emit), and these take seconds to minutes on a value of a hundred
 * characters: `'10' + 'd111'.repeat(29) + 'd>1d'` kept a Jenkins step's `consoleLogPollFrequency` busy for four
 * minutes. test/regex-scan.test.ts finds such patterns with recheck; test/linear-patterns.test.ts holds each
 * rewrite to its original on generated text.
 *
 * The originals search rather than match (JSON Schema), and their `^...|...$` anchor only the first and the last
 * alternative, so what they say is "starts with", "ends with" or "contains"; the rewrites say that with end
 * anchors tried once (`$(?<=...)`) or a line start found without a scan. `.` stops at the four line terminators.
 */
const NOT_A_LINE_END = String.raw`[^\n\r\u2028\u2029]`;
const ENDS_IN_EXPRESSION = String.raw`$(?<=<\+${NOT_A_LINE_END}*>[^>\n\r\u2028\u2029]*)`;
const ENDS_IN_UNITS = String.raw`$(?<=[1-9]\d*[mhwd](?:\s?\d+[smhwd])*)`;

const REWRITES: ReadonlyMap<string, string> = new Map([
  // A timeout's pattern where it is not typed as one (an approval's retryInterval, a Wait step's duration).
  [
    String.raw`^(([1-9])+\d+[s])|(((([1-9])+\d*[mhwd])+([\s]?\d+[smhwd])*)|(.*<\+.*>(?!.*\.executionInput\(\)).*)|(^$))$`,
    DURATION_PATTERN.source,
  ],
  // The same without the executionInput exception: ends in units, or its last line holds `<+` ... `>`.
  [
    String.raw`^(([1-9])+\d+[s])|(((([1-9])+\d*[mhwd])+([\s]?\d+[smhwd])*)|(<\+input>.*)|(.*<\+.*>.*)|(^$))$`,
    String.raw`^[1-9]\d+s|${ENDS_IN_UNITS}|${ENDS_IN_EXPRESSION}|^$`,
  ],
  // A Jenkins poll frequency: also five to nine seconds, anywhere in the text.
  [
    String.raw`^(([1-9])+\d+[s])|(([5-9])+[s])|(((([1-9])+\d*[mhwd])+([\s]?\d+[smhwd])*)|(<\+input>.*)|(.*<\+.*>.*)|(^$))$`,
    String.raw`^[1-9]\d+s|[5-9]s|${ENDS_IN_UNITS}|${ENDS_IN_EXPRESSION}|^$`,
  ],
  // A trigger's poll interval: ends in minutes or hours, is empty, or ends in 0.
  [String.raw`(((([1-9])+\d*[mh])+(\s/?\d+[mh])*)|(^$)|(0))$`, String.raw`$(?<=[1-9]\d*[mh](?:\s\/?\d+[mh])*)|^$|0$`],
  // An expression: some line holds `<+`, then at least one character, then `>`; the line's first `<+` is tried.
  [
    String.raw`(<\+.+>.*)`,
    String.raw`(?<!${NOT_A_LINE_END})[^<\n\r\u2028\u2029]*(?:<(?!\+)[^<\n\r\u2028\u2029]*)*<\+${NOT_A_LINE_END}+>`,
  ],
  // A `when`: refused only as one line that starts with `<+input>` and holds `.executionInput()`.
  [
    String.raw`^(?!<\+input>.*\.executionInput\(\)(.*)$)`,
    String.raw`^(?!<\+input>(?=${NOT_A_LINE_END}*$)${NOT_A_LINE_END}*?\.executionInput\(\))`,
  ],
  // An approval's callback id: plain characters, or one expression up to the last `>` with plain ones around it.
  [
    String.raw`^[a-zA-Z0-9_-]*(<\+[^ ]+>)?[a-zA-Z0-9_.()-]*$`,
    String.raw`^[a-zA-Z0-9_.()-]*$|^[a-zA-Z0-9_-]*<\+(?=[^ ]+>[a-zA-Z0-9_.()-]*$)`,
  ],
]);

/** The regex a schema pattern is run as: its linear rewrite where it has one, else the pattern itself. */
export const schemaPattern = (source: string): RegExp => new RegExp(REWRITES.get(source) ?? source, 'u');

/** The originals that have a rewrite, for the tests that compare them. */
export const rewrittenPatterns = (): ReadonlyMap<string, string> => REWRITES;
