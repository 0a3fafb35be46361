#!/usr/bin/env node
/**
 * Counts the step types of the pipelines and templates in ../shared/corpus, most used first: the list the
 * hover docs of scripts/generate-catalog.mjs (STEP_DOCS) cover. `node scripts/corpus-step-types.mjs [n]`.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const CORPUS = join(dirname(dirname(fileURLToPath(import.meta.url))), '..', 'shared', 'corpus');
if (!existsSync(CORPUS)) {
  console.error(`corpus-step-types: ${CORPUS} is missing; it comes with ../shared`);
  process.exit(1);
}

const counts = new Map();
/** Every `step: { type }` in a document, wherever it sits (stages, step groups, parallel, templates). */
function walk(value) {
  if (Array.isArray(value)) return value.forEach(walk);
  if (!value || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'step' && child && typeof child === 'object' && typeof child.type === 'string')
      counts.set(child.type, (counts.get(child.type) ?? 0) + 1);
    walk(child);
  }
}
// A step template is a step too: its `template.spec` has the step's type.
function walkTemplate(document) {
  const template = document?.template;
  if (template?.type === 'Step' && typeof template.spec?.type === 'string')
    counts.set(template.spec.type, (counts.get(template.spec.type) ?? 0) + 1);
}

for (const source of readdirSync(CORPUS, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
  for (const folder of ['pipelines', 'templates']) {
    const dir = join(CORPUS, source.name, folder);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((name) => /\.ya?ml$/.test(name))) {
      let document;
      try {
        document = parse(readFileSync(join(dir, file), 'utf8'), { uniqueKeys: false });
      } catch {
        continue; // the corpus keeps some invalid files on purpose
      }
      walk(document);
      walkTemplate(document);
    }
  }
}
const limit = Number(process.argv[2] ?? 40);
const ranked = [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).slice(0, limit);
for (const [type, count] of ranked) console.log(`${String(count).padStart(4)} ${type}`);
