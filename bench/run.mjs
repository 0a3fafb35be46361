// `npm run bench`: generates synthetic monorepos and measures, in one run, compile against the floor,
// incremental compile, and CLI start-up against `node -e 0`. Every measurement is a whole child process
// timed from spawn to exit, so compile and floor pay the same Node start-up.
//
//   node bench/run.mjs [--n 100,1000,5000] [--imported 100,300,1000,5000] [--reps 5]
//     [--only compile,incremental,imported,watch,startup,typecheck,validate,import,publish,lsp,schema,pull] [--json FILE]
//   PIPEWRIGHT_BENCH_DIST=/other/checkout/dist measures the type-check against another build's types.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generate, pipelineSource } from './generate.mjs';
import { generateYaml } from './generate-yaml.mjs';
import { generateImported, importedSource } from './generate-imported.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'pipewright.js');
const HOOK = join(ROOT, 'bench', 'rss-hook.mjs');

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '100,1000,5000' },
    imported: { type: 'string', default: '100,300,1000,5000' },
    reps: { type: 'string', default: '5' },
    only: {
      type: 'string',
      default: 'compile,incremental,imported,watch,startup,typecheck,validate,import,publish,lsp,schema,pull',
    },
    json: { type: 'string' },
    work: { type: 'string', default: join(tmpdir(), 'pipewright-bench') },
  },
});
const sizes = values.n.split(',').map(Number);
const reps = Number(values.reps);
const only = new Set(values.only.split(','));
const work = values.work;

/** Runs node with args; resolves wall milliseconds and peak RSS bytes of the Node process. */
async function timed(args, { cwd = ROOT, rss = false } = {}) {
  const rssFile = join(work, `rss-${process.pid}.txt`);
  await rm(rssFile, { force: true });
  const env = { ...process.env };
  if (rss) {
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --import=${HOOK}`.trim();
    env.PIPEWRIGHT_BENCH_RSS = rssFile;
  }
  const start = performance.now();
  const { code, stderr } = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, stderr: err }));
  });
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code}\n${stderr}`);
  const peak = rss ? Math.max(...(await readFile(rssFile, 'utf8')).trim().split('\n').map(Number)) : undefined;
  return { ms, rss: peak };
}

const stats = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: xs.length };
};

const rows = [];
const record = (name, samples, extra = {}) => {
  const row = { name, ...stats(samples.map((s) => s.ms)), ...extra };
  const rssValues = samples.map((s) => s.rss).filter((r) => r !== undefined);
  if (rssValues.length) row.rssMax = Math.max(...rssValues);
  rows.push(row);
  console.error(`  ${name}: median ${row.median.toFixed(0)} ms`);
  return row;
};

async function repeat(count, run, before) {
  const samples = [];
  for (let i = 0; i < count; i++) {
    if (before) await before(i);
    samples.push(await run(i));
  }
  return samples;
}

const ratios = [];
await mkdir(work, { recursive: true });
const compileMedian = {};

