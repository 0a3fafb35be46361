import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeIn } from './support/cli.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';

/**
 * `compile --keep-going` writes every valid document, skips the files with errors and what depends on their
 * documents, lists both and exits 1; publish of that output publishes the rest and never prunes what was skipped.
 */

const session = emulatorsPerTest('pipewright-keep-going-');

const PROJECT = `import { project } from 'pipewright';
export const web = project({ identifier: 'web' });
`;
// A stage template and a pipeline in one file; `timeout` decides whether the file compiles.
const platform = (timeout: string) => `import { custom, pipeline, shell, stage, template } from 'pipewright';
import { web } from './project.js';
export const gate = template.stage({
  identifier: 'gate',
  project: web,
  versionLabel: 'v1',
  spec: stage({ identifier: 'gate', type: 'Custom' }).step(shell({ identifier: 'test', script: 'make test', timeout: '15m' })),
});
export const smoke = pipeline({ identifier: 'smoke', project: web })
  .stage(custom({ identifier: 'run' }).step(shell({ identifier: 'hi', script: 'echo hi', timeout: '${timeout}' })));
`;
// A pipeline made from the template: skipped when the template is.
const DEPLOY = `import { pipeline, stageTemplate } from 'pipewright';
import { web } from './project.js';
import { gate } from './platform.js';
export const deploy = pipeline({ identifier: 'deploy', project: web }).stage(
  stageTemplate({ identifier: 'gate', templateRef: gate }),
);
`;
const OTHER = `import { custom, pipeline, shell } from 'pipewright';
import { web } from './project.js';
export const ok = pipeline({ identifier: 'ok', project: web })
  .stage(custom({ identifier: 'run' }).step(shell({ identifier: 'hi', script: 'echo ok', timeout: '5m' })));
`;

async function project(timeout: string): Promise<string> {
  const dir = join(session.work, 'repo');
  await writeIn(dir, 'defs/project.ts', PROJECT);
  await writeIn(dir, 'defs/platform.ts', platform(timeout));
  await writeIn(dir, 'defs/deploy.ts', DEPLOY);
  await writeIn(dir, 'defs/other.ts', OTHER);
  return dir;
}

const compile = (dir: string, ...args: string[]) =>
  runCli(['compile', 'defs/*.ts', '-o', 'out', ...args], { cwd: dir });
const manifestOf = async (dir: string) =>
  JSON.parse(await readFile(join(dir, 'out/manifest.json'), 'utf8')) as {
    files: Array<{ file: string }>;
    skipped?: Array<{ file?: string; source: string; reason: string; dependsOn?: string }>;
  };

