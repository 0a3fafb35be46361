#!/usr/bin/env node
// Where import puts the YAML comments of ../shared/corpus (docs/import.md): for each document, each comment of the
// YAML is found in the generated module, either in the block of comments above the export (away from its field)
// or inside the code (at its field, or above the call of its node). Run after `npm run build`:
//
//   node scripts/comment-placement.mjs [--dist DIR]
//
// The comment above a document is left out (above the export is its place); one on a typed field of the document
// itself (`name: x  # ...`) goes above the export by design, named by its field.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Lexer } from 'yaml';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({ options: { dist: { type: 'string', default: path.join(ROOT, 'dist') } } });
const load = (file) => import(pathToFileURL(path.join(opt.dist, file)).href);
const [{ readDocuments }, { generateModule }] = await Promise.all([
  load('import/read-documents.js'),
  load('import/generate-module.js'),
]);

const corpus = path.join(ROOT, '..', 'shared', 'corpus');
const files = [];
(function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (/\.ya?ml$/.test(entry.name)) files.push(full);
  }
})(corpus);

let above = 0;
let inside = 0;
let documents = 0;
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  let read;
  try {
    read = readDocuments(text, path.basename(file));
  } catch {
    continue;
  }
  for (const document of read.documents) {
    const comments = [...new Lexer().lex(text)]
      .filter((token) => token.startsWith('#'))
      .map((token) => token.slice(1).trim())
      .filter(Boolean);
    if (!comments.length) continue;
    let code;
    try {
      code = generateModule(document).text;
    } catch {
      continue;
    }
    documents++;
    const exportAt = code.indexOf('\nexport const ');
    // The block of `//` lines right above the export.
    const head = code.slice(0, exportAt).split('\n');
    let first = head.length;
    while (first > 0 && head[first - 1].trimStart().startsWith('//')) first--;
    const block = head.slice(first).join('\n');
    const rest = code.slice(exportAt);
    for (const comment of comments) {
      // The comment above the document is the document's: above the export is its place.
      if (document.comment?.includes(comment)) continue;
      if (rest.includes(comment)) inside++;
      else if (block.includes(comment)) above++;
    }
  }
}
console.log(
  `${documents} documents with comments: ${inside} comments in the code (at their field or node), ${above} above the export`,
);
