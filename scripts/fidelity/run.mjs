// The differential run: mutants of every corpus document the platform's schema and pipewright both accept, each
// judged by both; what they disagree on, grouped into classes (docs/fidelity.md). Used by scripts/fidelity.mjs
// (the full set, from dist/) and test/fidelity.test.ts (a bounded set, from src/).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { enumValuesOf, MUTATION_CLASSES, mutantsOf, placeOf, seededRandom, typesOf } from './mutate.mjs';

/** The corpus kinds the platform publishes a schema for, by folder: the official schema's kind and the root key. */
export const JUDGED_KINDS = {
  pipelines: { schema: 'pipeline', rootKey: 'pipeline' },
  templates: { schema: 'template', rootKey: 'template' },
  triggers: { schema: 'trigger', rootKey: 'trigger' },
  connectors: { schema: 'connector', rootKey: 'connector' },
};

const SCHEMA_FILES = {
  pipeline: ['pipeline.v0.json'],
  template: ['template.v0.json'],
  trigger: ['trigger.v0.json'],
  connector: ['connector.account.json', 'connector.org.json', 'connector.project.json'],
};

/**
 * The platform's schemas as judges, by schema kind: `(document) => { refused, first }`, `first` naming the
 * deepest problem (a failed `oneOf` lists every branch's type mismatch first). A connector is judged by the
 * schema of its scope (account, org or project: which of orgIdentifier and projectIdentifier it has), as the
 * platform serves one per scope (`GET /ng/api/yaml-schema?entityType=Connectors&scope=...`).
 */
export async function loadOfficial({ sharedDir, Ajv, kinds = Object.keys(JUDGED_KINDS) }) {
  const { officialValidator, mend, SCHEMA_DIR } = await import(
    pathToFileURL(path.join(sharedDir, 'tools', 'official-schema.mjs')).href
  );
  const official = {};
  const schemas = {};
  for (const folder of kinds) {
    const kind = JUDGED_KINDS[folder].schema;
    const checks = [];
    for (const file of SCHEMA_FILES[kind]) {
      const schema = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8'));
      schemas[kind] ??= schema;
      if (kind === 'connector') {
        const ajv = new Ajv({ strict: false, allErrors: false, formats: { int32: true, double: true }, logger: false });
        const validate = ajv.compile(mend(schema));
        checks.push((doc) => ({
          valid: Boolean(validate(doc)),
          errors: (validate.errors ?? []).map((e) => ({ path: e.instancePath, message: e.message })),
        }));
      } else checks.push(await officialValidator(kind, { Ajv }));
    }
    official[kind] = (doc) => {
      const body = doc?.[kind];
      const scope =
        kind !== 'connector'
          ? 0
          : body?.projectIdentifier !== undefined
            ? 2
            : body?.orgIdentifier !== undefined
              ? 1
              : 0;
      const { valid, errors } = checks[scope](doc);
      return { refused: !valid, first: valid ? undefined : deepest(errors) };
    };
  }
  return { official, schemas };
}

/** The problem that says most: the deepest path, and among those not a `type` that fits another branch. */
function deepest(errors) {
  const depth = (e) =>
    e.path.split('/').length - (/type$/.test(e.path) && /allowed values|must NOT be valid/.test(e.message) ? 0.5 : 0);
  const best = [...errors].sort((a, b) => depth(b) - depth(a))[0];
  return best && `${best.path || '/'} ${best.message}`;
}

/** Mutation classes whose variant is part of a disagreement's class (the others keep it in the sample only). */
const VARIANT_IN_CLASS = new Set(['retype-scalar', 'expression']);

