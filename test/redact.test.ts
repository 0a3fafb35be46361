import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redact, REDACTED } from '../src/core/redact.js';
import { shown } from '../src/cli/output.js';
import type { DocumentResult, PublishReport } from '../src/publish/publish.js';
import { markdownReport } from '../src/publish/report-markdown.js';
import { jsonReport, resultLines, summaryTable } from '../src/publish/report-text.js';

/**
 * The one redaction at the output edge (core/redact.ts, applied by cli/output.ts): an API key the platform echoes
 * back is masked in every form a printer gives it.
 */

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('redact', () => {
  const key = 'pat.acct_1.tok/en+x=.secret';

  it('masks the key as it is, URL-encoded, JSON-escaped and Markdown-escaped', () => {
    for (const form of [
      key,
      encodeURIComponent(key),
      JSON.stringify(key).slice(1, -1),
      'pat.acct\\_1.tok/en+x=.secret',
    ])
      expect(redact(`before ${form} after`, [key])).toBe(`before ${REDACTED} after`);
  });

  it('leaves a text without the key, and values too short to be keys, as they are', () => {
    expect(redact('nothing to hide here', [key])).toBe('nothing to hide here');
    expect(redact('a b c', ['a', undefined])).toBe('a b c');
  });

  it('the CLI edge masks HARNESS_API_KEY', () => {
    vi.stubEnv('HARNESS_API_KEY', key);
    expect(shown(`correlationId ${key}`)).toBe(`correlationId ${REDACTED}`);
  });
});

/** An answer of the platform: any JSON, with the key planted at a random place inside a string. */
const plantedAnswer = (key: string) =>
  fc
    .tuple(
      fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
      fc.string({ maxLength: 10 }),
      fc.string({ maxLength: 10 }),
    )
    .map(([answer, path, before, after]) => {
      const root: Record<string, unknown> = { ...answer };
      let at = root;
      for (const name of path.slice(0, -1)) at = (at[name] = {}) as Record<string, unknown>;
      at[path.at(-1)!] = `${before}${key}${after}`;
      return { root, text: `${before}${key}${after}` };
    });

describe('the report printers, through the output edge', () => {
  it('never show the key, wherever in an answer the platform puts it', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9._\-/+=]{8,40}$/),
        fc.constantFrom(...(['created', 'updated', 'failed'] as const)),
        fc.boolean(),
        (key, outcome, dryRun) => {
          vi.stubEnv('HARNESS_API_KEY', key);
          return fc.assert(
            fc.property(plantedAnswer(key), ({ root, text }) => {
              const result: DocumentResult = {
                file: 'pipelines/deploy.yaml',
                kind: 'pipeline',
                name: 'deploy',
                id: { kind: 'pipeline', org: 'default', project: 'shop', identifier: 'deploy' },
                outcome,
                correlationId: text,
                changes: [{ path: 'pipeline.description', op: 'changed', local: 'ours', remote: root }],
                ...(outcome === 'failed' ? { error: { message: text, correlationId: text, code: text } } : {}),
                warnings: [text],
              };
              const report: PublishReport = {
                dryRun,
                results: [result],
                stopped: { kind: 'unauthorized', message: text },
              };
              const context = {
                baseUrl: 'https://app.example',
                accountId: 'acct',
                dir: 'out',
                edited: [],
                keySource: 'HARNESS_API_KEY',
              };
              const printed = [
                resultLines(result, dryRun).join('\n'),
                summaryTable(report),
                markdownReport(report, context),
                JSON.stringify(jsonReport(report, context), null, 2),
              ].map(shown);
              for (const output of printed) expect(output).not.toContain(key);
            }),
            { numRuns: 20 },
          );
        },
      ),
      { numRuns: 25 },
    );
  });
});
