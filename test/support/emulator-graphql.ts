/** The GraphQL side of the emulator: enough of endpoints 1 and 2 to check how clients call them. */

export const APPLICATIONS = ['checkout', 'payments', 'search', 'inventory', 'shipping', 'accounts', 'reviews'];

/** Answers the one query shape the spec shows (`applications(limit: N) { nodes { name } }`); errors otherwise. */
export function runQuery(query: string): { data?: unknown; errors?: { message: string }[] } {
  const m = query.match(/applications\s*\(\s*limit\s*:\s*(\d+)\s*\)\s*\{\s*nodes\s*\{\s*name\s*\}\s*\}/);
  if (!m)
    return {
      errors: [{ message: 'Validation error: the emulator answers only applications(limit: N) { nodes { name } }' }],
    };
  return { data: { applications: { nodes: APPLICATIONS.slice(0, Number(m[1])).map((name) => ({ name })) } } };
}

export interface GraphqlCall {
  readonly mode: 'json' | 'form';
  readonly path: string;
  /** Header names the request carried (lower-case), to check browser mode sends no custom ones. */
  readonly headerNames: readonly string[];
  readonly hadCookie: boolean;
}

/** Reads a GraphQL request in either mode; the key and query, or what is wrong with it. */
export async function readGraphqlRequest(
  contentType: string | undefined,
  headerKey: string | undefined,
  body: Buffer,
): Promise<{ key?: string; query?: string; mode?: 'json' | 'form'; problem?: string }> {
  const mime = contentType?.split(';')[0]!.trim().toLowerCase();
  if (mime === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return { problem: 'the body is not JSON' };
    }
    const query = (parsed as { query?: unknown } | null)?.query;
    if (typeof query !== 'string') return { problem: 'the JSON body has no query string' };
    return { key: headerKey, query, mode: 'json' };
  }
  if (mime === 'multipart/form-data') {
    // undici's multipart parser, the same one fetch uses: no extra dependency.
    const form = await new Request('http://emulator/', {
      method: 'POST',
      headers: { 'content-type': contentType! },
      body: new Uint8Array(body),
    }).formData();
    const query = form.get('query');
    const key = form.get('x-api-key');
    if (typeof query !== 'string') return { problem: 'the form has no query field' };
    if (typeof key !== 'string') return { problem: 'the form has no x-api-key field' };
    return { key, query, mode: 'form' };
  }
  return { problem: `Content-Type ${contentType ?? '(none)'} is not application/json or multipart/form-data` };
}
