/**
 * The platform's address (`{base_url}` in the spec) and the URLs built on it. Only HTTPS leaves the machine:
 * the API key travels in a header, so plain HTTP is allowed to loopback hosts alone (local emulators, tunnels).
 */
import { trimEnd } from '../core/trim-ends.js';

export class BaseUrlError extends Error {
  readonly hint: string;
  constructor(message: string, hint: string) {
    super(message);
    this.name = 'BaseUrlError';
    this.hint = hint;
  }
}

/** 127.0.0.0/8, ::1 and localhost: traffic to them never crosses a network. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Only the exact name: *.localhost is loopback in browsers, but Node resolves it through DNS like any name.
  if (host === 'localhost' || host === '::1') return true;
  const octets = host.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

/**
 * Checks and normalises a base URL: http(s) only, HTTPS unless the host is loopback, no query or fragment,
 * no trailing slash (a path prefix of a self-hosted install is kept).
 */
export function parseBaseUrl(text: string): URL {
  // `localhost:8080` parses as a URL whose scheme is `localhost:`: say what is missing instead.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim())) {
    const bare = text.trim().replace(/^\/+/, '');
    const host = bare.split(/[/:]/)[0] ?? '';
    throw new BaseUrlError(
      `base URL ${JSON.stringify(text)} has no scheme (http:// or https://)`,
      isLoopbackHost(host)
        ? `write it as http://${bare} (plain HTTP is accepted for loopback hosts) or https://${bare}`
        : `write it as https://${bare}`,
    );
  }
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new BaseUrlError(
      `base URL ${JSON.stringify(text)} is not a URL`,
      'give the platform address with its scheme, e.g. --base-url https://app.harness.io',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new BaseUrlError(`base URL ${url.origin} uses ${url.protocol}, not https:`, 'use an https:// address');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    throw new BaseUrlError(
      `refusing to send the API key over plain HTTP to ${url.host}`,
      'use https:// (a private CA can be trusted with NODE_EXTRA_CA_CERTS=/path/ca.pem); http:// is accepted only for loopback hosts (127.0.0.1, ::1, localhost)',
    );
  if (url.username || url.password)
    throw new BaseUrlError(
      'base URL must not carry a user name or password',
      'the API key is sent in a header; remove user:password@ from the URL',
    );
  if (url.search || url.hash)
    throw new BaseUrlError(
      `base URL ${url.origin}${url.pathname} must not have a query or fragment`,
      'give the address only, e.g. https://app.harness.io',
    );
  url.pathname = trimEnd(url.pathname, '/');
  // A common slip: the request paths already start with /gateway/, so the address must not end with it.
  if (/\/gateway$/i.test(url.pathname))
    throw new BaseUrlError(
      `base URL ${url.origin}${url.pathname} ends with /gateway, which pipewright adds to every request`,
      `give the address without it: ${url.origin}${url.pathname.replace(/\/gateway$/i, '') || ''}`,
    );
  return url;
}

/** `base` + `path` (the spec's path, starting with /gateway/) + the query, skipping undefined values. */
export function buildUrl(
  base: URL,
  path: string,
  query: Readonly<Record<string, string | readonly string[] | undefined>> = {},
): string {
  const url = new URL(base.href);
  url.pathname = `${trimEnd(base.pathname, '/')}${path}`;
  for (const [name, value] of Object.entries(query))
    if (typeof value === 'string') url.searchParams.set(name, value);
    else if (value) for (const each of value) url.searchParams.append(name, each);
  return url.href;
}
