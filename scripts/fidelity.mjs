#!/usr/bin/env node
// Differential testing against the platform's published schema (issue 27, docs/fidelity.md): mutants of every
// document of ../shared/corpus, each judged by pipewright's validate (in-process, the same document check the
// validate command runs) and by the official JSON Schema; prints the agreement per mutation class and each class
// of disagreement with a sample. Run after `npm run build`:
//
//   node scripts/fidelity.mjs                       # the full set (every mutant of every document)
//   node scripts/fidelity.mjs --per-class 2         # the bounded set the test runs
//   node scripts/fidelity.mjs --kind pipelines --only 012- --json out.json
//
// Exit status 1 when a disagreement class is not documented in docs/fidelity.md.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { documentedPatterns, JUDGED_KINDS, loadOfficial, matchesPattern, rate, runFidelity } from './fidelity/run.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    shared: { type: 'string', default: path.join(ROOT, '..', 'shared') },
    seed: { type: 'string', default: '27' },
    'per-class': { type: 'string' },
    kind: { type: 'string', multiple: true },
    only: { type: 'string' },
    json: { type: 'string' },
    samples: { type: 'boolean', default: true },
    // Another build to judge (a copy of main's dist/, to measure before a change).
    dist: { type: 'string', default: path.join(ROOT, 'dist') },
  },
});

const dist = (file) => import(pathToFileURL(path.join(opt.dist, file)).href);
const [{ validateDocument }, { kindOfDocument }, { readYaml }] = await Promise.all([
  dist('check/check-document.js'),
  dist('catalog/kinds.js'),
  dist('yaml/read-yaml.js'),
]);
const Ajv = createRequire(import.meta.url)('ajv').default;
const kinds = opt.kind ?? Object.keys(JUDGED_KINDS);
const { official, schemas } = await loadOfficial({ sharedDir: opt.shared, Ajv, kinds });

/** What validate says of one document: refused when any diagnostic is an error. */
function pipewright(doc) {
  const kind = kindOfDocument(doc);
  if (!kind) return { refused: true, first: 'not a platform document' };
  const error = validateDocument(kind, doc).find((d) => d.severity === 'error');
  return { refused: Boolean(error), first: error && `[${error.code}] ${error.message}` };
}

const started = Date.now();
const { tally, classes, skipped } = runFidelity({
  corpusRoot: path.join(opt.shared, 'corpus'),
  readYaml,
  pipewright,
  official,
  schemas,
  seed: Number(opt.seed),
  perClass: opt['per-class'] ? Number(opt['per-class']) : Infinity,
  kinds,
  only: opt.only,
});

let mutants = 0;
let agree = 0;
console.log(`mutation class      mutants   agree`);
for (const [mutation, count] of tally) {
  mutants += count.mutants;
  agree += count.agree;
  console.log(
    `${mutation.padEnd(18)} ${String(count.mutants).padStart(8)}  ${rate(count.agree, count.mutants).padStart(6)}`,
  );
}
console.log(`${'overall'.padEnd(18)} ${String(mutants).padStart(8)}  ${rate(agree, mutants).padStart(6)}`);
console.log(
  `(${skipped.length} documents not mutated: refused as they are by ${[...new Set(skipped.map((s) => (s.official ? 'the schema' : 'pipewright')))].join(' or ')}; ${((Date.now() - started) / 1000).toFixed(0)} s)`,
);

const patterns = documentedPatterns(fs.readFileSync(path.join(ROOT, 'docs', 'fidelity.md'), 'utf8'));
const undocumented = classes.filter((c) => !patterns.some((p) => matchesPattern(c.name, p)));
console.log(`\n${classes.length} disagreement classes, ${undocumented.length} not documented in docs/fidelity.md`);
for (const c of classes) {
  const documented = !undocumented.includes(c);
  console.log(`\n${documented ? '  documented ' : 'UNDOCUMENTED '}${c.name}  (${c.count})`);
  if (opt.samples)
    console.log(
      `    ${c.sample.file} at ${c.sample.path}${c.sample.variant ? ` (${c.sample.variant})` : ''}\n    pipewright: ${c.sample.pipewright ?? 'accepts'}\n    schema:     ${c.sample.official ?? 'accepts'}`,
    );
}
if (opt.json)
  fs.writeFileSync(opt.json, JSON.stringify({ tally: Object.fromEntries(tally), classes, skipped }, null, 2));
process.exit(undocumented.length ? 1 : 0);
