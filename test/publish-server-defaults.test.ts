import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { semanticDiff } from '../src/publish/semantic-diff.js';
import { SERVER_DEFAULTS } from '../src/publish/server-defaults.js';
import { ROOT, runCli, writeIn } from './support/cli.js';
import { connectorDoc, projectDoc } from './support/emulator-output.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';

/**
 * What the platform fills in is not a change (server-defaults.ts): a re-publish of an unchanged estate writes
 * nothing and reports no drift, a project without `color` included (the README's first example and the `init`
 * template publish one), while a value someone set on the platform is still a change back to the default.
 */

const session = emulatorsPerTest('pipewright-defaults-');
const { emulate } = session;

const { color: _color, ...colourless } = projectDoc('shop').project!;
const PROJECT = { project: colourless };
const project = (extra: Record<string, unknown>) => ({ project: { ...colourless, ...extra } });

describe('the table of server-filled defaults in the semantic diff', () => {
  it("a project without color equals the platform's #0063F7, in either case", () => {
    expect(semanticDiff(PROJECT, project({ color: '#0063F7', modules: ['CD', 'CI', 'CORE'] }))).toEqual([]);
    expect(semanticDiff(PROJECT, project({ color: '#0063f7' }))).toEqual([]);
  });

  it('a colour someone chose on the platform is a change back to the default', () => {
    expect(semanticDiff(PROJECT, project({ color: '#FF0000' }))).toEqual([
      { path: 'project.color', place: 'color', op: 'changed', local: '#0063F7', remote: '#FF0000' },
    ]);
    expect(semanticDiff(project({ color: '#00ff00' }), project({ color: '#0063F7' }))).toEqual([
      { path: 'project.color', place: 'color', op: 'changed', local: '#00ff00', remote: '#0063F7' },
    ]);
  });

  it("a container-registry connector equals the platform's executeOnDelegate: true and proxy: false; false is a change", () => {
    const local = connectorDoc('hub', 'shop');
    const filled = (spec: Record<string, unknown>) => ({
      connector: {
        ...local.connector!,
        spec: { ...(local.connector!.spec as object), delegateSelectors: [], ...spec },
      },
    });
    expect(semanticDiff(local, filled({ executeOnDelegate: true, proxy: false }))).toEqual([]);
    expect(semanticDiff(local, filled({ executeOnDelegate: false }))).toEqual([
      {
        path: 'connector.spec.executeOnDelegate',
        place: 'spec.executeOnDelegate',
        op: 'changed',
        local: true,
        remote: false,
      },
    ]);
  });

  it("a field the table does not give the document's type is a change as usual", () => {
    const github = {
      connector: {
        ...connectorDoc('git', 'shop').connector!,
        type: 'Github',
        spec: { url: 'https://github.com/acme' },
      },
    };
    const remote = { connector: { ...github.connector, spec: { url: 'https://github.com/acme', proxy: false } } };
    expect(semanticDiff(github, remote)).toEqual([
      { path: 'connector.spec.proxy', place: 'spec.proxy', op: 'removed', remote: false },
    ]);
  });

  it('a number sent into a connector stored as its text is no change; another text is, and a pipeline compares types', () => {
    const newRelic = (id: unknown) => ({
      connector: {
        ...connectorDoc('nr', 'shop').connector!,
        type: 'NewRelic',
        spec: { newRelicAccountId: id, url: 'https://insights-api.newrelic.com/', apiKeyRef: 'nr_key' },
      },
    });
    expect(semanticDiff(newRelic(1234567), newRelic('1234567'))).toEqual([]);
    expect(semanticDiff(newRelic(1234567), newRelic('7654321'))).toMatchObject([
      { path: 'connector.spec.newRelicAccountId', op: 'changed', local: 1234567, remote: '7654321' },
    ]);
    const pipelineWith = (value: unknown) => ({ pipeline: { identifier: 'p', name: 'p', timeout: value } });
    expect(semanticDiff(pipelineWith(10), pipelineWith('10'))).toMatchObject([{ op: 'changed' }]);
  });

  it('every entry names where the platform does it', () => {
    for (const entry of SERVER_DEFAULTS) expect(entry.source, entry.path.join('.')).toMatch(/\.java L\d+/);
  });
});

/** The first ```ts block of the README, which the README says goes in `pipelines/deploy.ts`. */
async function readmeFirstExample(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const match = /`pipelines\/deploy\.ts`:\n\n```ts\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('the README no longer starts with the pipelines/deploy.ts example');
  return match[1]!;
}

describe('a re-publish writes nothing and reports no drift', () => {
  it("the README's first example, whose project has no color", async () => {
    const source = await readmeFirstExample();
    expect(source).not.toContain('color');
    const dir = join(session.work, 'readme');
    await writeIn(dir, 'pipelines/deploy.ts', source);
    expect((await runCli(['compile', 'pipelines/deploy.ts', '-o', 'out'], { cwd: dir })).code).toBe(0);
    const em = await emulate();
    const out = join(dir, 'out');
    expect((await publishWith({ emulator: em, args: [out] })).code).toBe(0);
    expect(em.resource('project', 'default', undefined, 'payments')!.body.color).toBeUndefined();
    const writes = em.totalWrites();
    const again = await publishWith({ emulator: em, args: [out, '--json'] });
    expect(JSON.parse(again.stdout).counts).toEqual({ created: 0, updated: 0, unchanged: 2, failed: 0 });
    expect(em.totalWrites()).toBe(writes);
    const drift = await publishWith({ emulator: em, args: [out, '--dry-run', '--fail-on-drift', '--json'] });
    expect(drift.code).toBe(0);
    expect(JSON.parse(drift.stdout).counts).toEqual({ created: 0, updated: 0, unchanged: 2, failed: 0 });
    // Someone recolours it in the UI: the next publish sets the default back, and says so.
    em.edit('project', 'default', undefined, 'payments', (body) => (body.color = '#FF0000'));
    const dry = await publishWith({ emulator: em, args: [out, '--dry-run'] });
    expect(dry.stdout).toContain('    ~ color: "#FF0000" -> "#0063F7"');
  });

  it("the init template's project and pipelines", async () => {
    expect((await runCli(['init', 'repo', '--name', 'shop'], { cwd: session.work })).code).toBe(0);
    const repo = join(session.work, 'repo');
    const compiled = await runCli(['compile'], { cwd: repo });
    expect(compiled.code, compiled.stderr).toBe(0);
    const em = await emulate();
    expect((await publishWith({ emulator: em, cwd: repo })).code).toBe(0);
    const writes = em.totalWrites();
    const again = await publishWith({ emulator: em, cwd: repo, args: ['--json'] });
    expect(JSON.parse(again.stdout).counts).toEqual({ created: 0, updated: 0, unchanged: 3, failed: 0 });
    expect(em.totalWrites()).toBe(writes);
  });
});