for (const n of sizes) {
  if (!only.has('compile') && !(only.has('incremental') && n === 1000)) continue;
  const repo = join(work, `n${n}`);
  console.error(`N=${n}: generating ${repo}`);
  const entries = await generate(repo, n);
  const rel = ['project.ts', 'pipelines/*.ts'];
  const out = join(repo, 'out');
  const compileArgs = [BIN, 'compile', ...rel, '-o', 'out'];
  // The first run warms the file system cache for every later run alike; it is not recorded.
  await rm(out, { recursive: true, force: true });
  await timed(compileArgs, { cwd: repo });
  const runs = n >= 5000 ? Math.max(2, Math.ceil(reps / 2)) : reps;
  if (only.has('compile')) {
    const compiled = record(
      `compile N=${n}`,
      await repeat(
        runs,
        () => timed(compileArgs, { cwd: repo, rss: true }),
        () => rm(out, { recursive: true, force: true }),
      ),
    );
    compileMedian[n] = compiled.median;
    const documents = join(repo, 'documents.json');
    await timed([join(ROOT, 'bench', 'dump-documents.mjs'), documents, ...entries]);
    const floorOut = join(repo, 'floor-out');
    const floor = record(
      `floor N=${n} (yaml stringify + write)`,
      await repeat(
        runs,
        () => timed([join(ROOT, 'bench', 'floor.mjs'), documents, floorOut]),
        () => rm(floorOut, { recursive: true, force: true }),
      ),
    );
    ratios.push([`compile/floor N=${n}`, compiled.median / floor.median, n === 1000 ? '<= 1.0' : '']);
  }
  if (only.has('incremental') && n === 1000) {
    // Start from an up-to-date output, change one definition file, compile again; then put it back.
    const file = join(repo, 'pipelines', 'p00007.ts');
    const original = pipelineSource(7);
    await rm(out, { recursive: true, force: true });
    await timed(compileArgs, { cwd: repo });
    const noChange = record(
      `recompile N=${n}, nothing changed`,
      await repeat(reps, () => timed(compileArgs, { cwd: repo })),
    );
    const oneChange = record(
      `recompile N=${n}, one file changed`,
      await repeat(
        reps,
        () => timed(compileArgs, { cwd: repo }),
        (i) => writeFile(file, original.replace('delivery', `delivery ${i + 1}`)),
      ),
    );
    await writeFile(file, original);
    if (compileMedian[n]) {
      ratios.push([`recompile one changed/full N=${n}`, oneChange.median / compileMedian[n], '<= 0.25']);
      ratios.push([`recompile nothing changed/full N=${n}`, noChange.median / compileMedian[n], '']);
    }
  }
}
if (compileMedian[5000] && compileMedian[1000])
  ratios.push(['compile N=5000 / N=1000', compileMedian[5000] / compileMedian[1000], '<= 5.5']);

if (only.has('imported') || only.has('watch')) await importedWorkload();

/**
 * Issue 15's workload: repositories shaped like `pipewright import --mode project` output (bench/generate-imported.mjs:
 * self-contained files, no shared library), compile against the floor at each size, and at N = 1000 the time from
 * saving one file in `compile --watch` to its output being written.
 */
async function importedWorkload() {
  const importedSizes = values.imported.split(',').map(Number);
  for (const n of importedSizes) {
    if (!only.has('imported') && !(only.has('watch') && n === 1000)) continue;
    const repo = join(work, `imported-${n}`);
    console.error(`imported, N=${n}: generating ${repo}`);
    const entries = await generateImported(repo, n);
    const out = join(repo, 'out');
    const compileArgs = [BIN, 'compile', 'pipelines/**/*.ts', '-o', 'out'];
    await rm(out, { recursive: true, force: true });
    await timed(compileArgs, { cwd: repo });
    if (only.has('imported')) {
      const runs = n >= 5000 ? Math.max(2, Math.ceil(reps / 2)) : reps;
      const documents = join(repo, 'documents.json');
      await timed([join(ROOT, 'bench', 'dump-documents.mjs'), documents, ...entries]);
      const floorOut = join(repo, 'floor-out');
      // Interleaved, so that both see the same load on a shared machine.
      const compileRuns = [];
      const floorRuns = [];
      for (let i = 0; i < runs; i++) {
        await rm(out, { recursive: true, force: true });
        compileRuns.push(await timed(compileArgs, { cwd: repo, rss: true }));
        await rm(floorOut, { recursive: true, force: true });
        floorRuns.push(await timed([join(ROOT, 'bench', 'floor.mjs'), documents, floorOut]));
      }
      const compiled = record(`imported compile N=${n}`, compileRuns);
      const floor = record(`imported floor N=${n} (yaml stringify + write)`, floorRuns);
      ratios.push([`imported compile/floor N=${n}`, compiled.median / floor.median, n >= 1000 ? '<= 0.6' : '<= 1.0']);
    }
    if (only.has('watch') && n === 1000) await watchLatency(repo);
  }
}

