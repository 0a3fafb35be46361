import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertNoKey, emulatorsPerTest, FAST_RETRIES, runBinary } from './support/emulator-run.js';
import { pipelineDoc, projectDoc, type Doc } from './support/emulator-output.js';
import { seedDocuments } from './support/emulator-seed.js';
import { ACCOUNT_ID, ADMIN_KEY, type Emulator } from './support/emulator.js';

// A project is committed: pull never writes the API key it uses into it, even when a document on the platform
// holds it (pasted into a variable, or in a description URL-encoded). Such a document is refused as
// key-in-document, the rest is pulled, and the run exits 1 (docs/security.md, "The key in files pull writes").

const session = emulatorsPerTest('pipewright-pull-key-');

const env = (em: Emulator) => ({
  HARNESS_API_KEY: ADMIN_KEY,
  HARNESS_ACCOUNT_ID: ACCOUNT_ID,
  HARNESS_BASE_URL: em.url,
  ...FAST_RETRIES,
});

const pipeline = (identifier: string, extra: Record<string, unknown>): Doc => {
  const doc = pipelineDoc('placeholder', 'shop') as { pipeline: Record<string, unknown> };
  return { pipeline: { ...doc.pipeline, identifier, name: identifier, ...extra } };
};

/** Every file under `root` with its text. */
async function texts(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return Object.fromEntries(await Promise.all(files.map(async (file) => [file, await readFile(file, 'utf8')])));
}

describe('pull: the API key is never written into the project', () => {
  it('refuses documents that hold the key, in a variable or URL-encoded in a description, and pulls the rest', async () => {
    const em = await session.emulate();
    seedDocuments(em, [
      projectDoc('shop'),
      pipeline('good', {}),
      pipeline('leaky', { variables: [{ name: 'token', type: 'String', value: ADMIN_KEY }] }),
      pipeline('described', { description: `call https://x.example/?token=${encodeURIComponent(ADMIN_KEY)}` }),
    ]);
    const result = await runBinary(['pull', '-o', 'platform', '--org', 'default', '--project', 'shop'], {
      cwd: session.work,
      env: env(em),
    });
    assertNoKey(result);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stderr).not.toContain('unexpected error');
    expect(result.stderr.match(/\[error key-in-document\]/g)).toHaveLength(2);
    expect(result.stderr).toMatch(/pipeline default\/shop\/leaky is not pulled: it holds the API key this pull uses/);
    expect(result.stderr).toContain('rotate the API key');
    const written = await texts(join(session.work, 'platform'));
    const files = Object.keys(written).map((file) => file.slice(join(session.work, 'platform').length + 1));
    expect(files).toContain('pipelines/default/shop/good.ts');
    expect(files.some((file) => /leaky|described/.test(file))).toBe(false);
    for (const [file, text] of Object.entries(written)) {
      expect(text.includes(ADMIN_KEY), file).toBe(false);
      expect(text.includes(encodeURIComponent(ADMIN_KEY)), file).toBe(false);
    }
  });

  it('a pull whose documents do not hold the key exits 0 (the negative of the rule)', async () => {
    const em = await session.emulate();
    seedDocuments(em, [
      projectDoc('shop'),
      pipeline('good', { variables: [{ name: 'token', type: 'String', value: '<+secrets.getValue("token")>' }] }),
    ]);
    const result = await runBinary(['pull', '-o', 'platform', '--org', 'default', '--project', 'shop'], {
      cwd: session.work,
      env: env(em),
    });
    expect(result.stderr).not.toContain('key-in-document');
    expect(result.code, result.stderr).toBe(0);
  });
});
