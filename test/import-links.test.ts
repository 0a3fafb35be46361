import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceKind } from '../src/catalog/kinds.js';
import { call, lit, obj } from '../src/import/code.js';
import { DocumentSource } from '../src/import/document-source.js';
import { ModuleLinks, specifier } from '../src/import/module-links.js';
import { nativeChecker, nativeCompiler } from '../src/import/native-check.js';
import { createTypeChecker } from '../src/import/type-check.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { importedProject, ROOT, runCli, tempDir, type CliResult } from './support/cli.js';
import { startEmulator } from './support/emulator.js';
import { publishWith } from './support/emulator-run.js';

/**
 * References between the documents of one import become builder references: the referring module imports the
 * referenced module's export. Compile of the project reproduces every document, and publish sees each resource once.
 */
const FIXTURE = join(ROOT, 'test/fixtures/import-links/estate.yaml');

let dir: string;
let cleanup: () => Promise<void>;
let imported: CliResult;
let compiled: CliResult;
const estate = (path: string) => readFile(join(dir, 'estate', path), 'utf8');

beforeAll(async () => {
  ({ dir, cleanup, imported, compiled } = await importedProject(FIXTURE));
}, 120_000);
afterAll(() => cleanup());

describe('references between imported documents', () => {
  it('imports every document typed, and compiles the project', () => {
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('(9 typed, 0 partly raw, 0 need attention)');
    expect(compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
  });

  it("passes an input set its pipeline's builder, imported from the pipeline's module", async () => {
    const text = await estate('input-sets/default/web/release/prod_values.ts');
    expect(text).toContain("import { release } from '../../../../pipelines/default/web/release.js';");
    expect(text).toContain('pipeline: release,');
  });

  it('passes an overlay input set and a trigger their pipeline and the input sets that are imported', async () => {
    const overlay = await estate('overlay-input-sets/default/web/release/all.ts');
    expect(overlay).toContain(
      "import { prodValues } from '../../../../input-sets/default/web/release/prod_values.js';",
    );
    expect(overlay).toContain('pipeline: release,');
    // eu_values is not part of the import: it stays text beside the builder.
    expect(overlay).toContain("inputSets: [prodValues, 'eu_values'],");
    const trigger = await estate('triggers/default/web/release/nightly.ts');
    expect(trigger).toContain('pipeline: release,');
    expect(trigger).toContain('inputSets: [prodValues],');
  });

  it("passes an infrastructure its environment's builder", async () => {
    const text = await estate('infrastructures/default/web/prod/k8s.ts');
    expect(text).toContain("import { prod } from '../../../../environments/default/web/prod.js';");
    expect(text).toContain('environment: prod,');
  });

  it('passes a template use the imported template version, and keeps a template that is not imported as text', async () => {
    const text = await estate('pipelines/default/web/release.ts');
    expect(text).toContain("import { pause } from '../../../templates/default/web/pause/v1.js';");
    expect(text).toContain('templateRef: pause,');
    expect(text).toContain("templateRef: 'account.scan',");
  });

  it("gives every module of the project the project module's builder", async () => {
    for (const path of [
      'environments/default/web/prod.ts',
      'templates/default/web/pause/v1.ts',
      'pipelines/default/web/release.ts',
      'triggers/default/web/release/nightly.ts',
    ]) {
      const text = await estate(path);
      expect(text).toMatch(/import \{ web \} from '(\.\.\/)+projects\/default\/web\.js';/);
      expect(text).toContain('project: web,');
    }
  });

  it('keeps a reference to a document that is not imported as text', async () => {
    const text = await estate('input-sets/default/web/elsewhere/orphan.ts');
    expect(text).toContain("pipeline: 'elsewhere',");
    expect(text).not.toContain('pipelines/');
  });

  it('compiles back to every document, each once', async () => {
    const manifest = JSON.parse(await estate('out/manifest.json')) as { files: Array<{ kind: string; file: string }> };
    const originals = readYaml(await readFile(FIXTURE, 'utf8'), 'x').documents.map((d) => d.value);
    expect(manifest.files).toHaveLength(originals.length);
    const back = await Promise.all(
      manifest.files.map(async (f) => readYaml(await estate(join('out', f.file)), f.file).documents[0]!.value),
    );
    for (const original of originals) expect(back).toContainEqual(original);
  });

  it('publish --dry-run plans each resource once', async () => {
    const em = await startEmulator();
    try {
      const dry = await publishWith({ emulator: em, args: [join(dir, 'estate', 'out'), '--dry-run', '--json'] });
      const documents = (JSON.parse(dry.stdout) as { documents: Array<{ kind: string; identifier: string }> })
        .documents;
      const planned = documents.map((d) => `${d.kind}/${d.identifier}`).sort();
      expect(planned).toEqual([...new Set(planned)]);
      expect(planned).toHaveLength(9);
      expect(em.totalWrites()).toBe(0);
    } finally {
      await em.stop();
    }
  }, 60_000);
});

describe("deployment stages' references to imported services, environments and infrastructures", () => {
  const DEPLOYMENTS = join(ROOT, 'test/fixtures/import-links/deployments.yaml');
  let at: Awaited<ReturnType<typeof importedProject>>;
  const module = (path: string) => readFile(join(at.dir, 'estate', path), 'utf8');

  beforeAll(async () => {
    at = await importedProject(DEPLOYMENTS);
  }, 120_000);
  afterAll(() => at.cleanup());

  it('passes deployment() the imported service, environment and infrastructure builders; the others stay text', async () => {
    expect(at.imported.stdout).toContain('(5 typed, 0 partly raw, 0 need attention)');
    const text = await module('pipelines/default/shop/ship.ts');
    expect(text).toContain("import { checkout } from '../../../services/default/shop/checkout.js';");
    expect(text).toContain("import { prod } from '../../../environments/default/shop/prod.js';");
    expect(text).toContain("import { eu } from '../../../infrastructures/default/shop/prod/eu.js';");
    expect(text).toContain('      service: checkout,\n      environment: prod,\n');
    // us is no imported infrastructure of prod; legacy is not imported; eu of account.staging is another scope's.
    expect(text).toContain("infrastructureDefinitions: [eu, 'us'],");
    expect(text).toContain("      service: 'legacy',\n      environment: 'account.staging',\n");
    expect(text).toContain("infrastructureDefinitions: ['eu'],");
  });

  it('compiles back to every document exactly', async () => {
    expect(at.compiled).toMatchObject({ code: 0 });
    const manifest = JSON.parse(await module('out/manifest.json')) as { files: Array<{ file: string }> };
    const originals = readYaml(await readFile(DEPLOYMENTS, 'utf8'), 'x').documents.map((d) => d.value);
    const back = await Promise.all(
      manifest.files.map(async (f) => readYaml(await module(join('out', f.file)), f.file).documents[0]!.value),
    );
    expect(back).toHaveLength(originals.length);
    for (const original of originals) expect(back).toContainEqual(original);
  });

  it('lets compile check they exist: the pipeline compiled alone names each builder it refers to, never a text', async () => {
    const alone = await runCli(['compile', 'pipelines/default/shop/ship.ts', '-o', 'alone'], {
      cwd: join(at.dir, 'estate'),
    });
    expect(alone.code).toBe(1);
    const unresolved = alone.stderr.split('\n').filter((line) => line.includes('[error unresolved-reference]'));
    expect(unresolved.map((line) => /references (.*?) in /.exec(line)?.[1])).toEqual([
      'project "shop"',
      'environment "prod"',
      'infrastructure definition "eu" of "prod"',
      'service "checkout"',
    ]);
  });

  it('writes .rollbackStep() after the steps, on the stage', async () => {
    const text = await module('pipelines/default/shop/ship.ts');
    expect(text).toContain(
      [
        '      .step(',
        "        rollout.withIdentifier('rollout_checkout'),",
        "        rollout.withIdentifier('rollout_cart', 'rollout cart'),",
        '      )',
        "      .rollbackStep(k8sRollingRollback({ identifier: 'undo', pruningEnabled: false, timeout: '10m' })),",
      ].join('\n'),
    );
  });

  it('names a const shared by steps after what they are (the words their identifiers share), not its first use', async () => {
    const text = await module('pipelines/default/shop/ship.ts');
    expect(text).toContain("const rollout = k8sRollingDeploy({\n  identifier: 'rollout_checkout',");
    expect(text).toContain(".step(rollout.withIdentifier('rollout', 'rollout'));");
    expect(text).not.toContain('rolloutCheckout');
  });
});

describe('the order references follow', () => {
  const documents = [
    'inputSet:\n  identifier: values\n  orgIdentifier: o\n  projectIdentifier: p\n  pipeline:\n    identifier: ship\n',
    'pipeline:\n  identifier: ship\n  orgIdentifier: o\n  projectIdentifier: p\n',
    'project:\n  identifier: p\n  orgIdentifier: o\n',
  ];
  const sourceOf = (texts: readonly string[]) =>
    new DocumentSource(
      texts.map((text, at) => ({ file: `${at}.yaml`, text })),
      'files',
    );
  /** Every document of a source, in the order it hands them out. */
  const drain = (source: DocumentSource) => {
    const order: number[] = [];
    for (let index = source.nextInPublishOrder(); index !== undefined; index = source.nextInPublishOrder())
      order.push(index);
    return order;
  };
  const links = () => {
    const source = sourceOf(documents);
    drain(source);
    return new ModuleLinks(source);
  };
  const typed = (callee: string) => call(callee, [obj({ identifier: lit('x') })]);

  it('generates what is referenced first: the project, then the pipeline, then its input set', () => {
    expect(drain(sourceOf(documents))).toEqual([2, 1, 0]);
  });

  it('reads a file only when no unread file may hold a document to generate before its own', () => {
    const pipelines = Array.from({ length: 5 }, (_, at) => documents[1]!.replace('ship', `ship${at}`));
    const source = sourceOf(pipelines);
    expect(source.nextInPublishOrder()).toBe(0);
    // The first pipeline is handed out with one file read: the others hold no kind published before pipelines.
    expect(source.documents).toHaveLength(1);
    expect(drain(source)).toEqual([1, 2, 3, 4]);
  });

  it('reads up to the last file first when it holds a project, or when a scan cannot tell what it holds', () => {
    const withProject = sourceOf([documents[1]!, documents[1]!.replace('ship', 'other'), documents[2]!]);
    expect(withProject.nextInPublishOrder()).toBe(2);
    expect(withProject.documents).toHaveLength(3);
    // A flow map root could hide any kind: the file is read before a pipeline is handed out.
    const flow = sourceOf([documents[1]!, documents[0]!, '{project: {identifier: p, orgIdentifier: o}}\n']);
    expect(drain(flow)).toEqual([2, 0, 1]);
  });

  it('refers to an earlier document, read from the referrer scope, with org. and account. texts', () => {
    const table = links();
    table.generated(1, 'ship', typed('pipeline'));
    table.generated(2, 'p', typed('project'));
    expect(table.referFrom(0)('pipeline', 'ship')).toMatchObject({ kind: 'ref', module: 'ship.ts', name: 'ship' });
    expect(table.referFrom(0)('project', 'p')).toMatchObject({ kind: 'ref', module: 'p.ts' });
    // `org.ship` names an org-level pipeline, not the project's: no such document.
    expect(table.referFrom(0)('pipeline', 'org.ship')).toBeUndefined();
    expect(table.referFrom(0)('pipeline', 'account.ship')).toBeUndefined();
    expect(table.referFrom(0)('pipeline', '<+input>')).toBeUndefined();
  });

  it('never refers to a later document: a reference back (which would make an import cycle) stays text', () => {
    const table = links();
    table.generated(0, 'values', typed('inputSet'));
    table.generated(1, 'ship', typed('pipeline'));
    expect(table.referFrom(1)('inputSet', 'values', { parent: 'ship' })).toBeUndefined();
    expect(table.referFrom(1)('pipeline', 'ship')).toBeUndefined();
  });

  it('keeps a reference to a module written with raw.* as text: its builder is not the kind the option takes', () => {
    const table = links();
    table.generated(1, 'ship', typed('raw.pipeline'));
    expect(table.referFrom(0)('pipeline', 'ship')).toBeUndefined();
  });

  it('writes relative ESM paths with .js', () => {
    expect(specifier('input-sets/o/p/values.ts', 'pipelines/o/p/ship.ts')).toBe('../../../pipelines/o/p/ship.js');
    expect(specifier('values.ts', 'ship.ts')).toBe('./ship.js');
  });
});

describe('checking a module with the modules it imports', () => {
  // A pipeline module, and an input set module that imports it: the pipeline is given as context, for its type.
  const pipelineModule = {
    path: 'pipelines/ship.ts',
    text: "import { pipeline } from 'pipewright';\nexport const ship = pipeline({ identifier: 'ship', project: 'web' });\nexport const broken: number = 'not a number';\n",
    context: true,
  };
  const inputSetModule = (pipeline: string) => ({
    path: 'input-sets/values.ts',
    text: `import { inputSet } from 'pipewright';\nimport { ship } from '../pipelines/ship.js';\nexport const values = inputSet({ identifier: 'values', project: 'web', pipeline: ${pipeline} });\n`,
  });

  it('in this thread: a module is checked against the real type of what it imports; the context is not checked', () => {
    const check = createTypeChecker('/tmp/pipewright-links-check');
    const [fine, context] = check([inputSetModule('ship'), pipelineModule]);
    expect(fine).toEqual([]);
    // The context's own error is not reported: it is checked as a module of its own.
    expect(context).toEqual([]);
    const [refused] = check([inputSetModule('ship.identifier.length'), pipelineModule]);
    expect(refused!.map((problem) => problem.diagnostic.message).join('\n')).toMatch(/not assignable/);
  });

  it('in TypeScript 7 the same', async () => {
    const compiler = nativeCompiler();
    expect(compiler).toBeDefined();
    const [fine, context] = await nativeChecker(compiler!)([inputSetModule('ship'), pipelineModule]);
    expect(fine).toEqual([]);
    expect(context).toEqual([]);
    const [refused] = await nativeChecker(compiler!)([inputSetModule('ship.identifier.length'), pipelineModule]);
    expect(refused!.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('references in files mode', () => {
  it('imports from the same folder, under another name where the export name is taken here', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const yaml = join(dir, 'ship.yaml');
      await writeFile(
        yaml,
        [
          'pipeline:\n  name: ship\n  identifier: ship\n  orgIdentifier: default\n  projectIdentifier: web\n  stages:\n    - stage:\n        name: s\n        identifier: s\n        type: Custom\n        spec:\n          execution:\n            steps:\n              - step:\n                  type: Wait\n                  name: w\n                  identifier: w\n                  spec:\n                    duration: <+input>\n',
          'inputSet:\n  name: ship\n  identifier: ship\n  orgIdentifier: default\n  projectIdentifier: web\n  pipeline:\n    identifier: ship\n    stages:\n      - stage:\n          identifier: s\n          type: Custom\n          spec:\n            execution:\n              steps:\n                - step:\n                    identifier: w\n                    type: Wait\n                    spec:\n                      duration: 1m\n',
        ].join('---\n'),
      );
      const imported = await runCli(['import', yaml, '-o', 'ts'], { cwd: dir });
      expect(imported.code).toBe(0);
      const text = await readFile(join(dir, 'ts', 'ship_inputSet.ts'), 'utf8');
      expect(text).toContain("import { ship as shipPipeline } from './ship.js';");
      expect(text).toContain('pipeline: shipPipeline,');
      const compiled = await runCli(['compile', 'ts/*.ts', '-o', 'out'], { cwd: dir });
      expect(compiled.stderr).toBe('');
      expect(compiled.code).toBe(0);
    } finally {
      await cleanup();
    }
  }, 120_000);
});