/** `compile --watch` at N = 1000: one file saved, measured from its mtime to its output's mtime. */
async function watchLatency(repo) {
  const index = 7;
  const file = join(repo, 'pipelines', 'default', 'platform', `svc_${String(index).padStart(5, '0')}.ts`);
  const output = join(repo, 'out', 'pipelines', 'default', 'platform', `svc_${String(index).padStart(5, '0')}.yaml`);
  const child = spawn(process.execPath, [BIN, 'compile', 'pipelines/**/*.ts', '-o', 'out', '--watch'], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (said += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (said += chunk));
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const mtime = (path) => {
    try {
      return statSync(path).mtimeMs;
    } catch {
      return undefined;
    }
  };
  const compiles = () => (said.match(/watching \d+ files? for changes/g) ?? []).length;
  const until = async (done, what) => {
    for (const start = Date.now(); !done(); await sleep(2))
      if (Date.now() - start > 120_000) throw new Error(`watch: no ${what} after 120 s\n${said}`);
  };
  try {
    await until(() => compiles() >= 1, 'first compile');
    const samples = [];
    // The first change is not recorded: it warms what the first compile of a process did not touch.
    for (let i = 0; i <= reps; i++) {
      const before = mtime(output);
      const seen = compiles();
      await writeFile(file, importedSource(index).replace("delivery',", `delivery ${i + 1}',`));
      const saved = mtime(file);
      await until(() => (mtime(output) ?? before) !== before, 'output written');
      const written = mtime(output);
      await until(() => compiles() > seen, 'end of the compile');
      if (!said.includes('compiled 1000 documents')) throw new Error(`watch: unexpected output\n${said}`);
      if (i > 0) samples.push({ ms: written - saved });
    }
    const row = record('watch N=1000 imported, one file saved -> its output written (mtimes)', samples);
    ratios.push(['watch save -> output N=1000 (ms, median)', row.median, '<= 150']);
  } finally {
    child.kill('SIGINT');
    await writeFile(file, importedSource(index));
  }
}

if (only.has('validate')) await validateWorkload();

/**
 * `pipewright validate` of the 1000 YAML files compile wrote for the synthetic monorepo, against the compile of
 * the same 1000 pipelines: reading YAML back must not cost more than building it from TypeScript.
 */
async function validateWorkload() {
  const repo = join(work, 'validate-1000');
  console.error(`validate, N=1000: generating ${repo}`);
  await generate(repo, 1000);
  const compileArgs = [BIN, 'compile', 'project.ts', 'pipelines/*.ts', '-o', 'out'];
  const out = join(repo, 'out');
  await rm(out, { recursive: true, force: true });
  await timed(compileArgs, { cwd: repo });
  const yamlFiles = (await readdir(out, { recursive: true }))
    .filter((f) => f.endsWith('.yaml') && f.includes('pipeline'))
    .sort();
  if (yamlFiles.length < 1000) throw new Error(`compile wrote ${yamlFiles.length} pipeline YAML files, expected 1000`);
  const validateArgs = [BIN, 'validate', ...yamlFiles.map((f) => join('out', f))];
  await timed(validateArgs, { cwd: repo });
  // Interleaved, so that both see the same load on a shared machine. Validate reads the files the compile before
  // it wrote, which are then in the page cache, as they would be after a compile in CI.
  const compileRuns = [];
  const validateRuns = [];
  for (let i = 0; i < reps; i++) {
    await rm(out, { recursive: true, force: true });
    compileRuns.push(await timed(compileArgs, { cwd: repo, rss: true }));
    validateRuns.push(await timed(validateArgs, { cwd: repo, rss: true }));
  }
  const compiled = record('compile N=1000 (for validate)', compileRuns);
  const validated = record(`validate ${yamlFiles.length} YAML files`, validateRuns);
  ratios.push(['validate 1000 files / compile N=1000', validated.median / compiled.median, '<= 1.0']);
}

if (only.has('typecheck')) {
  // What the catalogue's types cost a user's editor and CI: tsc --noEmit over the 1000-pipeline repo.
  console.error('type-check, N=1000');
  const dir = join(work, 'typecheck-1000');
  await generate(dir, 1000);
  const dist = process.env.PIPEWRIGHT_BENCH_DIST ?? join(ROOT, 'dist');
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      paths: { pipewright: [join(dist, 'index.d.ts')] },
    },
    include: ['**/*.ts'],
  };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  record(
    'tsc --noEmit (1000 pipeline files)',
    await repeat(Math.min(reps, 3), () => timed([tsc, '-p', dir], { cwd: dir, rss: true })),
  );
}

