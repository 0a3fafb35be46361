import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { publishFolder, pull, render, type PublishEvent } from '../src/index.js';
import { DiagnosticError } from '../src/core/diagnostics.js';
import { inputSetDoc, pipelineDoc, projectDoc, templatedPipelineDoc, templateDoc } from './support/emulator-output.js';
import { emulatorsPerTest, FAST_RETRIES } from './support/emulator-run.js';
import { seedDocuments } from './support/emulator-seed.js';
import { ACCOUNT_ID, ADMIN_KEY } from './support/emulator.js';

/**
 * The commands as functions a library user calls in memory: publishFolder, pull and render do what the binary
 * does, print nothing, and return their report (the CLI only prints it).
 */

const session = emulatorsPerTest('pipewright-use-cases-');

beforeEach(() => {
  for (const [name, value] of Object.entries({ ...FAST_RETRIES, HARNESS_API_KEY: ADMIN_KEY })) vi.stubEnv(name, value);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('publishFolder', () => {
  it('publishes a compiled folder, reports each step as an event, and a second run changes nothing', async () => {
    const em = await session.emulate();
    const out = await session.compiled([projectDoc('shop'), pipelineDoc('deploy', 'shop')]);
    const events: PublishEvent['type'][] = [];
    const options = {
      baseUrl: em.url,
      account: ACCOUNT_ID,
      config: {},
      onEvent: (e: PublishEvent) => events.push(e.type),
    };
    const first = await publishFolder(out, options);
    expect(first.results.map((r) => `${r.kind} ${r.outcome}`)).toEqual(['project created', 'pipeline created']);
    expect(first.target).toMatchObject({ dir: out, baseUrl: em.url, accountId: ACCOUNT_ID, edited: [] });
    expect(events).toEqual(['begin', 'start', 'result', 'start', 'result']);
    expect(em.resource('pipeline', 'default', 'shop', 'deploy')).toBeDefined();
    const second = await publishFolder(out, options);
    expect(second.results.map((r) => r.outcome)).toEqual(['unchanged', 'unchanged']);
  });

  it('writes nothing on a dry run, and refuses a platform that is not there with a diagnostic', async () => {
    const em = await session.emulate();
    const out = await session.compiled([projectDoc('shop')]);
    const dry = await publishFolder(out, { baseUrl: em.url, account: ACCOUNT_ID, config: {}, dryRun: true });
    expect(dry.results.map((r) => r.outcome)).toEqual(['created']);
    expect(em.totalWrites()).toBe(0);
    const error = await publishFolder(out, { baseUrl: 'http://127.0.0.1:9', account: ACCOUNT_ID, config: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DiagnosticError);
    expect((error as DiagnosticError).diagnostics[0]!.code).toBe('no-platform');
  });
});

describe('pull', () => {
  it('writes a project of what the platform holds and returns what it did', async () => {
    const em = await session.emulate();
    seedDocuments(em, [projectDoc('shop'), pipelineDoc('deploy', 'shop')]);
    const out = join(session.work, 'shop');
    const result = await pull({ baseUrl: em.url, account: ACCOUNT_ID, org: 'default', project: 'shop', out });
    expect(result.documents).toBe(2);
    expect(result.kinds).toEqual({ project: 1, pipeline: 1 });
    expect(result.files.every((file) => file.outcome === 'created')).toBe(true);
    expect(existsSync(result.record)).toBe(true);
    expect(await readFile(join(out, 'pipewright.pull.json'), 'utf8')).toContain(em.url);
    expect(await readFile(join(out, 'pipewright.config.ts'), 'utf8')).toContain(em.url);
  });

  it('refuses a project without its organization, before any request', async () => {
    const em = await session.emulate();
    const error = await pull({ baseUrl: em.url, account: ACCOUNT_ID, project: 'shop', out: session.work }).catch(
      (e: unknown) => e,
    );
    expect((error as DiagnosticError).diagnostics[0]!.code).toBe('usage');
    expect(em.requests.length).toBe(0);
  });
});

describe('render', () => {
  /** The pipeline and its input set as YAML files (render takes files as well as identifiers of an output folder). */
  async function files(): Promise<{ pipeline: string; eu: string }> {
    const pipeline = join(session.work, 'gated.yaml');
    const eu = join(session.work, 'eu.yaml');
    await writeFile(pipeline, stringify(templatedPipelineDoc('gated', 'shop', 'checks', 'v2')));
    await writeFile(eu, stringify(inputSetDoc('eu', 'shop', 'gated')));
    return { pipeline, eu };
  }

  it('merges an input set of a compiled folder into its pipeline', async () => {
    const { pipeline, eu } = await files();
    const result = await render({ pipeline, inputSets: [eu] });
    expect(result.ok).toBe(true);
    expect(result.output).toContain('value: eu');
    expect(result.inputs).toMatchObject([
      { name: 'pipeline.variables.target', status: 'given', from: 'input set "eu"' },
    ]);
    expect(result.inputSets).toEqual([{ identifier: 'eu', file: expect.stringContaining('eu.yaml') }]);
  });

  it('is not ok when an input is left without a value, or a value names no input', async () => {
    const { pipeline, eu } = await files();
    const bare = await render({ pipeline });
    expect(bare.ok).toBe(false);
    expect(bare.inputs.map((input) => input.status)).toEqual(['unsatisfied']);
    const unknown = await render({
      pipeline,
      inputSets: [eu],
      values: [{ name: 'pipeline.variables.targt', value: 'us' }],
    });
    expect(unknown.ok).toBe(false);
    expect(unknown.diagnostics.map((d) => [d.code, d.hint])).toEqual([
      ['unknown-input', 'did you mean "pipeline.variables.target"?'],
    ]);
  });
});