describe('compile --keep-going', () => {
  it('writes the valid documents, skips the bad file and its dependants, lists both, exits 1', async () => {
    const dir = await project('10x');
    const plain = await compile(dir);
    expect(plain.code).toBe(1);
    expect(existsSync(join(dir, 'out'))).toBe(false);

    const result = await compile(dir, '--keep-going');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('defs/platform.ts');
    expect(result.stdout).toContain(
      'compiled 2 documents to out: 3 written, 0 unchanged, 0 removed, 3 skipped (--keep-going)',
    );
    expect(result.stdout).toContain('  compiled projects/default/web.yaml\n');
    expect(result.stdout).toContain('  compiled pipelines/default/web/ok.yaml\n');
    expect(result.stdout).toMatch(
      /^ {2}skipped {2}templates\/default\/web\/gate\/v1\.yaml {2}\(defs\/platform\.ts has errors\)$/m,
    );
    expect(result.stdout).toMatch(
      /^ {2}skipped {2}pipelines\/default\/web\/smoke\.yaml {2}\(defs\/platform\.ts has errors\)$/m,
    );
    expect(result.stdout).toMatch(
      /^ {2}skipped {2}pipelines\/default\/web\/deploy\.yaml {2}\(depends on template "gate" \(version v1\) in project default\/web, skipped\)$/m,
    );
    const manifest = await manifestOf(dir);
    expect(manifest.files.map((f) => f.file)).toEqual(['projects/default/web.yaml', 'pipelines/default/web/ok.yaml']);
    expect(manifest.skipped?.map((s) => [s.file, s.reason])).toEqual([
      ['pipelines/default/web/deploy.yaml', 'depends-on-skipped'],
      ['pipelines/default/web/smoke.yaml', 'invalid'],
      ['templates/default/web/gate/v1.yaml', 'invalid'],
    ]);

    const json = await compile(dir, '--keep-going', '--json');
    expect(json.code).toBe(1);
    const envelope = JSON.parse(json.stdout) as {
      ok: boolean;
      compiled: Array<{ kind: string; name: string }>;
      skipped: Array<{ identifier: string; reason: string }>;
      diagnostics: Array<{ severity: string }>;
    };
    expect(envelope.ok).toBe(false);
    expect(envelope.compiled.map((d) => `${d.kind} ${d.name}`).sort()).toEqual([
      'pipeline default/web/ok',
      'project default/web',
    ]);
    expect(envelope.skipped.map((s) => `${s.identifier}:${s.reason}`)).toEqual([
      'deploy:depends-on-skipped',
      'smoke:invalid',
      'gate:invalid',
    ]);
    expect(envelope.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });

  it('without errors it is a plain compile: exit 0, nothing skipped', async () => {
    const dir = await project('10m');
    const result = await compile(dir, '--keep-going');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('compiled 5 documents to out: 6 written, 0 unchanged, 0 removed\n');
    expect((await manifestOf(dir)).skipped).toBeUndefined();
  });

  it('is refused with --check', async () => {
    const dir = await project('10m');
    const result = await compile(dir, '--keep-going', '--check');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--keep-going cannot be combined with --check');
  });

  it('publish of the output publishes the valid documents and prunes nothing skipped', async () => {
    const em = await session.emulate();
    const dir = await project('10m');
    expect((await compile(dir)).code).toBe(0);
    const first = await publishWith({ emulator: em, args: [join(dir, 'out'), '--json'] });
    expect(first.code).toBe(0);
    expect(em.store.totalWrites()).toBe(5);

    // The service's file breaks; the rest is edited and compiled with --keep-going.
    await writeIn(dir, 'defs/platform.ts', platform('10x'));
    await writeIn(dir, 'defs/other.ts', OTHER.replace('echo ok', 'echo changed'));
    expect((await compile(dir, '--keep-going')).code).toBe(1);
    const second = await publishWith({ emulator: em, args: [join(dir, 'out'), '--prune'] });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('3 skipped documents are not published and not pruned');
    expect(second.stdout).toMatch(/^updated\s+pipeline\s+default\/web\/ok\s/m);
    expect(second.stdout).not.toMatch(/orphan|deleted/);
    expect(em.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(em.store.totalWrites()).toBe(6);
    // The record keeps the skipped resources: a later publish of the fixed project sees no orphan and no drift.
    await writeIn(dir, 'defs/platform.ts', platform('10m'));
    expect((await compile(dir)).code).toBe(0);
    const third = await publishWith({ emulator: em, args: [join(dir, 'out'), '--fail-on-drift', '--prune'] });
    expect(third.code).toBe(0);
    expect(em.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  it('a file that fails before making any document: its outputs of the last compile are skipped, never pruned', async () => {
    const em = await session.emulate();
    const dir = await project('10m');
    expect((await compile(dir)).code).toBe(0);
    expect((await publishWith({ emulator: em, args: [join(dir, 'out')] })).code).toBe(0);
    await writeIn(dir, 'defs/other.ts', `throw new Error('half-written');\n${OTHER}`);
    const kept = await compile(dir, '--keep-going');
    expect(kept.code).toBe(1);
    expect(kept.stdout).toMatch(
      /^ {2}skipped {2}pipelines\/default\/web\/ok\.yaml {2}\(defs\/other\.ts has errors\)$/m,
    );
    const pruned = await publishWith({ emulator: em, args: [join(dir, 'out'), '--prune'] });
    expect(pruned.code).toBe(0);
    expect(em.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });
});
