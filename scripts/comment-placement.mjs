#!/usr/bin/env node
// Where import puts the YAML comments of ../shared/corpus (docs/import.md). Each comment of a file's YAML is looked
// for in the modules generated from its documents, as a `//` line, and counted by the first line of code below its
// block of comments:
//
// - at its field: a key or an item of an object or array literal (a raw node, a `.withFields({...})` object, a spec);
// - above a call: the builder call (or the const holding it) written for the nearest node that has one;
// - above the export: the document's own block, where one on a typed field of the document itself
//   (`name: x  # ...`) goes by design, named by its field;
// - once for its twin: a comment written again, word for word, in a node import writes once for two (a shared const);
// - not found: in no module (a document import could not write, say).
//
// The comment above a document is left out (above the export is its place). Run after `npm run build`:
//
//   node scripts/comment-placement.mjs [--dist DIR] [--corpus DIR] [--list]
//
// `--dist` measures another build (a checkout of an earlier commit, for a before/after); `--list` prints each
// comment that is not at its field or above a call.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Lexer } from 'yaml';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    dist: { type: 'string', default: path.join(ROOT, 'dist') },
    corpus: { type: 'string', default: path.join(ROOT, '..', 'shared', 'corpus') },
    list: { type: 'boolean', default: false },
  },
});
const load = (file) => import(pathToFileURL(path.join(path.resolve(opt.dist), file)).href);
const [{ readDocuments }, { generateModule }] = await Promise.all([
  load('import/read-documents.js'),
  load('import/generate-module.js'),
]);

const files = [];
(function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (/\.ya?ml$/.test(entry.name)) files.push(full);
  }
})(opt.corpus);

/** The first line of code under a block of `//` lines: where the comments of that block stand. */
function placeOf(line) {
  const code = line.trimStart();
  if (code.startsWith('export const ')) return 'export';
  // A builder call, a const holding one, or a chained call (`.step(`): the comments of a node that has a call.
  if (/^(const [\w$]+ = )?[\w$.]+\(/.test(code) || code.startsWith('.')) return 'call';
  return 'field';
}

const counts = { field: 0, call: 0, export: 0, twin: 0, missing: 0 };
let documents = 0;
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  let read;
  try {
    read = readDocuments(text, path.basename(file));
  } catch {
    continue;
  }
  // All the modules of the file together: the comments of a file with several documents are looked for in each.
  const lines = [];
  const above = [];
  for (const document of read.documents) {
    try {
      lines.push(...generateModule(document).text.split('\n'));
    } catch {
      continue;
    }
    if (document.comment) above.push(document.comment);
  }
  const comments = [...new Lexer().lex(text)]
    .filter((token) => token.startsWith('#'))
    .map((token) => token.slice(1).trim())
    .filter(Boolean)
    // The comment above a document is the document's: above the export is its place.
    .filter((comment) => !above.some((block) => block.includes(comment)));
  if (!comments.length || !lines.length) continue;
  documents++;
  // A comment written twice in the YAML is looked for twice: each finds the next line that holds it.
  const from = new Map();
  for (const comment of comments) {
    const again = from.has(comment);
    let at = (from.get(comment) ?? -1) + 1;
    while (at < lines.length && !(lines[at].trimStart().startsWith('//') && lines[at].includes(comment))) at++;
    from.set(comment, at);
    let below = at;
    while (below < lines.length && lines[below].trimStart().startsWith('//')) below++;
    const place =
      at >= lines.length
        ? again && lines.some((line) => line.trimStart().startsWith('//') && line.includes(comment))
          ? 'twin'
          : 'missing'
        : below < lines.length
          ? placeOf(lines[below])
          : 'missing';
    counts[place]++;
    if (opt.list && place !== 'field' && place !== 'call' && place !== 'twin')
      console.log(`${place}: ${path.relative(opt.corpus, file)}: ${comment}`);
  }
}
const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
console.log(
  `${documents} files with comments, ${total} comments: ${counts.field} at their field, ${counts.call} above the call of their node, ${counts.export} above the export, ${counts.twin} once for their twin, ${counts.missing} not found`,
);
