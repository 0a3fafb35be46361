#!/usr/bin/env node
// How an editor's JSON Schema check reads the corpus (docs/editor-setup.md): pipewright's emitted pipeline schema,
// compiled by plain Ajv (its defaults), run on every pipeline of ../shared/corpus read as YAML 1.2 and as the
// `yaml` package's YAML 1.1 (yaml-language-server's two `yamlVersion` settings). Prints, for each reading, how many
// pipelines the corpus labels valid are refused (false errors) and how many labelled invalid are refused.
// Run after `npm run build`:  node scripts/editor-schema.mjs
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default;
const { parse } = require('yaml');
const { jsonSchemaOf } = await import(pathToFileURL(path.join(ROOT, 'dist/schema/json-schema.js')).href);

const validate = new Ajv2020().addFormat('uri', true).compile(jsonSchemaOf('pipeline'));
const corpus = path.join(ROOT, '..', 'shared', 'corpus');
const files = [];
for (const source of ['official', 'community']) {
  const dir = path.join(corpus, source, 'pipelines');
  const invalid = new Set(fs.readFileSync(`${dir}.invalid.txt`, 'utf8').split(/\s+/).filter(Boolean));
  for (const name of fs.readdirSync(dir).sort())
    if (/\.ya?ml$/.test(name)) files.push({ file: path.join(dir, name), invalid: invalid.has(name) });
}
for (const version of ['1.2', '1.1']) {
  const count = { valid: 0, falseErrors: [], invalid: 0, refused: 0, threw: 0 };
  for (const { file, invalid } of files) {
    let document;
    try {
      document = parse(fs.readFileSync(file, 'utf8'), { version });
    } catch {
      continue; // not one YAML document: the corpus labels it by other means
    }
    let accepted;
    try {
      accepted = validate(document);
    } catch {
      count.threw++;
      continue;
    }
    if (invalid) {
      count.invalid++;
      if (!accepted) count.refused++;
    } else {
      count.valid++;
      if (!accepted) count.falseErrors.push(`${path.basename(file)} ${validate.errors[0].instancePath}`);
    }
  }
  console.log(
    `YAML ${version}: ${count.falseErrors.length} of ${count.valid} valid pipelines refused, ${count.refused} of ${count.invalid} invalid refused, ${count.threw} threw`,
  );
  for (const line of count.falseErrors) console.log(`  ${line}`);
}
