import { describe, expect, it } from 'vitest';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { validateDocument } from '../src/check/check-document.js';
import { maskPossibleSecrets } from '../src/check/secret-scan.js';
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

describe('maskPossibleSecrets (the source lines validate prints)', () => {
  it('shows each kind of credential by its first characters, the rest of the line as it is', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    expect(maskPossibleSecrets(`a ghp_${'a1B2'.repeat(9)} b AKIAABCDEFGHIJKLMNOP c`)).toBe('a ghp_… b AKIA… c');
    expect(maskPossibleSecrets(`token: ${jwt} end`)).toBe('token: eyJh… end');
    expect(maskPossibleSecrets('key: pat.abcdefgh12.ijklmnop34.qrstuvwx56, xoxb-1234567890-abc')).toBe(
      'key: pat.…, xoxb…',
    );
  });

  it('leaves a line without one alone, placeholders included', () => {
    for (const line of ['script: echo ok', 'token: <+secrets.getValue("gh")>', 'id: ghp_short'])
      expect(maskPossibleSecrets(line)).toBe(line);
  });
});
