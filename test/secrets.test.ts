import { describe, expect, it } from 'vitest';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { validateDocument } from '../src/check/check-document.js';
import { expr, pipeline, shell, stage } from 'pipewright';

const GITHUB = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
const PAT = 'pat.AbCdEfGhIj123.KlMnOpQrSt456.UvWxYzAbCd789';

const withScript = (script: string, env: Record<string, string> = {}) =>
  buildAndValidate([
    {
      resource: pipeline({ identifier: 'p', project: 'x' })
        .stage(stage({ identifier: 's', type: 'Custom' }))
        .step(shell({ identifier: 'push', script, env })),
      file: 'test/secrets.test.ts',
      exportName: 'p',
    },
  ]).diagnostics;

describe('literals that look like credentials', () => {
  it('warn, locate, and never print the value', () => {
    const [warning, ...rest] = withScript(`git clone https://${GITHUB}@github.com/acme/app`);
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({
      code: 'possible-secret',
      severity: 'warning',
      subject: 'pipeline "p" > stage "s" > step "push"',
      message: 'spec.source.spec.script contains what looks like a GitHub token (ghp_…)',
    });
    expect(JSON.stringify(warning)).not.toContain(GITHUB.slice(4));
    expect(warning!.location).toEqual({
      file: 'test/secrets.test.ts',
      line: expect.any(Number),
      column: expect.any(Number),
    });
  });

  it.each([
    ['a platform token', PAT],
    ['an AWS key', 'AKIAIOSFODNN7EXAMPLE'],
    ['a Slack token', 'xoxb-1234567890-abcdefghij'],
    ['a private key', '-----BEGIN RSA PRIVATE KEY-----'],
  ])('find %s in variables too', (_, secret) => {
    expect(withScript('echo ok', { TOKEN: secret }).map((d) => d.code)).toEqual(['possible-secret']);
  });

  it('stay quiet for secret references and ordinary text', () => {
    expect(
      withScript(`curl -H "x-api-key: ${expr.secret('api_key')}" https://example.com`, {
        TOKEN: '<+secrets.getValue("t")>',
      }),
    ).toEqual([]);
    const note = { pipeline: { note: 'patch.release.notes.txt', sha: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3' } };
    expect(validateDocument('pipeline', note).filter((d) => d.code === 'possible-secret')).toEqual([]);
  });
});
