import { buildUrl } from './base-url.js';
import type { HttpRequest } from './transport.js';

export interface GraphqlOptions {
  /**
   * `header` (default; Node, servers): the key in the `x-api-key` header, a JSON body `{ query }`.
   * `browser`: multipart form-data with fields `query` and `x-api-key`, no custom headers and credentials
   * omitted, so a page on another origin needs no CORS preflight and sends no cookies.
   */
  readonly mode?: 'header' | 'browser';
  /** `graphql` (endpoint 1, default) or `graphql-api` (endpoint 2, same body). */
  readonly endpoint?: 'graphql' | 'graphql-api';
}

/** The request for one query; the key goes where the mode says and nowhere else. */
export function graphqlRequest(
  base: URL,
  accountId: string,
  apiKey: string,
  query: string,
  options: GraphqlOptions,
): HttpRequest {
  const path = `/gateway/api/${options.endpoint ?? 'graphql'}`;
  const url = buildUrl(base, path, { accountId });
  const label = `POST ${path}`;
  if (options.mode === 'browser') {
    const form = new FormData();
    form.set('query', query);
    form.set('x-api-key', apiKey);
    // No headers at all: fetch sets the multipart boundary itself.
    return { method: 'POST', url, label, headers: new Headers(), body: form, credentials: 'omit' };
  }
  const headers = new Headers({ 'x-api-key': apiKey, 'content-type': 'application/json', accept: 'application/json' });
  return { method: 'POST', url, label, headers, body: JSON.stringify({ query }) };
}
