import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './support/cli.js';
import { ADMIN_KEY, ROTATED_KEY, startEmulator, type Emulator } from './support/emulator.js';
import { ALL_FAULTS } from './support/emulator-faults.js';
import { bodyOf, generateDocuments, kindOf, writeOutputFolder, type Doc } from './support/emulator-output.js';
import { publishWith } from './support/emulator-run.js';

/**
 * Publishing through a hostile network: rate limits, 5xx, resets, hangs, writes whose answer is lost.
 * Whatever happens, every document must end on the platform exactly once and as compiled, or be reported.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const done of cleanups.splice(0)) await done();
});

async function setUp(
  docs: readonly Doc[],
  options: Parameters<typeof startEmulator>[0],
): Promise<{ emulator: Emulator; dir: string }> {
  const { dir, cleanup } = await tempDir('pipewright-chaos-');
  const emulator = await startEmulator(options);
  cleanups.push(cleanup, () => emulator.stop());
  await writeOutputFolder(dir, docs);
  return { emulator, dir };
}

const scopeOf = (doc: Doc) => {
  const body = bodyOf(doc);
  const kind = kindOf(doc);
  return [kind, body.orgIdentifier, kind === 'project' ? undefined : body.projectIdentifier, body.identifier!] as const;
};

/** Every document is stored exactly as compiled, was created exactly once, and the API was used correctly. */
function expectAllPresentOnce(emulator: Emulator, docs: readonly Doc[]): void {
  for (const doc of docs) {
    const scope = scopeOf(doc);
    expect(emulator.resource(...scope)?.body, scope.join(' ')).toEqual(bodyOf(doc));
    expect(emulator.writes(...scope).creates, scope.join(' ')).toBe(1);
  }
  expect(emulator.store.resources.size).toBe(docs.length);
  expect(emulator.violations).toEqual([]);
}

