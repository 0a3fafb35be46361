// The project-mode round trip over a corpus of real documents, issue 28's judge: import each corpus folder in
// project mode, and each corpus whole (all its kind folders as one project, so input sets meet their pipelines and
// infrastructures their environments), compile the result with the generated config, and compare every valid
// document with what compile wrote, as data (both read with pipewright's YAML reader, as the platform reads them).
// Also counts the references between documents: written as builders, left as text though the target was imported,
// and left as text because it was not.
//
//   npm run build && node bench/import-roundtrip.mjs [--corpus ../shared/corpus] [--json FILE] [--quiet]
//
// Valid: every document but those `<kind>.invalid.txt` names (../shared/corpus/README.md). The `other/` folder is
// not a kind folder. Exit status 1 when a valid document does not come back exactly.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: join(ROOT, '..', 'shared', 'corpus') },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});
const dist = (path) => import(join(ROOT, 'dist', path));
const { importYaml } = await dist('import/import-yaml.js');
const { readYaml } = await dist('yaml/read-yaml.js');
const { kindOfDocument, kindRow } = await dist('catalog/kinds.js');
const { keyId, keyOf, parseReference, platformText } = await dist('catalog/resource-key.js');
const { firstDifference, sameData } = await dist('import/verify.js');
const BIN = join(ROOT, 'bin', 'pipewright.js');

const corpora = readdirSync(values.corpus, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(values.corpus, entry.name, 'SOURCES.md')))
  .map((entry) => entry.name)
  .sort();
const kindFolders = (corpus) =>
  readdirSync(join(values.corpus, corpus), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'other')
    .map((entry) => entry.name)
    .sort();

/** The corpus files of a kind folder with their documents, each marked valid or not by the folder's labels. */
function filesOf(corpus, folder) {
  const labels = join(values.corpus, corpus, `${folder}.invalid.txt`);
  const invalid = new Set(
    existsSync(labels)
      ? readFileSync(labels, 'utf8')
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
      : [],
  );
  return readdirSync(join(values.corpus, corpus, folder))
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => {
      const path = join(values.corpus, corpus, folder, name);
      const text = readFileSync(path, 'utf8');
      return { file: `${corpus}/${folder}/${name}`, text, valid: !invalid.has(name) };
    });
}

/** The platform documents of a YAML text, each with its kind and key (undefined when it has none). */
function documentsOf(text, file) {
  let read;
  try {
    read = readYaml(text, file).documents;
  } catch {
    return [];
  }
  return read.flatMap(({ value }) => {
    const kind = kindOfDocument(value);
    if (!kind) return [];
    const key = keyOf(kind, value[kindRow(kind).rootKey]);
    return key ? [{ kind, key, value }] : [];
  });
}

/** Every reference field a document holds, as `{ kind, text, parent?, version? }` read from the document's scope. */
function referencesOf({ kind, value }) {
  const body = value[kindRow(kind).rootKey] ?? {};
  const found = [];
  const add = (target, text, extra = {}) => typeof text === 'string' && found.push({ kind: target, text, ...extra });
  if (kind !== 'project') add('project', body.projectIdentifier);
  if (kind === 'inputSet') add('pipeline', body.pipeline?.identifier);
  if (kind === 'overlayInputSet' || kind === 'trigger') {
    add('pipeline', body.pipelineIdentifier);
    for (const ref of [...(body.inputSetReferences ?? []), ...(body.inputSetRefs ?? [])])
      add('inputSet', ref, { parent: platformText(body.pipelineIdentifier) });
  }
  if (kind === 'infrastructure') add('environment', body.environmentRef);
  if (kind === 'pipeline') {
    const visit = (node) => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      if (node.template && typeof node.template === 'object' && 'templateRef' in node.template)
        add('template', node.template.templateRef, { version: platformText(node.template.versionLabel) });
      // A Deployment stage's service, environment and the environment's infrastructures (import links them too).
      if (node.type === 'Deployment' && node.spec && typeof node.spec === 'object') {
        const { service, environment } = node.spec;
        add('service', service?.serviceRef);
        add('environment', environment?.environmentRef);
        for (const definition of Array.isArray(environment?.infrastructureDefinitions)
          ? environment.infrastructureDefinitions
          : [])
          add('infrastructure', definition?.identifier, { parent: platformText(environment.environmentRef) });
      }
      Object.values(node).forEach(visit);
    };
    visit(body.stages);
  }
  const from = {
    ...(platformText(body.orgIdentifier) !== undefined ? { org: platformText(body.orgIdentifier) } : {}),
    ...(platformText(body.projectIdentifier) !== undefined ? { project: platformText(body.projectIdentifier) } : {}),
  };
  return found.map((reference) => {
    const target = parseReference(
      reference.text,
      reference.kind === 'project' ? { ...(from.org ? { org: from.org } : {}) } : from,
    );
    const row = kindRow(reference.kind);
    return (
      target && {
        kind: reference.kind,
        id: keyId({
          kind: reference.kind,
          ...target,
          ...(row.scopes.includes('project') ? {} : { project: undefined }),
          ...(row.parent && reference.parent !== undefined ? { parent: reference.parent } : {}),
          ...(row.version && reference.version !== undefined ? { version: reference.version } : {}),
        }),
      }
    );
  });
}

/** Builder references in the generated modules: each use of a name imported from another generated module. */
function builderReferences(text) {
  let count = 0;
  const body = text.replace(/^import[^;]*;$/gm, '');
  for (const [, names] of text.matchAll(/^import \{([^}]*)\} from '\.[^']*';$/gm))
    for (const spec of names.split(',')) {
      const local = spec
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (local)
        count += (body.match(new RegExp(`(?<![\\w$.'])${local.replace(/\$/g, '\\$')}(?![\\w$'])`, 'g')) ?? []).length;
    }
  return count;
}

