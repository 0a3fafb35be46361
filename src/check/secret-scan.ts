import type { Rule } from './walk.js';
import { describePath } from '../core/document-path.js';

/**
 * Shapes of real credentials. A match is only a warning: the text might be a placeholder. A pattern whose token
 * starts before its match captures the token's start as its first group.
 */
const TOKEN_PATTERNS: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'a platform API token', pattern: /\b(?:pat|sat)\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { name: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/ },
  { name: 'an AWS access key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { name: 'a Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/ },
  { name: 'a private key', pattern: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/ },
  // `\beyJ[A-Za-z0-9_-]{10,}\.eyJ...`, found from its first dot: as a search from each `eyJ` it read `eyJ-eyJ-...`
  // to the end once per `eyJ`. Every `eyJ` of one run of token characters ends at the same dot, so the first part
  // is a lookbehind from that dot (captured: the token starts there), and each run is read a fixed number of times.
  { name: 'a JSON Web Token', pattern: /\.(?<=\b(eyJ[A-Za-z0-9_-]{10,})\.)eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10}/ },
];

/**
 * A literal every pattern above starts with: one scan of a text rules out all of them at once (most texts hold
 * none), and only a text that holds one is tried against each pattern.
 */
const TOKEN_START = /pat\.|sat\.|gh[pousr]_|github_pat_|AKIA|ASIA|xox[abprs]-|-----BEGIN |eyJ/;

/** Shows just enough of a match to find it, never the secret itself. */
const masked = (text: string) => `${text.slice(0, 4)}…`;

const TOKEN_CHAR = /[A-Za-z0-9_.\-]/;

/**
 * The text with every credential the patterns find shown as its first characters (`ghp_…`): for source lines a
 * message prints (validate's code frame), whatever the finding on that line is.
 */
export function maskPossibleSecrets(text: string): string {
  if (!TOKEN_START.test(text)) return text;
  let out = text;
  for (const { pattern } of TOKEN_PATTERNS) {
    const global = new RegExp(pattern.source, 'g');
    for (let found = global.exec(out); found; found = global.exec(out)) {
      // The JSON Web Token's pattern matches from its first dot and captures the part before it.
      const start = found.index - (found[1]?.length ?? 0);
      let end = found.index + found[0].length;
      while (end < out.length && TOKEN_CHAR.test(out[end]!)) end++;
      const shown = masked(out.slice(start, end));
      out = `${out.slice(0, start)}${shown}${out.slice(end)}`;
      global.lastIndex = start + shown.length;
    }
  }
  return out;
}

/** Warns about literals that look like credentials anywhere in a document (scripts, variables, specs). */
export const secretWarnings: Rule = {
  code: 'possible-secret',
  string(text, at) {
    if (!TOKEN_START.test(text)) return;
    for (const { name, pattern } of TOKEN_PATTERNS) {
      const match = pattern.exec(text);
      if (!match) continue;
      const path = at.path;
      const { subject, field } = describePath(at.document, path);
      at.report({
        code: 'possible-secret',
        severity: 'warning',
        message: `${field || 'value'} contains what looks like ${name} (${masked(match[1] ?? match[0])})`,
        path,
        subject,
        hint: 'store it as a platform secret and reference it with expr.secret("name"), i.e. <+secrets.getValue("name")>',
      });
      return;
    }
  },
};
