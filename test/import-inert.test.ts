import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { Document, isMap, isScalar, isSeq, visit, type Node } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importYaml } from '../src/import/import-yaml.js';
import { readDocuments } from '../src/import/read-documents.js';
import { createTypeChecker } from '../src/import/type-check.js';
import { sameData } from '../src/import/verify.js';
import { lower } from '../src/ir/lower.js';
import type { IrNode } from '../src/ir/node.js';
import { blockComment, lineComments, propertyKey, stringLiteral, templateText } from '../src/import/ts-text.js';
import { variableName } from '../src/import/variable-name.js';
import { headerLine, importedFrom } from '../src/import/module-header.js';
import { seededRandom } from '../scripts/seeded-random.mjs';
import { tempDir } from './support/cli.js';

/**
 * Generated code is inert for any input: whatever a YAML document holds in its comments, keys, values, names and
 * identifiers, the module import writes parses, holds only imports, declarations and exports, calls nothing but
 * the builders, type-checks, and builds the document it came from.
 */
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-inert-')));
afterEach(async () => cleanup());

/** Text that ends comments, strings and templates, or that cannot be written as UTF-8, and arbitrary Unicode. */
const NASTY = [
  '\u2028',
  '\u2029',
  '\u0085',
  '\r',
  '\n',
  '*/',
  '/*',
  '${',
  '`',
  "'",
  '"',
  '\\',
  '\0',
  '\0' + '1',
  '\ud800',
  '\udfff',
  '\u202e',
  '__proto__',
  'constructor',
  'prototype',
  '// @ts-nocheck',
  '/// <reference path="/etc/passwd" />',
  '# sourceMappingURL=http://127.0.0.1/x',
  'eval("globalThis.pwned = 1")',
  "require('fs').writeFileSync('/tmp/pwned', '')",
];
const nastyText = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NASTY) }, fc.string({ unit: 'binary', maxLength: 8 })), {
    maxLength: 5,
  })
  .map((parts) => parts.join(''));
/** A key for a free-form map (tags, an unknown field): a nasty text, or one of the prototype's names. */
const nastyKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString'), nastyText);
/** An identifier the platform accepts (a letter or `_`, then letters, digits, `_`). */
const identifier = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,20}$/);
/** An identifier the platform refuses, holding text that would end a comment or a string. */
const badIdentifier = fc
  .tuple(identifier, fc.constantFrom('\u2028', '\u2029', '*/', '${', "'", '\\', '\ud800'), nastyText)
  .map(([id, bad, rest]) => `${id}${bad}${rest}`);

const tags = fc.dictionary(nastyKey, nastyText, { maxKeys: 3 });
const variables = fc.array(
  fc.record({ name: identifier, type: fc.constant('String'), value: nastyText, description: nastyText }),
  { maxLength: 2 },
);
const step = fc.record({
  step: fc.record({
    name: nastyText,
    identifier,
    type: fc.constant('ShellScript'),
    timeout: fc.constant('10m'),
    spec: fc.record({
      shell: fc.constant('Bash'),
      onDelegate: fc.constant(true),
      source: fc.record({ type: fc.constant('Inline'), spec: fc.record({ script: nastyText }) }),
      environmentVariables: fc.array(fc.record({ name: identifier, type: fc.constant('String'), value: nastyText }), {
        maxLength: 2,
      }),
    }),
  }),
});
const stage = fc.record({
  stage: fc.record({
    name: nastyText,
    identifier,
    description: nastyText,
    type: fc.constant('Custom'),
    spec: fc.record({ execution: fc.record({ steps: fc.array(step, { minLength: 1, maxLength: 2 }) }) }),
  }),
});
const scope = { orgIdentifier: identifier, projectIdentifier: identifier };
/** A field the builders do not know, to push a document to a generic builder or `raw.*`. */
const extra = fc.option(fc.tuple(nastyKey, nastyText), { nil: undefined });

const pipelineDoc = fc
  .record({
    name: nastyText,
    identifier: fc.oneof({ weight: 4, arbitrary: identifier }, badIdentifier),
    ...scope,
    description: nastyText,
    tags,
    variables,
    stages: fc.array(stage, { minLength: 1, maxLength: 2 }),
  })
  .chain((body) => extra.map((field) => ({ pipeline: withField(body, field) })));
const serviceDoc = fc
  .record({ name: nastyText, identifier, ...scope, description: nastyText, tags })
  .chain((body) => extra.map((field) => ({ service: withField(body, field) })));
const environmentDoc = fc
  .record({
    name: nastyText,
    identifier,
    ...scope,
    type: fc.constantFrom('Production', 'PreProduction'),
    tags,
    variables,
  })
  .chain((body) => extra.map((field) => ({ environment: withField(body, field) })));
const connectorDoc = fc
  .record({ name: nastyText, identifier, ...scope, description: nastyText, tags, type: fc.constant('Github') })
  .map((body) => ({
    connector: {
      ...body,
      spec: { url: 'https://github.com/org', type: 'Account', authentication: { type: 'Http' } },
    },
  }));