describe('publish under rate limits and faults', () => {
  it('finishes a rate-limited run with every document present (429s retried with backoff)', async () => {
    const docs = generateDocuments(2, 2, 4);
    const { emulator, dir } = await setUp(docs, { rateLimit: { limit: 4, windowMs: 300 } });
    // Backoff must be able to outlast the server's window: 50 ms doubling spans it within a few attempts.
    const result = await publishWith({
      emulator,
      args: [dir, '--json'],
      env: { PIPEWRIGHT_RETRY_BASE_MS: '50', PIPEWRIGHT_RETRY_ATTEMPTS: '10' },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(emulator.rateLimited).toBeGreaterThan(0);
    expectAllPresentOnce(emulator, docs);
  });

  it('honours Retry-After on 429', async () => {
    const docs = generateDocuments(1, 1, 2);
    const { emulator, dir } = await setUp(docs, { rateLimit: { limit: 3, windowMs: 1000, retryAfterSeconds: 1 } });
    const result = await publishWith({ emulator, args: [dir, '--debug'] });
    expect(result.code).toBe(0);
    expect(emulator.rateLimited).toBeGreaterThan(0);
    // Each wait logged after a 429 is at least the second the server asked for (a floor, not a timing check).
    const waits = [...result.stderr.matchAll(/HTTP 429[^\n]*attempt \d+ in (\d+) ms/g)].map((m) => Number(m[1]));
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(1000);
    expectAllPresentOnce(emulator, docs);
  });

  it('survives 20% injected faults of every kind: each document present exactly once, exit 0', async () => {
    const docs = generateDocuments(3, 2, 5);
    const { emulator, dir } = await setUp(docs, { faults: { rate: 0.2, kinds: ALL_FAULTS, seed: 7, delayMs: 50 } });
    const result = await publishWith({
      emulator,
      args: [dir],
      env: { PIPEWRIGHT_TIMEOUT_MS: '400', PIPEWRIGHT_RETRY_ATTEMPTS: '8' },
    });
    expect(result.stdout).toMatch(
      new RegExp(`^total\\s+${docs.length}\\s+0\\s+0\\s+0$|^total\\s+\\d+\\s+\\d+\\s+0\\s+0$`, 'm'),
    );
    expect(result.code).toBe(0);
    expect([...emulator.faultsInjected.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expectAllPresentOnce(emulator, docs);
  });

  it('turns a create whose response was lost into an update (the write is not made twice)', async () => {
    const docs = generateDocuments(1, 0, 3);
    // Every first write to a pipeline is applied and then its connection dropped.
    const seen = new Set<string>();
    const { emulator, dir } = await setUp(docs, {
      faults: {
        rate: 1,
        kinds: ['drop-after-write'],
        match: ({ method, path, body }) => {
          const id = /^  identifier: (\w+)$/m.exec(body)?.[1];
          return (
            method === 'POST' &&
            path.startsWith('/gateway/pipeline/') &&
            id !== undefined &&
            !seen.has(id) &&
            Boolean(seen.add(id))
          );
        },
      },
    });
    const result = await publishWith({ emulator, args: [dir, '--json'] });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { documents: { kind: string; outcome: string }[] };
    expect(report.documents.filter((d) => d.kind === 'pipeline').map((d) => d.outcome)).toEqual([
      'updated',
      'updated',
      'updated',
    ]);
    for (const doc of docs.filter((d) => kindOf(d) === 'pipeline'))
      expect(emulator.writes(...scopeOf(doc))).toEqual({ creates: 1, updates: 1 });
    expectAllPresentOnce(emulator, docs);
  });

  it('exits 1 when faults never stop, reporting every failed document with its correlationId', async () => {
    const docs = generateDocuments(2, 1, 3);
    const pipelines = docs.filter((d) => kindOf(d) === 'pipeline');
    const { emulator, dir } = await setUp(docs, {
      faults: { rate: 1, kinds: ['error-500-json'], match: ({ path }) => path.startsWith('/gateway/pipeline/') },
    });
    const env = { PIPEWRIGHT_RETRY_ATTEMPTS: '3' };
    const text = await publishWith({ emulator, args: [dir], env });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^pipelines\s+0\s+0\s+0\s+6$/m);
    expect(text.stdout).toContain('6 failed:');
    for (const doc of pipelines) {
      const name = `pipeline default/${bodyOf(doc).projectIdentifier}/${bodyOf(doc).identifier}`;
      expect(text.stdout).toMatch(
        new RegExp(
          `^  ${name} \\(.*\\): HTTP 500 internal server error UNEXPECTED: .* \\((GET|POST) /gateway/pipeline/api/pipelines[^,]*, after 3 attempts\\) \\(correlationId [0-9a-f-]{36}\\)$`,
          'm',
        ),
      );
    }
    const json = JSON.parse((await publishWith({ emulator, args: [dir, '--json'], env })).stdout) as {
      ok: boolean;
      documents: {
        kind: string;
        outcome: string;
        error?: { status: number; correlationId: string; attempts: number };
      }[];
    };
    expect(json.ok).toBe(false);
    const failed = json.documents.filter((d) => d.outcome === 'failed');
    expect(failed).toHaveLength(pipelines.length);
    for (const d of failed)
      expect(d.error).toMatchObject({
        status: 500,
        attempts: 3,
        correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    // The rest of the run went through: projects and connectors are there.
    for (const doc of docs.filter((d) => kindOf(d) !== 'pipeline'))
      expect(emulator.resource(...scopeOf(doc))).toBeDefined();
    expect(emulator.violations).toEqual([]);
  });

  it('publishes 200 documents under 20% faults: all 200 present, correct, created once', async () => {
    const docs = generateDocuments(10, 4, 15);
    expect(docs).toHaveLength(200);
    const { emulator, dir } = await setUp(docs, { faults: { rate: 0.2, kinds: ALL_FAULTS, seed: 2024, delayMs: 50 } });
    const started = Date.now();
    const result = await publishWith({
      emulator,
      args: [dir, '--concurrency', '8'],
      env: { PIPEWRIGHT_TIMEOUT_MS: '400', PIPEWRIGHT_RETRY_ATTEMPTS: '8' },
    });
    const seconds = (Date.now() - started) / 1000;
    expect(result.code, result.stdout.slice(-3000)).toBe(0);
    expectAllPresentOnce(emulator, docs);
    const injected = Object.fromEntries(emulator.faultsInjected);
    // Not an assertion on time: printed so a slow run is visible in the log.
    console.log(
      `200 documents, ${emulator.requests.length} requests, faults ${JSON.stringify(injected)}, ${seconds.toFixed(1)} s`,
    );
    expect(Object.values(injected).reduce((a, b) => a + b, 0)).toBeGreaterThan(40);
  });
});

describe('publish into Git under policies, conflicts and faults', () => {
  it('ends every document created, updated, unchanged or failed; whatever is reported stored is stored as compiled', async () => {
    const docs = generateDocuments(2, 2, 6);
    const pipelines = docs.filter((d) => kindOf(d) === 'pipeline');
    const denied = [
      bodyOf(pipelines[0]!).identifier!,
      bodyOf(docs.find((d) => kindOf(d) === 'connector')!).identifier!,
    ];
    const { emulator, dir } = await setUp(docs, {
      faults: { rate: 0.15, kinds: ALL_FAULTS, seed: 77, delayMs: 30 },
      deny: [
        { kind: 'pipeline', identifier: denied[0]!, policySet: 'Prod rules', message: 'needs an approval' },
        { kind: 'connector', identifier: denied[1]!, message: 'no public registries' },
      ],
    });
    const git = [
      '--store',
      'remote',
      '--git-connector',
      'github',
      '--repo',
      'delivery',
      '--branch',
      'main',
      '--json',
      '--concurrency',
      '4',
    ];
    const env = { PIPEWRIGHT_TIMEOUT_MS: '400', PIPEWRIGHT_RETRY_ATTEMPTS: '8' };
    const check = (stdout: string, published: readonly Doc[]) => {
      const report = JSON.parse(stdout) as JsonReport;
      expect(report.documents).toHaveLength(docs.length);
      for (const d of report.documents) {
        expect(['created', 'updated', 'unchanged', 'failed']).toContain(d.outcome);
        const stored = emulator.resource(...scopeOfReported(d));
        const local = published.find((doc) => kindOf(doc) === d.kind && bodyOf(doc).identifier === d.identifier)!;
        if (d.outcome !== 'failed')
          expect(stored?.body, `${d.kind} ${d.identifier} is reported ${d.outcome}`).toEqual(bodyOf(local));
      }
      return report;
    };
    const first = await publishWith({ emulator, args: [dir, ...git], env });
    const report = check(first.stdout, docs);
    expect(first.code).toBe(1);
    for (const id of denied)
      expect(report.documents.find((d) => d.identifier === id)).toMatchObject({
        outcome: 'failed',
        error: { message: expect.stringContaining('denied by policy') },
      });
    expect(emulator.store.resources.size).toBeLessThanOrEqual(docs.length - denied.length);
    // Second run: every stored pipeline was changed in Git by someone right after publish read it.
    const edited: string[] = [];
    for (const doc of pipelines.slice(1)) {
      const scope = scopeOf(doc) as unknown as ['pipeline', string, string, string];
      if (!emulator.resource(...scope)) continue;
      edited.push(scope[3]);
      emulator.afterNextRead(...scope, () => emulator.edit(...scope, (b) => (b.description = 'pushed by a colleague')));
    }
    const changed = docs.map((d) =>
      kindOf(d) === 'pipeline' ? { pipeline: { ...bodyOf(d), description: 'new text' } } : d,
    ) as Doc[];
    await writeOutputFolder(dir, changed);
    const second = await publishWith({ emulator, args: [dir, ...git], env });
    const again = check(second.stdout, changed);
    for (const id of edited) {
      const d = again.documents.find((r) => r.identifier === id)!;
      const stored = emulator.resource('pipeline', d.org!, d.project!, id)!;
      // Either the 409 stopped it and the colleague's edit stands, or a retried read saw the edit first and the source replaced it.
      if (d.outcome === 'failed') expect(stored.body.description).not.toBe('new text');
      else expect(stored.body.description).toBe('new text');
    }
    expect(again.documents.some((d) => d.error?.message.includes('nothing was overwritten'))).toBe(true);
    expect(emulator.violations).toEqual([]);
  });
});

interface ReportedDocument {
  file: string;
  kind: 'project' | 'connector' | 'pipeline';
  org: string | null;
  project: string | null;
  identifier: string;
  outcome: string;
  error?: { message: string; status?: number; code?: string; correlationId?: string; attempts?: number };
}
interface JsonReport {
  counts: Record<string, number>;
  stopped?: { kind: string; message: string; advice: string };
  documents: ReportedDocument[];
}

const scopeOfReported = (d: ReportedDocument) =>
  [d.kind, d.org ?? undefined, d.project ?? undefined, d.identifier] as const;
const manifestFiles = async (dir: string) =>
  (JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { files: { file: string }[] }).files.map(
    (f) => f.file,
  );
const SERVER_401 =
  'HTTP 401 unauthorized INVALID_CREDENTIAL: Invalid API key: the token is not valid, expired or rotated';

describe('publish while the API key is rotated mid-run', () => {
  // Every document is new, so each costs a GET and a POST: the key dies after about half of the run's requests,
  // in the middle of the pipelines. publishWith scans every run's stdout and stderr for the old and the new key.
  const docs = generateDocuments(1, 3, 20);
  const concurrency = 4;
  const rotatedRun = async (args: readonly string[]) => {
    const { emulator, dir } = await setUp(docs, {});
    emulator.rotateKey(ADMIN_KEY, ROTATED_KEY, { afterRequests: docs.length });
    return {
      emulator,
      dir,
      result: await publishWith({ emulator, args: [dir, '--concurrency', String(concurrency), ...args] }),
    };
  };

  it('reports every document, keeps those written before the 401 exactly once, and stops starting new ones', async () => {
    const { emulator, dir, result } = await rotatedRun(['--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.documents.map((d) => d.file)).toEqual(await manifestFiles(dir));
    expect(Object.values(report.counts).reduce((a, b) => a + b, 0)).toBe(docs.length);
    expect(report.stopped?.kind).toBe('unauthorized');
    // The advice is in the report too, for a CI job that reads only the JSON; it names the key's source.
    expect(report.stopped?.advice).toBe(
      'the platform rejected the API key from HARNESS_API_KEY (HTTP 401): check that it holds a current token (tokens expire; after a rotation only the new value works) and that it belongs to this account',
    );
    // The premise: the rotation landed halfway, with documents on both sides of it.
    expect(report.counts.created).toBeGreaterThan(0);
    expect(report.counts.failed).toBeGreaterThan(0);
    for (const d of report.documents) {
      const scope = scopeOfReported(d);
      expect(d.outcome, d.file).toMatch(/^(created|failed)$/);
      if (d.outcome === 'created') expect(emulator.writes(...scope), d.file).toEqual({ creates: 1, updates: 0 });
      else expect(emulator.resource(...scope), d.file).toBeUndefined();
    }
    expect(emulator.store.resources.size).toBe(report.counts.created);

    // A document that met the dead key fails at once with the server's answer; one 401 each, never retried.
    const refused = report.documents.filter((d) => d.error?.status === 401);
    expect(refused.length).toBe(emulator.requests.filter((r) => r.status === 401).length);
    for (const d of refused)
      expect(d.error).toMatchObject({
        code: 'INVALID_CREDENTIAL',
        attempts: 1,
        message: expect.stringContaining(SERVER_401),
        correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    // Only documents already in flight can meet it: the rest are not attempted, and no request names them.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(concurrency);
    const skipped = report.documents.filter((d) => d.outcome === 'failed' && d.error?.status === undefined);
    expect(skipped.length).toBeGreaterThan(0);
    for (const d of skipped) {
      expect(d.error?.message).toBe(`not attempted: the run stopped after ${SERVER_401}`);
      expect(emulator.requests.filter((r) => r.path.includes(`/${d.identifier}?`))).toEqual([]);
    }
    expect(result.stderr).toContain(
      'publish stopped early: the platform rejected the API key from HARNESS_API_KEY (HTTP 401)',
    );
    expect(emulator.violations).toEqual([]);
  });

  it('completes the rest with the new key: what failed is created, what was written is unchanged, nothing twice', async () => {
    const { emulator, dir, result } = await rotatedRun(['--json']);
    const first = JSON.parse(result.stdout) as JsonReport;
    const again = await publishWith({ emulator, args: [dir, '--json'], key: ROTATED_KEY });
    expect(again.code, again.stdout).toBe(0);
    const second = JSON.parse(again.stdout) as JsonReport;
    expect(second.documents.map((d) => [d.file, d.outcome])).toEqual(
      first.documents.map((d) => [d.file, d.outcome === 'created' ? 'unchanged' : 'created']),
    );
    expectAllPresentOnce(emulator, docs);
    expect(emulator.totalWrites()).toBe(docs.length);
  });

  it('tells a person at the terminal what failed and what to do, without printing a key even with --debug', async () => {
    const { dir, result } = await rotatedRun(['--debug']);
    expect(result.code).toBe(1);
    const total = /^total\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/m.exec(result.stdout);
    expect(total, result.stdout).not.toBeNull();
    const [created, updated, unchanged, failed] = total!.slice(1).map(Number) as [number, number, number, number];
    expect(created + updated + unchanged + failed).toBe((await manifestFiles(dir)).length);
    expect(result.stdout).toContain(`\n${failed} failed:\n`);
    expect(result.stdout).toMatch(
      new RegExp(
        `^  \\w+ \\S+ \\(\\S+\\): ${SERVER_401} \\((GET|POST) /gateway/[^)]+\\) \\(correlationId [0-9a-f-]{36}\\)$`,
        'm',
      ),
    );
    expect(result.stdout).toMatch(
      new RegExp(`^  \\w+ \\S+ \\(\\S+\\): not attempted: the run stopped after ${SERVER_401}$`, 'm'),
    );
    expect(result.stderr).toMatch(
      /publish stopped early: .* \(HTTP 401\): check that it holds a current token \(tokens expire; after a rotation only the new value works\)/,
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