if (only.has('import')) {
  // Migration: 1000 pipeline documents shaped like real ones (bench/generate-yaml.mjs) into a ready project.
  console.error('import --mode project, 1000 documents');
  const yaml = await generateYaml(join(work, 'import-yaml-1000'), 1000);
  const out = join(work, 'import-out-1000');
  const args = [BIN, 'import', '--mode', 'project', yaml, '-o', out];
  record(
    'import --mode project (1000 pipeline documents)',
    await repeat(
      Math.min(reps, 3),
      () => timed(args, { rss: true }),
      () => rm(out, { recursive: true, force: true }),
    ),
  );
}

/**
 * A bench fixture in TypeScript (bench/NAME.ts, with the test suite's emulator), bundled with esbuild and imported.
 */
async function importFixture(name) {
  const { build } = await import('esbuild');
  const bundle = join(work, `${name}.mjs`);
  await mkdir(work, { recursive: true });
  await build({
    entryPoints: [join(ROOT, 'bench', `${name}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'silent',
    // Some dependencies are CommonJS and require() Node's built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return import(bundle);
}

if (only.has('publish')) await publishWorkload();

/**
 * Issue 29's workload: `pipewright publish` of 1000 unchanged documents of mixed kinds (projects, connectors,
 * services, environments, infrastructure definitions, pipelines, triggers) against the test suite's platform
 * emulator, at the default rate limit (1000 requests a minute): how many requests a run that writes nothing
 * makes, and how long it takes.
 */
async function publishWorkload() {
  const { startEmulator, writeEstate, ADMIN_KEY, ACCOUNT_ID } = await importFixture('publish-fixture');
  const out = join(work, 'publish-1000', 'out');
  await rm(join(work, 'publish-1000'), { recursive: true, force: true });
  const count = await writeEstate(out, 10);
  console.error(`publish, ${count} unchanged documents`);
  const emulator = await startEmulator();
  try {
    const env = {
      ...process.env,
      HARNESS_API_KEY: ADMIN_KEY,
      HARNESS_ACCOUNT_ID: ACCOUNT_ID,
      HARNESS_BASE_URL: emulator.url,
    };
    const run = async () => {
      const before = emulator.requests.length;
      const start = performance.now();
      await new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'publish', out], {
          cwd: ROOT,
          env,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let err = '';
        child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`publish exited ${code}\n${err}`))));
      });
      return { ms: performance.now() - start, requests: emulator.requests.length - before };
    };
    await run(); // creates everything
    const writes = emulator.totalWrites();
    const samples = await repeat(Math.min(reps, 3), run);
    if (emulator.totalWrites() !== writes) throw new Error('an unchanged publish wrote something');
    record(`publish ${count} unchanged documents`, samples, { requests: samples[0].requests });
    console.error(`  requests per unchanged run: ${samples.map((s) => s.requests).join(', ')}`);
  } finally {
    await emulator.stop();
  }
}

if (only.has('lsp')) await lspWorkload();
if (only.has('lsp')) await lspLoadWorkload();

/**
 * Issue 32's workload: `pipewright lsp` with a 648-line pipeline open (test/fixtures/editor/pipeline_600.yaml),
 * from an edit (a whole-document change, as a client without incremental sync sends it) to the diagnostics it
 * publishes. Edits alternate a misspelt key and its fix, so every other one has a diagnostic to locate. The first
 * diagnostics after opening (module loading, the schemas' first use) are recorded apart.
 */
async function lspWorkload() {
  console.error('lsp: edit -> diagnostics, 648-line pipeline');
  const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = await import('vscode-jsonrpc/node');
  const text = await readFile(join(ROOT, 'test', 'fixtures', 'editor', 'pipeline_600.yaml'), 'utf8');
  const child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd: work, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const uri = `file://${join(work, 'pipeline_600.yaml')}`;
  let waiting;
  connection.onNotification('textDocument/publishDiagnostics', (params) => params.uri === uri && waiting?.(params));
  connection.listen();
  const diagnosed = () => new Promise((resolve) => (waiting = resolve));
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: `file://${work}`, capabilities: {} });
  await connection.sendNotification('initialized', {});
  let start = performance.now();
  let next = diagnosed();
  await connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'yaml', version: 1, text },
  });
  await next;
  record('lsp first diagnostics after open (648 lines)', [{ ms: performance.now() - start }]);
  const edits = Math.max(reps * 8, 40);
  const samples = [];
  for (let i = 0; i < edits; i++) {
    const edited =
      i % 2 === 0 ? text.replace('timeout: 10m', 'timout: 10m') : text.replace('timeout: 10m', `timeout: ${10 + i}m`);
    start = performance.now();
    next = diagnosed();
    await connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: i + 2 },
      contentChanges: [{ text: edited }],
    });
    const { diagnostics } = await next;
    samples.push({ ms: performance.now() - start });
    if (process.env.PIPEWRIGHT_BENCH_VERBOSE) console.error(`  edit ${i + 1}: ${samples.at(-1).ms.toFixed(0)} ms`);
    if (i % 2 === 0 && !diagnostics.some((d) => d.code === 'unknown-key'))
      throw new Error('lsp bench: the misspelt key was not reported');
  }
  // The first edit is the first document with a diagnostic: zod's error path and the locator run for the first
  // time; the target (issue 32) is every edit after it.
  record('lsp first edit -> diagnostics (648 lines)', samples.slice(0, 1));
  const edit = record(`lsp edit -> diagnostics (648 lines, ${edits - 1} edits after the first)`, samples.slice(1));
  ratios.push(['lsp edit -> diagnostics after the first, max (ms)', edit.max, '< 200']);
  ratios.push(['lsp edit -> diagnostics after the first, median (ms)', edit.median, '']);
  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  connection.dispose();
}

