// Measures what `import` makes of a corpus of real documents, in-process, from the built dist/:
//   - typed nodes per kind: builder calls that are typed (shell(), deployment(), ...), generic (stage({ type }),
//     step({ type }), connector({ type })) or raw (raw.*);
//   - comments kept: YAML comments whose text appears in the generated TypeScript;
//   - the TypeScript / YAML line ratio;
//   - fallback diagnostics (import-fallback) when import reports them.
//
//   npm run build && node bench/import-metrics.mjs [--corpus ../shared/corpus] [--json FILE] [--files N]
//
// `--files N` also lists the N modules with the highest TS/YAML line ratio (a folder imported as a whole has its
// modules matched to their YAML files by the source named in each module's header).
//
// Each corpus kind folder is imported in project mode as one import; a folder whose import fails as a whole is
// imported file by file, so one bad document does not hide the others.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Lexer } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: join(ROOT, '..', 'shared', 'corpus') },
    json: { type: 'string' },
    files: { type: 'string' },
  },
});
const { importYaml } = await import(join(ROOT, 'dist', 'import', 'import-yaml.js'));

/** Calls that build a node of the tree but say nothing of its type. */
const GENERIC = new Set(['stage', 'step', 'connector']);
/** Calls that are values inside a node, not nodes. */
const HELPERS = new Set([
  'input',
  'expr',
  'secret',
  'ref',
  'defineConfig',
  'templateInputs',
  'runtimeInput',
  'variable',
]);

const folders = (corpus) =>
  readdirSync(corpus, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      readdirSync(join(corpus, entry.name), { withFileTypes: true })
        .filter((kind) => kind.isDirectory())
        .map((kind) => ({ corpus: entry.name, kind: kind.name, dir: join(corpus, entry.name, kind.name) })),
    );

const yamlFiles = (dir) =>
  readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(dir, f));

/** Comment texts of a YAML text, from the lexer's tokens (what a person wrote after `#`). */
const commentsOf = (text) => {
  const found = [];
  for (const token of new Lexer().lex(text)) if (token.startsWith('#')) found.push(token.slice(1).trim());
  return found.filter((c) => c.length > 0);
};

