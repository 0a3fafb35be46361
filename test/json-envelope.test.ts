import { writeFile } from 'node:fs/promises';
import { RESOURCE_KINDS } from '../src/catalog/kinds.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeIn, type CliResult } from './support/cli.js';
import { ACCOUNT_ID, ADMIN_KEY, startEmulator, type Emulator } from './support/emulator.js';
import { assertNoKey, FAST_RETRIES } from './support/emulator-run.js';

// Every command prints the same envelope with --json, on success and on failure alike (docs/cli.md#json-output).

interface Envelope {
  pipewright: number;
  command: string;
  ok: boolean;
  diagnostics: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

const DIAGNOSTIC_FIELDS = [
  'code',
  'severity',
  'message',
  'location',
  'file',
  'line',
  'column',
  'path',
  'subject',
  'hint',
  'suggestion',
  'count',
  'places',
];

/** stdout parsed as the envelope, with its shape checked: one JSON object and nothing else. */
function envelopeOf(result: CliResult, command: string): Envelope {
  const parsed = JSON.parse(result.stdout) as Envelope;
  expect(Object.keys(parsed).slice(0, 4)).toEqual(['pipewright', 'command', 'ok', 'diagnostics']);
  expect(parsed.pipewright).toBe(1);
  expect(parsed.command).toBe(command);
  expect(parsed.ok).toBe(result.code === 0);
  for (const diagnostic of parsed.diagnostics) {
    expect(Object.keys(diagnostic).filter((key) => !DIAGNOSTIC_FIELDS.includes(key))).toEqual([]);
    expect(diagnostic).toMatchObject({
      code: expect.stringMatching(/^[a-z]+(-[a-z0-9]+)*$/),
      severity: expect.stringMatching(/^(error|warning)$/),
      message: expect.any(String),
    });
    // The fields of envelope 1 before `location`, deprecated: the same place, as long as they are written.
    const location = diagnostic.location as Record<string, unknown> | undefined;
    expect([diagnostic.file, diagnostic.line, diagnostic.column]).toEqual([
      location?.file,
      location?.line,
      location?.column,
    ]);
  }
  return parsed;
}

const PIPELINE = `import { pipeline, project, shell, stage } from 'pipewright';
export const web = project({ identifier: 'web', org: 'default' });
export const deploy = pipeline({ identifier: 'deploy', name: 'deploy', project: web })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }).step(shell({ identifier: 'echo', script: 'echo hi' })));
`;

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-json-'));
  await writeIn(dir, 'defs/deploy.ts', PIPELINE);
});
afterAll(() => cleanup());

const run = (args: readonly string[], env: Record<string, string | undefined> = {}) => runCli(args, { cwd: dir, env });