/** A pipeline of `stages` Custom stages, each with 3 shell steps: about 1.1 KB a stage. */
function bigPipeline(stages) {
  const step = (id) => `              - step:
                  type: ShellScript
                  name: ${id}
                  identifier: ${id}
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: echo ${id}
                  timeout: 10m
`;
  const stage = (n) => `    - stage:
        name: s${n}
        identifier: s${n}
        type: Custom
        spec:
          execution:
            steps:
${[1, 2, 3].map((k) => step(`s${n}_${k}`)).join('')}`;
  return `pipeline:
  name: big
  identifier: big
  projectIdentifier: web
  orgIdentifier: default
  stages:
${Array.from({ length: stages }, (_, n) => stage(n)).join('')}`;
}

/**
 * Issue 38's workload: a burst of 500 edits to a 100 KB pipeline, sent as fast as the pipe takes them (each
 * rewrites one value, `timeout: <i>x`, an error naming the edit), timed from the first edit to the diagnostics
 * of the last version; then hovers and completions on pathological lines of 100,000 characters.
 */
async function lspLoadWorkload() {
  console.error('lsp: 500 edits to a 100 KB pipeline, hovers on long lines');
  const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = await import('vscode-jsonrpc/node');
  let text = bigPipeline(90);
  const child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd: work, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const uri = `file://${join(work, 'big.yaml')}`;
  const published = [];
  let waiting;
  connection.onNotification('textDocument/publishDiagnostics', (params) => {
    if (params.uri !== uri) return;
    published.push(params);
    waiting?.(params);
  });
  connection.listen();
  const until = (test) => new Promise((resolve) => (waiting = (params) => test(params) && resolve(params)));
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: `file://${work}`, capabilities: {} });
  await connection.sendNotification('initialized', {});
  let next = until(() => true);
  await connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'yaml', version: 1, text },
  });
  await next;
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.trim() === 'timeout: 10m');
  const edits = 500;
  const before = published.length;
  next = until((params) => params.diagnostics.some((d) => d.message.includes(`"${edits - 1}x"`)));
  const start = performance.now();
  for (let i = 0; i < edits; i++) {
    const old = i === 0 ? '10m' : `${i - 1}x`;
    void connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: i + 2 },
      contentChanges: [
        {
          range: { start: { line, character: 27 }, end: { line, character: 27 + old.length } },
          text: `${i}x`,
        },
      ],
    });
  }
  await next;
  const burst = performance.now() - start;
  record(`lsp 500 edits (${(text.length / 1024).toFixed(0)} KB pipeline) -> last version's diagnostics`, [
    { ms: burst },
  ]);
  ratios.push(['lsp 500-edit burst: checks published', published.length - before, 'far below 500']);
  ratios.push(['lsp 500-edit burst: to the last diagnostics (ms)', burst, '< 1000']);
  // Pathological lines, each the last line of a small pipeline opened as its own document: once its diagnostics
  // are in (the check is not timed here), a hover and a completion at the line's end.
  const n = 100_000;
  const cases = {
    blanks: ' '.repeat(n),
    '"a", blanks, x': `                  a${' '.repeat(n)}x`,
    'a x 100,000': 'a'.repeat(n),
    '- - - ...': '- '.repeat(n / 2),
    'key: long quoted string': `                  name: "${'a '.repeat(n / 2)}`,
    'key: value, blanks, x': `                  name: v${' '.repeat(n)}x`,
  };
  let index = 0;
  for (const [name, pathological] of Object.entries(cases)) {
    const small = `file://${join(work, `long-${index++}.yaml`)}`;
    const long = `${bigPipeline(1)}${pathological}\n`;
    const checked = new Promise((resolve) =>
      connection.onNotification('textDocument/publishDiagnostics', (params) => params.uri === small && resolve()),
    );
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: small, languageId: 'yaml', version: 1, text: long },
    });
    await checked;
    const position = { line: long.split('\n').length - 2, character: pathological.length };
    const hoverStart = performance.now();
    await connection.sendRequest('textDocument/hover', { textDocument: { uri: small }, position });
    const hover = performance.now() - hoverStart;
    const completionStart = performance.now();
    await connection.sendRequest('textDocument/completion', { textDocument: { uri: small }, position });
    const completion = performance.now() - completionStart;
    record(`lsp hover, line of ${name} (100,000 characters)`, [{ ms: hover }]);
    record(`lsp completion, line of ${name} (100,000 characters)`, [{ ms: completion }]);
  }
  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  connection.dispose();
}