/** The documents of a corpus folder (`official/`, `community/`, ...) of one judged kind, read as validate reads them. */
function documentsOf(corpusRoot, folder, readYaml) {
  const out = [];
  for (const corpus of fs
    .readdirSync(corpusRoot, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    const dir = path.join(corpusRoot, corpus, folder);
    if (!fs.existsSync(dir)) continue;
    for (const file of fs
      .readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()) {
      const read = readYaml(fs.readFileSync(path.join(dir, file), 'utf8'), file);
      if (read.documents.length !== 1 || read.diagnostics.some((d) => d.severity === 'error')) continue;
      out.push({ file: `${corpus}/${folder}/${file}`, value: read.documents[0].value });
    }
  }
  return out;
}

/** `count` of `list`, chosen by `random` (all of it when count is Infinity or more than there are). */
function sample(random, list, count) {
  if (count >= list.length) return list;
  const copy = [...list];
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, count);
}

/**
 * Runs the mutants. `pipewright(kind, document)` and `official[schemaKind](document)` each answer
 * `{ refused: boolean, first?: string }`. `perClass` caps the mutants of one class per document (seeded sample).
 */
export function runFidelity({
  corpusRoot,
  readYaml,
  pipewright,
  official,
  schemas,
  seed = 27,
  perClass = Infinity,
  kinds = Object.keys(JUDGED_KINDS),
  only,
}) {
  const random = seededRandom(seed);
  const tally = new Map(MUTATION_CLASSES.map((mutation) => [mutation, { mutants: 0, agree: 0 }]));
  const classes = new Map();
  const skipped = [];
  for (const folder of kinds) {
    const { schema, rootKey } = JUDGED_KINDS[folder];
    const documents = documentsOf(corpusRoot, folder, readYaml).filter((d) => !only || d.file.includes(only));
    const types = typesOf(documents.map((d) => d.value));
    const enums = enumValuesOf(schemas[schema]);
    for (const { file, value } of documents) {
      const theirs = official[schema](value);
      const ours = pipewright(value);
      // Only documents both accept: a mutant of a refused document is refused for the old reason, too.
      if (theirs.refused || ours.refused) {
        skipped.push({ file, official: theirs.refused, pipewright: ours.refused });
        continue;
      }
      for (const mutation of MUTATION_CLASSES) {
        const all = [...mutantsOf(value, mutation, { random, enums, types, rootKey })];
        for (const mutant of sample(random, all, perClass)) {
          const doc = mutant.make();
          const platform = official[schema](doc);
          const verdict = pipewright(doc);
          const count = tally.get(mutation);
          count.mutants++;
          if (platform.refused === verdict.refused) {
            count.agree++;
            continue;
          }
          const direction = verdict.refused ? 'false-error' : 'miss';
          const place = placeOf(mutation === 'unknown-key' || mutation === 'nest-step' ? doc : value, mutant.path);
          const name = `${mutation}${mutant.variant && VARIANT_IN_CLASS.has(mutation) ? `:${mutant.variant}` : ''} ${direction} ${place}`;
          const entry = classes.get(name) ?? { name, mutation, direction, place, count: 0, sample: undefined };
          entry.count++;
          entry.sample ??= {
            file,
            path: mutant.path.join('.'),
            variant: mutant.variant,
            pipewright: verdict.first,
            official: platform.first,
          };
          classes.set(name, entry);
        }
      }
    }
  }
  return { tally, classes: [...classes.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), skipped };
}

/**
 * The documented disagreement classes: the first column of the tables under "## Documented disagreements" (where
 * pipewright follows the platform rather than its schema) and "## Open misses" (known, not yet fixed) in
 * docs/fidelity.md, each a pattern over class names (`*` matches anything).
 */
export function documentedPatterns(markdown) {
  const patterns = [];
  for (const section of markdown
    .split(/^## /m)
    .filter((part) => /^(Documented disagreements|Open misses)\b/.test(part)))
    for (const line of section.split('\n')) {
      const cell = /^\|\s*`([^`]+)`\s*\|/.exec(line)?.[1];
      if (cell) patterns.push(cell);
    }
  return patterns;
}

/** Whether a class name matches a documented pattern. */
export function matchesPattern(name, pattern) {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(name);
}

/** Agreement in per cent, one decimal. */
export const rate = (agree, total) => (total ? `${((100 * agree) / total).toFixed(1)}%` : 'n/a');
