import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../src/core/redact.js';
import { pipelineDoc, projectDoc } from './support/emulator-output.js';
import { emulatorsPerTest, FAST_RETRIES, runBinary } from './support/emulator-run.js';
import { seedDocuments } from './support/emulator-seed.js';
import { ACCOUNT_ID, ADMIN_KEY } from './support/emulator.js';

/**
 * The key stays with its host: a platform that echoes the API key (in every correlationId, in an error message,
 * inside a remote document a dry run diffs) gets it printed nowhere, in any format, nor in the job summary.
 */

const session = emulatorsPerTest('pipewright-redact-cli-');

describe('pipewright publish against a platform that echoes the key', () => {
  it('masks the key in text, --json, --debug and the markdown plan appended to $GITHUB_STEP_SUMMARY', async () => {
    const em = await session.emulate({
      echoKey: true,
      forbid: (_method, path) => (path.includes('broken') ? `core_pipeline_view (key ${ADMIN_KEY})` : undefined),
    });
    const remote = pipelineDoc('deploy', 'shop');
    (remote.pipeline as Record<string, unknown>).description = `deployed with ${ADMIN_KEY}`;
    seedDocuments(em, [projectDoc('shop'), remote]);
    const out = await session.compiled([
      projectDoc('shop'),
      pipelineDoc('deploy', 'shop'),
      pipelineDoc('broken', 'shop'),
    ]);
    const summary = join(session.work, 'summary.md');
    const env = { ...FAST_RETRIES, HARNESS_API_KEY: ADMIN_KEY, GITHUB_STEP_SUMMARY: summary };
    const base = ['publish', out, '--dry-run', '--base-url', em.url, '--account', ACCOUNT_ID];
    const runs = {
      text: await runBinary([...base, '--debug'], { cwd: session.work, env }),
      json: await runBinary([...base, '--json'], { cwd: session.work, env }),
      markdown: await runBinary([...base, '--format', 'markdown'], { cwd: session.work, env }),
    };
    await writeFile(summary, runs.markdown.stdout);
    for (const [name, run] of Object.entries(runs)) {
      expect(run.code, name).toBe(1);
      expect(`${run.stdout}${run.stderr}`, name).not.toContain(ADMIN_KEY);
      expect(`${run.stdout}${run.stderr}`, name).not.toContain(encodeURIComponent(ADMIN_KEY));
      // The key was there to mask: the echo reached the output, masked.
      expect(`${run.stdout}${run.stderr}`, name).toContain(REDACTED);
    }
    // The diff of the remote document shows where the key was, masked.
    expect(runs.text.stdout).toContain(`deployed with ${REDACTED}`);
    expect(await readFile(summary, 'utf8')).not.toContain(ADMIN_KEY);
  });

  it('prints the platform answer as it is when it holds no key', async () => {
    const em = await session.emulate();
    seedDocuments(em, [projectDoc('shop')]);
    const out = await session.compiled([projectDoc('shop')]);
    const env = { ...FAST_RETRIES, HARNESS_API_KEY: ADMIN_KEY };
    const run = await runBinary(['publish', out, '--dry-run', '--base-url', em.url, '--account', ACCOUNT_ID], {
      cwd: session.work,
      env,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(REDACTED);
    expect(run.stdout).toContain('unchanged');
  });
});