function withField(body: Record<string, unknown>, field: [string, string] | undefined): Record<string, unknown> {
  if (!field) return body;
  const out = { ...body };
  Object.defineProperty(out, field[0], { value: field[1], enumerable: true, writable: true, configurable: true });
  return out;
}

/** YAML comments: one line each (a YAML comment ends at a line break), anything else in it. */
const comment = nastyText.map((text) => text.replace(/[\r\n]/g, ' '));

/** A document as YAML text, with `comments` placed above and after its keys and values in turn. */
function yamlText(document: object, comments: readonly string[]): string {
  const doc = new Document(document);
  let next = 0;
  const take = () => (comments.length ? comments[next++ % comments.length] : undefined);
  doc.commentBefore = take() ?? null;
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && next < comments.length * 2) pair.key.commentBefore = take() ?? null;
      if (isScalar(pair.value) && next < comments.length * 2) pair.value.comment = take() ?? null;
    },
    Seq(_, seq) {
      if (isSeq(seq) && seq.items[0] && (isMap(seq.items[0]) || isScalar(seq.items[0])))
        (seq.items[0] as Node).commentBefore = take() ?? null;
    },
  });
  return doc.toString();
}

const documents = fc.array(
  fc.record({
    document: fc.oneof({ weight: 3, arbitrary: pipelineDoc }, serviceDoc, environmentDoc, connectorDoc),
    comments: fc.array(comment, { maxLength: 6 }),
  }),
  { minLength: 4, maxLength: 8 },
);

const fromPipewright = (statement: ts.Statement): boolean =>
  ts.isImportDeclaration(statement) &&
  ts.isStringLiteral(statement.moduleSpecifier) &&
  (statement.moduleSpecifier.text === 'pipewright' || /^\.\.?\//.test(statement.moduleSpecifier.text));

/** The names a module imports and declares at its top level. */
function declared(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) names.add(element.name.text);
    } else if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
  }
  return names;
}

/** The identifier a call's callee starts from (`pipeline` of `pipeline(...).stage(...)`), or undefined. */
function rootOf(expression: ts.Expression): ts.Identifier | undefined {
  if (ts.isIdentifier(expression)) return expression;
  if (ts.isPropertyAccessExpression(expression)) return rootOf(expression.expression);
  if (ts.isCallExpression(expression)) return rootOf(expression.expression);
  return undefined;
}

/**
 * What is wrong with a module's shape, checked on its syntax tree: every top-level statement an import from
 * pipewright or a sibling module, or a `const` (exported or not); every call made on a name it imports or
 * declares; no other kind of code that runs (functions, `new`, element access, dynamic import).
 */
