import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertNoKey, emulatorsPerTest, FAST_RETRIES, runBinary } from './support/emulator-run.js';
import { pipelineDoc, projectDoc, type Doc } from './support/emulator-output.js';
import { seedDocuments } from './support/emulator-seed.js';
import { ACCOUNT_ID, ADMIN_KEY, type Emulator } from './support/emulator.js';

// What the platform holds but one document's check refuses (a rule the platform does not enforce when it saves) is
// kept in the module as a suppression with its reason, listed as `held`: the pulled project compiles and its
// first publish writes nothing (src/pull/pull-held.ts).

const session = emulatorsPerTest('pipewright-pull-held-');

const env = (em: Emulator) => ({
  HARNESS_API_KEY: ADMIN_KEY,
  HARNESS_ACCOUNT_ID: ACCOUNT_ID,
  HARNESS_BASE_URL: em.url,
  ...FAST_RETRIES,
});

/**
 * A step whose looping strategy names none of matrix, repeat or parallelism: pipewright's check refuses it
 * (invalid-value), and no save-time refusal of the platform is known (docs/fidelity.md, `* false-error *.strategy.*`).
 */
const strategyWithoutAxis: Doc = {
  pipeline: {
    name: 'custom run',
    identifier: 'custom_run',
    projectIdentifier: 'shop',
    orgIdentifier: 'default',
    tags: {},
    stages: [
      {
        stage: {
          name: 'tasks',
          identifier: 'tasks',
          type: 'Custom',
          spec: {
            execution: {
              steps: [
                {
                  step: {
                    name: 'pause',
                    identifier: 'pause',
                    type: 'Wait',
                    spec: { duration: '1m' },
                    strategy: { maxConcurrency: 2 },
                  },
                },
              ],
            },
          },
        },
      },
    ],
  },
};

async function modules(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
  return Object.fromEntries(await Promise.all(files.map(async (f) => [f, await readFile(f, 'utf8')] as const)));
}

async function pullCompilePublish(em: Emulator) {
  const pulled = await runBinary(['pull', '--json', '-o', 'platform'], { cwd: session.work, env: env(em) });
  assertNoKey(pulled);
  expect(pulled.code, pulled.stderr).toBe(0);
  const project = join(session.work, 'platform');
  const compiled = await runBinary(['compile'], { cwd: project });
  expect(compiled.code, compiled.stderr).toBe(0);
  const before = em.requests.length;
  const published = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
  expect(published.code, published.stderr).toBe(0);
  const writes = em.requests.slice(before).filter((r) => r.method !== 'GET' && !/\/list(-metadata|V2)?\b/.test(r.path));
  expect(writes).toEqual([]);
  return { report: JSON.parse(pulled.stdout) as { held: Array<{ name: string; code: string }> }, project };
}

describe('pull held: one document the check refuses', () => {
  it('keeps a single-document finding as a suppression, lists it, and the project compiles and publishes nothing', async () => {
    const em = await session.emulate();
    seedDocuments(em, [projectDoc('shop'), strategyWithoutAxis]);
    const { report, project } = await pullCompilePublish(em);
    expect(report.held.map((h) => h.code)).toEqual(['invalid-value']);
    const texts = Object.values(await modules(project)).join('\n');
    expect(texts).toContain("'invalid-value'");
  });

  it('writes no suppression for a document that passes the check', async () => {
    const em = await session.emulate();
    seedDocuments(em, [projectDoc('shop'), pipelineDoc('ok', 'shop')]);
    const { report, project } = await pullCompilePublish(em);
    expect(report.held).toEqual([]);
    expect(Object.values(await modules(project)).join('\n')).not.toContain('.suppress(');
  });
});