const totals = {};
/** References by way of import (kind folders one by one, or each corpus whole). */
const references = {};
const differences = [];
const rowOf = (name) => (totals[name] ??= { exact: 0, total: 0 });

/** One import in project mode of `files`, compiled with its config, compared document by document. */
async function roundTrip(label, files, kindOfFile) {
  const counted = (references[label.split(' ')[0]] ??= { builders: 0, textImported: 0, textElsewhere: 0 });
  const work = mkdtempSync(join(tmpdir(), 'pipewright-roundtrip-'));
  try {
    const estate = join(work, 'estate');
    let result;
    try {
      result = await importYaml({
        inputs: files.map(({ file, text }) => ({ file, text })),
        outDir: estate,
        mode: 'project',
      });
    } catch (error) {
      result = undefined;
      differences.push(`${label}: import failed: ${String(error.message ?? error).split('\n')[0]}`);
    }
    // Compile refuses a whole run for one document it finds errors in (an unsubstituted placeholder, a null
    // description): those modules are set aside, each named with its first error, and the rest compiled again.
    const refused = new Map();
    for (let round = 0; result && round < 6; round++) {
      const compiled = spawnSync(process.execPath, [BIN, 'compile'], {
        cwd: estate,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      if (compiled.status === 0) break;
      const found = new Map();
      for (const line of `${compiled.stderr}\n${compiled.stdout}`.split('\n')) {
        const match = /^(.+?\.ts):\d+:\d+\s+(.*\[error [\w-]+\])$/.exec(line.trim());
        if (match && !found.has(match[1]) && existsSync(join(estate, match[1]))) found.set(match[1], match[2]);
      }
      if (!found.size) {
        differences.push(
          `${label}: compile exited ${compiled.status}: ${(compiled.stderr || compiled.stdout).trim().split('\n').slice(0, 3).join(' | ')}`,
        );
        break;
      }
      for (const [path, error] of found) {
        refused.set(path, error);
        rmSync(join(estate, path));
      }
    }
    const sources = new Map((result?.modules ?? []).map((module) => [module.path, module.source]));
    for (const [path, error] of refused)
      differences.push(`${label}: ${sources.get(path) ?? path}: compile refuses its module: ${error}`);
    const back = new Map();
    const manifest = join(estate, 'out', 'manifest.json');
    if (existsSync(manifest))
      for (const { file } of JSON.parse(readFileSync(manifest, 'utf8')).files)
        for (const document of documentsOf(readFileSync(join(estate, 'out', file), 'utf8'), file))
          back.set(keyId(document.key), document.value);
    const imported = new Set(files.flatMap(({ file, text }) => documentsOf(text, file).map((d) => keyId(d.key))));
    for (const { file, text, valid } of files)
      for (const document of documentsOf(text, file)) {
        for (const reference of referencesOf(document))
          if (reference && imported.has(reference.id)) counted.textImported++;
          else counted.textElsewhere++;
        if (!valid) continue;
        const row = rowOf(`${label.split(' ')[0]} ${kindOfFile(file)}`);
        row.total++;
        const came = back.get(keyId(document.key));
        if (came !== undefined && sameData(came, document.value)) row.exact++;
        else if (came !== undefined) differences.push(`${label}: ${file}: ${firstDifference(came, document.value)}`);
        else if (![...refused.keys()].some((path) => sources.get(path) === file))
          differences.push(`${label}: ${file}: not compiled`);
      }
    if (result)
      for (const path of result.written)
        if (path.endsWith('.ts') && path !== 'pipewright.config.ts' && existsSync(join(estate, path))) {
          const found = builderReferences(readFileSync(join(estate, path), 'utf8'));
          counted.builders += found;
          counted.textImported -= found;
        }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const started = performance.now();
for (const corpus of corpora) {
  const byFolder = kindFolders(corpus).map((folder) => ({ folder, files: filesOf(corpus, folder) }));
  const folderOf = (file) => file.split('/')[1];
  for (const { folder, files } of byFolder) {
    if (!values.quiet) console.error(`  ${corpus}/${folder}: ${files.length} files`);
    await roundTrip(`folders ${corpus}/${folder}`, files, folderOf);
  }
  if (!values.quiet) console.error(`  ${corpus}: whole`);
  await roundTrip(
    `whole ${corpus}`,
    byFolder.flatMap(({ files }) => files),
    folderOf,
  );
}

console.log('round trip (project mode)            exact/total');
for (const [name, { exact, total }] of Object.entries(totals))
  console.log(`${name.padEnd(36)} ${`${exact}/${total}`.padStart(11)}`);
const all = Object.values(totals).reduce(
  (sum, row) => ({ exact: sum.exact + row.exact, total: sum.total + row.total }),
  { exact: 0, total: 0 },
);
console.log(`${'all'.padEnd(36)} ${`${all.exact}/${all.total}`.padStart(11)}`);
for (const [way, counted] of Object.entries(references))
  console.log(
    `references (${way}): ${counted.builders} written as builders, ${counted.textImported} left as text though their target was imported, ${counted.textElsewhere} to documents not imported (text)`,
  );
if (differences.length) {
  console.log('\ndifferences:');
  for (const line of differences) console.log(`  ${line}`);
}
console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
if (values.json) writeFileSync(values.json, JSON.stringify({ totals, references, differences }, null, 2));
process.exitCode = all.exact === all.total && !differences.length ? 0 : 1;