/** Builder calls of a module, by class: a call of a name imported from pipewright, not after a dot. */
function calls(text) {
  const imported =
    /import\s*\{([^}]*)\}\s*from\s*'pipewright'/
      .exec(text)?.[1]
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const counts = { typed: 0, generic: 0, raw: 0 };
  const body = text.replace(/^import[^;]*;/m, '');
  for (const name of imported) {
    if (HELPERS.has(name)) continue;
    if (name === 'raw') {
      counts.raw += (body.match(/(?<![\w.$])raw\.\w+\(/g) ?? []).length;
      continue;
    }
    if (/^[a-z]/.test(name) && !/\(/.test(name)) {
      const re = new RegExp(`(?<![\\w.$])${name.replace(/\$/g, '\\$')}(\\.\\w+)?\\(`, 'g');
      const n = (body.match(re) ?? []).length;
      if (GENERIC.has(name)) counts.generic += n;
      else counts.typed += n;
    }
  }
  return counts;
}

const kinds = {};
/** Per module: its YAML file, kind, and the lines of each (for `--files`). */
const perFile = [];
/** Non-blank lines of code: the header (source path) is not code the YAML had. */
const tsLinesOf = (text) =>
  text.split('\n').filter((line) => line.trim() && !/^\/\/ Imported by pipewright/.test(line)).length;
const yamlLinesOf = (text) => text.split('\n').filter((line) => line.trim()).length;
const row = (kind) =>
  (kinds[kind] ??= {
    documents: 0,
    modules: 0,
    typed: 0,
    generic: 0,
    raw: 0,
    yamlLines: 0,
    tsLines: 0,
    comments: 0,
    commentsKept: 0,
    fallbacks: 0,
    failed: 0,
  });

async function importFiles(files, out) {
  const inputs = files.map((file) => ({ file: relative(process.cwd(), file), text: readFileSync(file, 'utf8') }));
  return importYaml({ inputs, outDir: out, mode: 'project' });
}

const started = performance.now();
for (const { corpus, kind, dir } of folders(values.corpus)) {
  const files = yamlFiles(dir);
  const r = row(kind);
  const out = mkdtempSync(join(tmpdir(), 'pipewright-import-metrics-'));
  const attempts = [];
  try {
    attempts.push({ files, result: await importFiles(files, join(out, 'all')), out: join(out, 'all') });
  } catch {
    for (const [index, file] of files.entries())
      try {
        attempts.push({
          files: [file],
          result: await importFiles([file], join(out, String(index))),
          out: join(out, String(index)),
        });
      } catch {
        r.failed++;
        r.documents++;
      }
  }
  const comments = [];
  for (const { files: imported, result, out: where } of attempts) {
    for (const file of imported) {
      const text = readFileSync(file, 'utf8');
      r.yamlLines += yamlLinesOf(text);
      comments.push(...commentsOf(text));
    }
    r.documents += result.documents;
    r.fallbacks += (result.diagnostics ?? result.warnings ?? []).filter((d) => d.code === 'import-fallback').length;
    let ts = '';
    for (const path of result.written) {
      if (!path.endsWith('.ts') || path === 'pipewright.config.ts') continue;
      const text = readFileSync(join(where, path), 'utf8');
      r.modules++;
      const lines = tsLinesOf(text);
      r.tsLines += lines;
      const source = /^\/\/ Imported by pipewright from (.*)\.$/m.exec(text)?.[1];
      const file = imported.find((f) => relative(process.cwd(), f) === source);
      if (values.files && file && imported.filter((f) => f === file).length === 1)
        perFile.push({
          kind,
          module: path,
          file: relative(values.corpus, file),
          ts: lines,
          yaml: yamlLinesOf(readFileSync(file, 'utf8')),
        });
      const c = calls(text);
      r.typed += c.typed;
      r.generic += c.generic;
      r.raw += c.raw;
      ts += text;
    }
    for (const comment of comments.splice(0)) {
      r.comments++;
      if (ts.includes(comment)) r.commentsKept++;
    }
  }
  rmSync(out, { recursive: true, force: true });
  console.error(`  ${corpus}/${kind}: ${files.length} files`);
}

const total = row('all');
for (const [kind, r] of Object.entries(kinds))
  if (kind !== 'all') for (const key of Object.keys(total)) total[key] += r[key];
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');
console.log('kind            docs failed  typed generic   raw  typed%  ts/yaml  comments kept  fallbacks');
for (const [kind, r] of Object.entries(kinds))
  console.log(
    `${kind.padEnd(15)} ${String(r.documents).padStart(4)} ${String(r.failed).padStart(6)} ${String(r.typed).padStart(6)} ${String(r.generic).padStart(7)} ${String(r.raw).padStart(5)} ${pct(r.typed, r.typed + r.generic + r.raw).padStart(7)} ${(r.tsLines / Math.max(1, r.yamlLines)).toFixed(2).padStart(8)} ${`${r.commentsKept}/${r.comments}`.padStart(9)} ${pct(r.commentsKept, r.comments).padStart(6)} ${String(r.fallbacks).padStart(9)}`,
  );
if (values.files) {
  // A YAML file of several documents gives several modules: their lines add up against the file's.
  const byFile = new Map();
  for (const m of perFile) {
    const entry = byFile.get(m.file) ?? { file: m.file, kind: m.kind, ts: 0, yaml: m.yaml };
    entry.ts += m.ts;
    byFile.set(m.file, entry);
  }
  const worst = [...byFile.values()]
    .sort((a, b) => b.ts / b.yaml - a.ts / a.yaml || b.ts - a.ts)
    .slice(0, Number(values.files));
  console.log('\nts/yaml   ts  yaml  file');
  for (const m of worst)
    console.log(
      `${(m.ts / m.yaml).toFixed(2).padStart(7)} ${String(m.ts).padStart(4)} ${String(m.yaml).padStart(5)}  ${m.file}`,
    );
}
console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
if (values.json) writeFileSync(values.json, JSON.stringify(kinds, null, 2));
