import { readFileSync } from 'node:fs';
import { loadConfig } from '../compile/load-config.js';
import { ApiError } from '../platform/envelope.js';
import { authAdvice } from '../publish/settings.js';
import { DiagnosticError } from '../core/diagnostics.js';
import { EXIT } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { asUserError, connect, requestFailed } from '../publish/connect.js';
import { protectKeyFile, stderr, stdout } from './output.js';

export interface GraphqlFlags {
  readonly baseUrl?: string;
  readonly account?: string;
  readonly apiKeyFile?: string;
  readonly debug?: boolean;
  readonly json?: boolean;
}

const hasErrors = (result: unknown): boolean => {
  const errors = (result as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) && errors.length > 0;
};

export async function runGraphql(queryArg: string, flags: GraphqlFlags): Promise<number> {
  protectKeyFile(flags.apiKeyFile);
  try {
    const query = queryArg === '-' ? readFileSync(0, 'utf8') : queryArg;
    if (!query.trim())
      throw DiagnosticError.of(
        'empty-query',
        'the GraphQL query is empty',
        "pass the query text, e.g. pipewright graphql '{ applications(limit: 5) { nodes { name } } }'",
      );
    const { config } = await loadConfig();
    const { client, keySource } = await connect(flags, config);
    let result: unknown;
    try {
      result = await client.graphql(query);
    } catch (error) {
      if (error instanceof ApiError) {
        const advice =
          error.kind === 'unauthorized' || error.kind === 'forbidden' || error.kind === 'untrusted-certificate'
            ? authAdvice(error.kind, keySource)
            : 'check --base-url and the query; run again with --debug for details';
        throw requestFailed(error, `GraphQL query to ${client.baseUrl} failed`, advice);
      }
      throw error;
    }
    if (flags.json) {
      const failed = hasErrors(result);
      const diagnostics = failed
        ? DiagnosticError.of('graphql-errors', 'the GraphQL result has errors (see result.errors)').diagnostics
        : [];
      printEnvelope('graphql', !failed, diagnostics, { result });
      return failed ? EXIT.failed : EXIT.ok;
    }
    stdout(`${JSON.stringify(result, null, 2)}\n`);
    if (hasErrors(result)) {
      stderr('pipewright: the GraphQL result has errors (see "errors" above)\n');
      return EXIT.failed;
    }
    return EXIT.ok;
  } catch (error) {
    throw asUserError(error);
  }
}