if (only.has('schema')) await schemaWorkload();

/**
 * Issue 32's schema figures: the size of what `pipewright schema` writes, and Red Hat's yaml-language-server (from
 * node_modules, over stdio) configured with the pipeline schema: its first diagnostics of the 327-line pipeline
 * (reading and compiling the schema included), then of the 648-line one with the schema loaded.
 */
async function schemaWorkload() {
  console.error('schema: sizes, and yaml-language-server with the pipeline schema');
  const out = join(work, 'schemas');
  await timed([BIN, 'schema', '-o', out]);
  for (const kind of ['pipeline', 'template', 'connector'])
    console.error(`  ${kind}.schema.json: ${statSync(join(out, `${kind}.schema.json`)).size} bytes`);
  const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = await import('vscode-jsonrpc/node');
  const settings = {
    yaml: {
      validate: true,
      yamlVersion: '1.1',
      schemas: { [`file://${join(out, 'pipeline.schema.json')}`]: ['*.yaml'] },
    },
  };
  const samples = { first: [], loaded: [] };
  for (let i = 0; i < Math.min(reps, 3); i++) {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server'), '--stdio'],
      { cwd: work, stdio: ['pipe', 'pipe', 'ignore'] },
    );
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const waiting = new Map();
    connection.onNotification('textDocument/publishDiagnostics', (params) => waiting.get(params.uri)?.(params));
    connection.onRequest('workspace/configuration', (params) =>
      params.items.map((item) => settings[item.section] ?? null),
    );
    connection.onRequest('client/registerCapability', () => null);
    connection.listen();
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: `file://${work}`,
      capabilities: { workspace: { configuration: true } },
    });
    await connection.sendNotification('initialized', {});
    await connection.sendNotification('workspace/didChangeConfiguration', { settings });
    const open = async (name, file) => {
      const uri = `file://${join(work, name)}`;
      const text = await readFile(join(ROOT, 'test', 'fixtures', 'editor', file), 'utf8');
      const start = performance.now();
      const { diagnostics } = await new Promise((resolve) => {
        waiting.set(uri, resolve);
        void connection.sendNotification('textDocument/didOpen', {
          textDocument: { uri, languageId: 'yaml', version: 1, text },
        });
      });
      if (diagnostics.length)
        throw new Error(`yaml-language-server reported ${diagnostics.length} problems in ${file}, which is valid`);
      return { ms: performance.now() - start };
    };
    samples.first.push(await open(`a${i}.yaml`, 'pipeline_300.yaml'));
    samples.loaded.push(await open(`b${i}.yaml`, 'pipeline_600.yaml'));
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    connection.dispose();
  }
  const first = record('yaml-language-server first diagnostics, pipeline schema (327 lines)', samples.first);
  record('yaml-language-server diagnostics, schema loaded (648 lines)', samples.loaded);
  ratios.push(['pipeline.schema.json (MB)', statSync(join(out, 'pipeline.schema.json')).size / 1e6, '< 2.0']);
  ratios.push(['yaml-language-server first diagnostics (ms)', first.median, '< 10000']);
}