describe('--json on every command', () => {
  it('compile: the result on success, the diagnostics on failure, and the usage error', async () => {
    const ok = await run(['compile', 'defs/deploy.ts', '-o', 'out', '--json']);
    expect(ok.code).toBe(0);
    expect(envelopeOf(ok, 'compile')).toMatchObject({
      ok: true,
      diagnostics: [],
      outDir: 'out',
      check: false,
      documents: 2,
    });

    await writeFile(
      join(dir, 'defs/broken.ts'),
      PIPELINE.replace("script: 'echo hi'", "script: 'echo hi', timeout: '10x'"),
    );
    const bad = await run(['compile', 'defs/broken.ts', '-o', 'out-bad', '--json']);
    expect(bad.code).toBe(1);
    expect(envelopeOf(bad, 'compile').diagnostics).toEqual([
      expect.objectContaining({
        code: 'invalid-format',
        severity: 'error',
        location: expect.objectContaining({ file: 'defs/broken.ts', line: 4 }),
        subject: 'pipeline "deploy" > stage "s" > step "echo"',
      }),
    ]);

    const missing = await run(['compile', 'nothing/*.ts', '--json']);
    expect(missing.code).toBe(1);
    expect(envelopeOf(missing, 'compile').diagnostics).toEqual([expect.objectContaining({ code: 'no-entries' })]);

    const usage = await run(['compile', '--json', '--watch']);
    expect(usage.code).toBe(2);
    expect(envelopeOf(usage, 'compile').diagnostics).toEqual([
      expect.objectContaining({ code: 'usage', message: '--watch cannot be combined with --json' }),
    ]);
  });

  it('validate: a missing file is a file-not-found envelope (exit 1), an unknown option a usage envelope (exit 2)', async () => {
    await writeIn(dir, 'good.yaml', 'project:\n  identifier: web\n  name: web\n  orgIdentifier: default\n');
    const ok = await run(['validate', 'good.yaml', '--json']);
    expect(ok.code).toBe(0);
    expect(envelopeOf(ok, 'validate')).toMatchObject({
      ok: true,
      diagnostics: [],
      files: [{ file: 'good.yaml', documents: 1 }],
    });

    const missing = await run(['validate', '--json', 'missing.yaml']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('');
    expect(envelopeOf(missing, 'validate').diagnostics).toEqual([
      {
        code: 'file-not-found',
        severity: 'error',
        message: 'cannot read missing.yaml: no such file',
        hint: expect.any(String),
      },
    ]);

    // A folder is that argument's diagnostic (the other files are checked), not the whole command's.
    const folder = await run(['validate', '--json', 'defs']);
    expect(folder.code).toBe(1);
    expect(envelopeOf(folder, 'validate').diagnostics).toEqual([
      expect.objectContaining({
        code: 'not-a-file',
        message: 'defs is a folder, not a file',
        hint: 'pass YAML files or a glob, e.g. "defs/**/*.yaml"',
      }),
    ]);

    const usage = await run(['validate', '--json', '--bogus', 'good.yaml']);
    expect(usage.code).toBe(2);
    expect(envelopeOf(usage, 'validate').diagnostics).toEqual([
      { code: 'usage', severity: 'error', message: "unknown option '--bogus'" },
    ]);
  });

  it('import: what was written, or why nothing was', async () => {
    await writeIn(dir, 'import/web.yaml', 'project:\n  identifier: web\n  name: web\n  orgIdentifier: default\n');
    const ok = await run(['import', 'import/web.yaml', '-o', 'imported', '--json']);
    expect(ok.code).toBe(0);
    expect(envelopeOf(ok, 'import')).toMatchObject({
      ok: true,
      outDir: 'imported',
      mode: 'files',
      documents: 1,
      written: [expect.stringMatching(/\.ts$/)],
    });

    const missing = await run(['import', 'import/nope.yaml', '--json']);
    expect(missing.code).toBe(1);
    expect(envelopeOf(missing, 'import').diagnostics).toEqual([expect.objectContaining({ code: 'file-not-found' })]);

    // A file where the output folder should go is the user's to move, not an unexpected error.
    await writeIn(dir, 'blocker', 'a file');
    const blocked = await run(['import', 'import/web.yaml', '-o', 'blocker', '--json']);
    expect(blocked.code).toBe(1);
    expect(envelopeOf(blocked, 'import').diagnostics).toEqual([
      expect.objectContaining({ code: 'cannot-write', message: 'cannot write blocker (EEXIST: a file is in the way)' }),
    ]);
    const text = await run(['import', 'import/web.yaml', '-o', 'blocker']);
    expect(text.stderr).toMatch(
      /^pipewright: cannot write blocker \(EEXIST: a file is in the way\) \[error cannot-write\]\n/,
    );
    expect(text.stderr).not.toContain('unexpected');

    const badMode = await run(['import', 'good.yaml', 'import/web.yaml', '--mode', 'tree', '--json']);
    expect(badMode.code).toBe(2);
    expect(envelopeOf(badMode, 'import').diagnostics).toEqual([
      expect.objectContaining({ code: 'usage', message: '--mode must be files or project, not "tree"' }),
    ]);
  });

  it('schema and init: the files written; init refusing a path that is a file', async () => {
    const schema = await run(['schema', '-o', 'schemas', '--json']);
    expect(schema.code).toBe(0);
    const schemas = envelopeOf(schema, 'schema');
    expect(schemas).toMatchObject({ ok: true, outDir: 'schemas' });
    expect([...(schemas.written as string[])].sort()).toEqual(
      RESOURCE_KINDS.map((kind) => `schemas/${kind}.schema.json`).sort(),
    );

    const init = await run(['init', 'fresh', '--json']);
    expect(init.code).toBe(0);
    const scaffold = envelopeOf(init, 'init');
    expect(scaffold).toMatchObject({ ok: true, dir: 'fresh', packageName: 'fresh' });
    expect(scaffold.files).toContainEqual({ file: 'package.json', action: 'created' });

    await writeIn(dir, 'taken', 'a file');
    const refused = await run(['init', 'taken', '--json']);
    expect(refused.code).toBe(1);
    expect(envelopeOf(refused, 'init').diagnostics).toEqual([
      expect.objectContaining({ code: 'not-a-folder', message: 'taken exists and is not a folder' }),
    ]);

    await writeIn(dir, 'notes.txt', 'a file where the folder would go');
    const blocked = await run(['schema', '-o', 'notes.txt', '--json']);
    expect(blocked.code).toBe(1);
    expect(envelopeOf(blocked, 'schema').diagnostics).toEqual([
      expect.objectContaining({
        code: 'cannot-write',
        message: 'cannot write notes.txt (EEXIST: a file is in the way)',
      }),
    ]);

    const usage = await run(['schema', '--json', '--out']);
    expect(usage.code).toBe(2);
    expect(envelopeOf(usage, 'schema').diagnostics).toEqual([expect.objectContaining({ code: 'usage' })]);
  });
});

describe('--json against the platform emulator', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    expect(emulator.violations).toEqual([]);
    await emulator.stop();
  });
  const platform = () => ({
    HARNESS_API_KEY: ADMIN_KEY,
    HARNESS_ACCOUNT_ID: ACCOUNT_ID,
    HARNESS_BASE_URL: emulator.url,
    ...FAST_RETRIES,
  });

  it('publish: the report inside the envelope, and a missing setting as a diagnostic, never the key', async () => {
    const compiled = await run(['compile', 'defs/deploy.ts', '-o', 'out-publish']);
    expect(compiled.code).toBe(0);
    const ok = await run(['publish', 'out-publish', '--json'], platform());
    assertNoKey(ok);
    expect(ok.code).toBe(0);
    const report = envelopeOf(ok, 'publish');
    expect(report).toMatchObject({
      ok: true,
      dryRun: false,
      dir: 'out-publish',
      accountId: ACCOUNT_ID,
      counts: { created: 2, failed: 0 },
    });
    expect(report.documents).toHaveLength(2);

    const noKey = await run(['publish', 'out-publish', '--json'], { ...platform(), HARNESS_API_KEY: undefined });
    expect(noKey.code).toBe(1);
    expect(envelopeOf(noKey, 'publish').diagnostics).toEqual([
      expect.objectContaining({ code: 'missing-setting', message: 'no API key: HARNESS_API_KEY is not set' }),
    ]);

    const notCompiled = await run(['publish', 'defs', '--json'], platform());
    assertNoKey(notCompiled);
    expect(notCompiled.code).toBe(1);
    expect(envelopeOf(notCompiled, 'publish').diagnostics).toEqual([
      expect.objectContaining({ code: 'not-compiled-output' }),
    ]);
  });

  it('graphql: the result inside the envelope; errors in it, or an empty query, make it fail', async () => {
    const ok = await run(['graphql', '{ applications(limit: 2) { nodes { name } } }', '--json'], platform());
    assertNoKey(ok);
    expect(ok.code).toBe(0);
    expect(envelopeOf(ok, 'graphql')).toMatchObject({
      ok: true,
      result: { data: { applications: { nodes: [{ name: 'checkout' }, { name: 'payments' }] } } },
    });

    const errors = await run(['graphql', '{ pipelines { nodes { id } } }', '--json'], platform());
    expect(errors.code).toBe(1);
    const failed = envelopeOf(errors, 'graphql');
    expect(failed.diagnostics).toEqual([expect.objectContaining({ code: 'graphql-errors' })]);
    expect((failed.result as { errors: unknown[] }).errors.length).toBeGreaterThan(0);

    const empty = await run(['graphql', ' ', '--json'], platform());
    expect(empty.code).toBe(1);
    expect(envelopeOf(empty, 'graphql').diagnostics).toEqual([expect.objectContaining({ code: 'empty-query' })]);
  });
});
