/**
 * The one redaction of secrets at the output edge: every text pipewright prints or writes for a reader goes
 * through it, so an API key a platform echoes (in a correlationId, an error message, a remote document shown in a
 * diff) never reaches a terminal, a CI log or a job summary.
 */

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/** Shorter values are not treated as secrets: masking every `a` of a text would hide the text, not a key. */
const MIN_SECRET = 8;

/**
 * The forms a secret can take in a text: as it is, URL-encoded (in an address or a query), escaped in a JSON
 * string (`--json`), and with Markdown's punctuation escaped (the plan for `$GITHUB_STEP_SUMMARY`).
 */
function formsOf(secret: string): string[] {
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    encodeURI(secret),
    JSON.stringify(secret).slice(1, -1),
    secret.replace(/[\\`*_[\]<>|#~]/g, (c) => `\\${c}`),
  ]);
  return [...forms];
}

/** `text` with every occurrence of each secret (and of its URL-encoded form) replaced by {@link REDACTED}. */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  const forms = [...secrets]
    .filter((secret): secret is string => typeof secret === 'string' && secret.length >= MIN_SECRET)
    .flatMap(formsOf)
    // The longest first: an encoded form that contains the plain one is replaced whole.
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/** Whether `text` holds any of the secrets, in any of the forms {@link redact} masks. */
export function holdsSecret(text: string, secrets: Iterable<string | undefined>): boolean {
  return [...secrets]
    .filter((secret): secret is string => typeof secret === 'string' && secret.length >= MIN_SECRET)
    .flatMap(formsOf)
    .some((form) => text.includes(form));
}