function shapeProblems(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const problems: string[] = [];
  const parse = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  for (const diagnostic of parse)
    problems.push(`does not parse: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
  const names = declared(file);
  for (const statement of file.statements) {
    const isConst = ts.isVariableStatement(statement) && (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    if (!fromPipewright(statement) && !isConst)
      problems.push(`top-level ${ts.SyntaxKind[statement.kind]}: ${statement.getText(file)}`);
  }
  const visitNode = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const root = rootOf(node.expression);
      if (!root || !names.has(root.text)) problems.push(`a call of ${node.expression.getText(file)}`);
    }
    if (ts.isTaggedTemplateExpression(node) && !(ts.isIdentifier(node.tag) && node.tag.text === 'expr'))
      problems.push(`a tagged template ${node.tag.getText(file)}`);
    if (
      ts.isNewExpression(node) ||
      ts.isElementAccessExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isFunctionDeclaration(node) ||
      ts.isClassLike(node) ||
      ts.isAwaitExpression(node) ||
      ts.isBinaryExpression(node) ||
      node.kind === ts.SyntaxKind.ImportKeyword
    )
      problems.push(`${ts.SyntaxKind[node.kind]}: ${node.getText(file)}`);
    ts.forEachChild(node, visitNode);
  };
  visitNode(file);
  return problems;
}

/** Characters no module holds as they are: line separators, bidi overrides, lone surrogates. */
const UNPRINTED =
  /[\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('the printer of outside text into TypeScript', () => {
  /** The value of a JavaScript expression (the printer's output is plain JavaScript). */
  const valueOf = (code: string): unknown => new Function(`return (${code});`)() as unknown;

  it('writes any text as a string literal whose value is that text, with no line terminator or lone surrogate', () => {
    fc.assert(
      fc.property(nastyText, (text) => {
        const literal = stringLiteral(text);
        expect(literal).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
        expect(literal).not.toMatch(UNPRINTED);
        expect(valueOf(literal)).toBe(text);
        expect(valueOf(`\`${templateText(text)}\``)).toBe(text);
        expect(templateText(text)).not.toMatch(/(^|[^\\])(\\\\)*\$\{/);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('writes comment text as `//` lines that stay comments, and a block comment that `*/` cannot end', () => {
    fc.assert(
      fc.property(nastyText, (text) => {
        const lines = lineComments(text);
        const source = `${lines.join('\n')}\n${blockComment(text)}\nexport {};\n`;
        const file = ts.createSourceFile('c.ts', source, ts.ScriptTarget.Latest, true);
        expect(file.statements.map((s) => ts.SyntaxKind[s.kind])).toEqual(['ExportDeclaration']);
        expect(source).not.toMatch(UNPRINTED);
        // No line is read as a directive by TypeScript or a source-map reader.
        for (const line of lines) expect(line).not.toMatch(/^\/\/\s*@ts-|^\/\/\/|^\/\/[#@]\s*source/);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('keeps ordinary comment lines as they are, and the YAML `#` before a line a tool would obey', () => {
    expect(lineComments(' note: keep it\u2028 second')).toEqual(['// note: keep it', '// second']);
    expect(lineComments(' @ts-ignore')).toEqual(['//# @ts-ignore']);
    expect(lineComments('/ <reference path="x" />')).toEqual(['//#/ <reference path="x" />']);
    expect(lineComments('# sourceMappingURL=http://127.0.0.1/x')).toEqual(['//## sourceMappingURL=http://127.0.0.1/x']);
    expect(lineComments(' @owner team-a')).toEqual(['// @owner team-a']);
  });

  it('writes the header on one line whatever the source is called, and reads it back', () => {
    const text = `// ${headerLine('a\u2028b\r\nc.yaml')}\nimport {} from 'pipewright';\n`;
    expect(text.split('\n')[0]).toBe('// Imported by pipewright from a\\u2028b\\u000D\\u000Ac.yaml.');
    expect(importedFrom(text)).toBe('a\\u2028b\\u000D\\u000Ac.yaml');
    expect(importedFrom(`// ${headerLine('plain.yaml')}\n`)).toBe('plain.yaml');
  });

  it('keeps __proto__ as an own field of an object literal (computed), and other keys quoted or bare', () => {
    expect(propertyKey('__proto__')).toBe("['__proto__']");
    const object = valueOf(
      `{ ${propertyKey('__proto__')}: 1, ${propertyKey('constructor')}: 2, ${propertyKey('a b')}: 3 }`,
    );
    expect(Object.keys(object as object)).toEqual(['__proto__', 'constructor', 'a b']);
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    // The negative: quoted, the key sets the prototype and the field is lost.
    expect(Object.keys(valueOf(`{ '__proto__': { x: 1 } }`) as object)).toEqual([]);
  });

  it('names a variable with a plain, unreserved name whatever the identifier', () => {
    for (const id of ['eval', 'arguments', 'undefined', 'NaN', 'Infinity', 'globalThis', 'require', 'process'])
      expect(variableName(id, 'pipeline')).toBe(`${id}Pipeline`);
    expect(variableName('deploy_to_prod', 'pipeline')).toBe('deployToProd');
    fc.assert(
      fc.property(nastyText, (text) => {
        const name = variableName(text, 'pipeline');
        expect(name).toMatch(/^[A-Za-z_$][\w$]*$/);
        const file = ts.createSourceFile('v.ts', `const ${name} = 1;`, ts.ScriptTarget.Latest, true);
        expect((file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics).toEqual([]);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

/** The project's seed source: the same documents on every machine and every run. */
const SEED = Math.floor(seededRandom(38)() * 2 ** 31);

describe('import writes inert modules for any document', () => {
  it(
    'parses, holds only imports and consts, calls only builders, type-checks and builds the same documents',
    { timeout: 240_000 },
    async () => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(documents, async (generated) => {
          runs++;
          const out = join(dir, `out${runs}`);
          const inputs = generated.map(({ document, comments }, index) => ({
            file: `doc${index}.yaml`,
            text: yamlText(document, comments),
          }));
          const result = await importYaml({ inputs, outDir: out, mode: 'files' });
          expect(result.modules.length).toBe(inputs.length);
          const texts = await Promise.all(result.modules.map((module) => readFile(join(out, module.path), 'utf8')));
          for (const [index, module] of result.modules.entries()) {
            const text = texts[index]!;
            expect(shapeProblems(module.path, text), `${module.path}\n${text}`).toEqual([]);
            expect(text).not.toMatch(UNPRINTED);
            const input = inputs.find((i) => i.file === module.source)!;
            const [read] = readDocuments(input.text, input.file).documents;
            // An identifier the platform refuses is refused, located, and the module still written inert.
            const body = Object.values(read!.document)[0] as Record<string, unknown>;
            if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(String(body.identifier)))
              expect(result.diagnostics.filter((d) => d.location?.file === input.file).map((d) => d.code)).toContain(
                'invalid-format',
              );
            // Built by the builders, the module gives back the document it came from.
            const loaded = (await import(join(out, module.path))) as Record<string, { toNode: () => IrNode }>;
            const [resource] = Object.values(loaded);
            expect(sameData(lower(resource!.toNode()), read!.document), `${module.path}\n${text}`).toBe(true);
          }
          const checked = createTypeChecker(out)(
            result.modules.map((module, index) => ({ path: module.path, text: texts[index]! })),
          );
          expect(checked.flat().map((problem) => problem.diagnostic.message)).toEqual([]);
        }),
        // Each run imports, type-checks and loads 4 to 8 modules (about 15 s): two runs, no shrinking (a failure prints
        // its documents as they are).
        { seed: SEED, numRuns: 2, endOnFailure: true },
      );
    },
  );
});