if (only.has('pull')) await pullWorkload();

/**
 * Issue 30's workload: `pipewright pull` of an account of 1000 pipelines (10 projects of 100), each with an input
 * set and a trigger, from the test suite's platform emulator at the default rate limit (1000 requests a minute):
 * the requests a whole-account pull makes, and how long it takes (the reads, then import's project mode writing
 * 3010 modules). Then a second pull into the same project, which rewrites nothing, and one more into a new folder
 * without the rate limit, which shows what pull itself costs.
 */
async function pullWorkload() {
  const { startEmulator, seedEstate, ADMIN_KEY, ACCOUNT_ID } = await importFixture('pull-fixture');
  const dir = join(work, 'pull-1000');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const emulator = await startEmulator();
  const count = seedEstate(emulator, 10, 100);
  console.error(`pull, ${count} documents (1000 pipelines, an input set and a trigger each)`);
  try {
    const env = {
      ...process.env,
      HARNESS_API_KEY: ADMIN_KEY,
      HARNESS_ACCOUNT_ID: ACCOUNT_ID,
      HARNESS_BASE_URL: emulator.url,
    };
    const run = async (extra = [], into = 'platform') => {
      const before = emulator.requests.length;
      const start = performance.now();
      await new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'pull', '-o', into, ...extra], {
          cwd: dir,
          env,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let err = '';
        child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`pull exited ${code}\n${err}`))));
      });
      return { ms: performance.now() - start, requests: emulator.requests.length - before };
    };
    const first = await run();
    record(`pull 1000 pipelines with input sets and triggers (${count} documents)`, [first], {
      requests: first.requests,
    });
    if (emulator.totalWrites() !== 0) throw new Error('pull wrote to the platform');
    const again = await run();
    record('pull again into the same project (nothing changed)', [again], { requests: again.requests });
    // The same reads without the platform's limit (the emulator has none): what pull itself costs.
    const unlimited = await run(['--rate', '100000'], 'unlimited');
    record('pull 1000 pipelines at --rate 100000 (the emulator only)', [unlimited], { requests: unlimited.requests });
    console.error(
      `  requests: ${first.requests} (first pull), ${again.requests} (again), ${unlimited.requests} (unlimited rate)`,
    );
  } finally {
    await emulator.stop();
  }
}

if (only.has('startup')) {
  console.error('start-up');
  const small = join(work, 'small');
  await generate(small, 1);
  const runs = Math.max(reps * 2, 10);
  const node = record('node -e 0', await repeat(runs, () => timed(['-e', '0'])));
  const version = record('pipewright --version', await repeat(runs, () => timed([BIN, '--version'])));
  const one = record(
    'pipewright compile (1 pipeline)',
    await repeat(runs, () => timed([BIN, 'compile', 'project.ts', 'pipelines/*.ts', '-o', 'out'], { cwd: small })),
  );
  ratios.push(['--version / node -e 0', version.median / node.median, '<= 1.5']);
  ratios.push(['compile 1 pipeline / node -e 0', one.median / node.median, '']);
}

const mb = (bytes) => (bytes === undefined ? '' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);
const ms = (x) => `${x.toFixed(0)}`;
const lines = [
  '| measurement | median ms | min ms | max ms | runs | peak RSS |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name}${r.requests !== undefined ? ` (${r.requests} requests)` : ''} | ${ms(r.median)} | ${ms(r.min)} | ${ms(r.max)} | ${r.runs} | ${mb(r.rssMax)} |`,
  ),
  '',
  '| ratio (medians) | value | target |',
  '|---|---:|---|',
  ...ratios.map(([name, value, target]) => `| ${name} | ${value.toFixed(name.includes('(ms') ? 0 : 2)} | ${target} |`),
];
console.log(lines.join('\n'));
if (values.json) await writeFile(values.json, JSON.stringify({ rows, ratios, at: new Date().toISOString() }, null, 2));
