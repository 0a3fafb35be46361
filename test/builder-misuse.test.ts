/**
 * A builder method that does not apply to a kind of builder (`.step()` on a stage made from a template, `.when()` on
 * a parallel block) is refused twice: in the editor, where the type error carries the sentence (the @ts-expect-error
 * lines of test/types/builders.test-d.ts say which calls are refused; this file checks what the user reads), and at
 * run time, for JavaScript and for definitions compiled without a type check.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  custom,
  dynamic,
  parallel,
  pipeline,
  pipelineStage,
  raw,
  shell,
  stageTemplate,
  stepGroup,
  template,
  wait,
  type AnyResource,
} from 'pipewright';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { typecheck } from '../src/compile/typecheck.js';
import { ROOT, tempDir } from './support/cli.js';

const problems = (...resources: AnyResource[]) =>
  buildAndValidate(
    resources.map((resource, index) => ({ resource, file: 'test/builder-misuse.test.ts', exportName: `r${index}` })),
  ).diagnostics.map((d) => `${d.code}: ${d.message}${d.hint ? ` (${d.hint})` : ''}`);
const say = shell({ identifier: 'say', script: 'echo hi' });
const p = () => pipeline({ identifier: 'p', project: 'web' });
// The calls below are type errors; JavaScript has no types, and this is what it gets.
const js = <T>(builder: T) => builder as any;

describe('misuse refused at run time, naming the builder and saying what to do', () => {
  it('.step() on a stage made from a template', () => {
    const built = js(stageTemplate({ identifier: 'b', templateRef: 'build' }));
    expect(() => built.step(say)).toThrow(
      'stage "b".step(): a stage made from a template has no steps: put the steps in the template',
    );
    expect(() => built.rollbackStep(say)).toThrow(
      'stage "b".rollbackStep(): a stage made from a template has no steps: put the steps in the template',
    );
  });

  it('.step() on a Pipeline stage, and on a catalogue stage whose type has no execution', () => {
    expect(() =>
      js(pipelineStage({ identifier: 'chain', org: 'o', project: 'p', pipeline: 'child' })).step(say),
    ).toThrow(
      'stage "chain".step(): a Pipeline stage runs another pipeline and has no steps of its own: add the steps to a stage of that pipeline',
    );
    expect(() => js(dynamic({ identifier: 'dyn' })).step(say)).toThrow(
      'stage "dyn".step(): a Dynamic stage runs no steps: the platform gives its type no execution',
    );
  });

  it('steps given in the options of a stage that has none are reported, not dropped', () => {
    const stages = [
      dynamic(js({ identifier: 'dyn', steps: [say] })),
      pipelineStage(js({ identifier: 'chain', org: 'o', project: 'p', pipeline: 'child', steps: [say] })),
      stageTemplate(js({ identifier: 'b', templateRef: 'build', steps: [say] })),
    ];
    expect(problems(p().stage(...stages)).filter((line) => line.includes('"steps"'))).toEqual([
      'unknown-option: dynamic() has no option "steps" (a Dynamic stage runs no steps: the platform gives its type no execution)',
      'unknown-option: pipelineStage() has no option "steps" (a Pipeline stage runs another pipeline and has no steps of its own: add the steps to a stage of that pipeline)',
      'unknown-option: stageTemplate() has no option "steps" (a stage made from a template has no steps: put the steps in the template)',
    ]);
  });

  it("a pipeline's .step() after a stage that takes none, and before any stage", () => {
    const after = (stage: unknown) => () => js(p().stage(js(stage))).step(say);
    expect(after(stageTemplate({ identifier: 'b', templateRef: 'build' }))).toThrow(
      'pipeline "p".step(): the last stage takes no steps; a stage made from a template has no steps: put the steps in the template',
    );
    expect(after(parallel(custom({ identifier: 'a' }), custom({ identifier: 'b' })))).toThrow(
      'pipeline "p".step(): the last stage takes no steps; parallel(...) stages have no steps of their own: add the steps to each stage before parallel(...)',
    );
    expect(
      after(raw.stage({ stage: { identifier: 'r', name: 'r', type: 'Custom', spec: { execution: { steps: [] } } } })),
    ).toThrow(
      'pipeline "p".step(): the last stage takes no steps; raw.stage(...) is written as given: put its steps in the element',
    );
    expect(() => p().step(say)).toThrow('pipeline "p".step(): add a stage with .stage() before adding steps');
    // A stage that runs steps still takes them through the pipeline.
    expect(
      problems(
        p()
          .stage(custom({ identifier: 'c' }))
          .step(say),
      ),
    ).toEqual([]);
  });

  it('.step() on parallel(...) stages, and on a step group made from a template', () => {
    expect(() => js(parallel(custom({ identifier: 'a' }), custom({ identifier: 'b' }))).step(say)).toThrow(
      'parallel(a+b).step(): parallel(...) stages have no steps of their own: add the steps to each stage before parallel(...)',
    );
    expect(() =>
      js(stepGroup({ identifier: 'checks', template: { templateRef: 'security_checks' } })).step(say),
    ).toThrow(
      'stepGroup "checks".step(): a step group made from a template has no steps of its own: put the steps in the template',
    );
  });

  it('settings on a parallel block of steps are reported when the document is built, not lost', () => {
    const together = js(parallel(say, wait({ identifier: 'pause', duration: '1m' })))
      .timeout('10m')
      .when({ stageStatus: 'Success' });
    expect(problems(p().stage(custom({ identifier: 'c' }).step(together)))).toEqual([
      'unknown-option: parallel(...) steps have no timeout of their own; .timeout() on the group would be lost (set timeout on each step inside parallel(...))',
      'unknown-option: parallel(...) steps have no when of their own; .when() on the group would be lost (set when on each step inside parallel(...))',
    ]);
  });

  it('parallel(...) stages as the one stage of a stage template', () => {
    const both = parallel(custom({ identifier: 'a' }), custom({ identifier: 'b' }));
    expect(() => template.stage({ identifier: 't', versionLabel: 'v1', spec: js(both) })).toThrow(
      'template.stage(): the spec is parallel(...) stages; a stage template holds one stage (make one template per stage)',
    );
  });
});

describe('misuse explained in the editor', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('pipewright-misuse-'));
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
    // Typed against the built declarations (npm test builds first): what a user's project sees.
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      typeRoots: [join(ROOT, 'node_modules/@types')],
      types: ['node'],
      paths: { pipewright: [join(ROOT, 'dist/index.d.ts')] },
    };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions }));
  });
  afterAll(async () => cleanup());

  const head = `import { custom, dynamic, parallel, pipeline, pipelineStage, shell, stageTemplate, stepGroup, wait } from 'pipewright';
const say = shell({ identifier: 'say', script: 'echo hi' });
const both = parallel(custom({ identifier: 'a' }), custom({ identifier: 'b' }));
`;
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    [
      'template-stage',
      `stageTemplate({ identifier: 'b', templateRef: 'build' }).step(say);`,
      'a stage made from a template has no steps: put the steps in the template',
    ],
    [
      'pipeline-stage',
      `pipelineStage({ identifier: 'c', org: 'o', project: 'p', pipeline: 'child' }).step(say);`,
      'a Pipeline stage runs another pipeline and has no steps of its own: add the steps to a stage of that pipeline',
    ],
    [
      'no-execution',
      `dynamic({ identifier: 'dyn' }).step(say);`,
      'a Dynamic stage runs no steps: the platform gives its type no execution',
    ],
    [
      'parallel-when',
      `both.when({ pipelineStatus: 'Success' });`,
      'parallel(...) stages have no when of their own: set when on each stage inside parallel(...)',
    ],
    [
      'parallel-step',
      `both.step(say);`,
      'parallel(...) stages have no steps of their own: add the steps to each stage before parallel(...)',
    ],
    [
      'pipeline-after-parallel',
      `pipeline({ identifier: 'p', project: 'web' }).stage(both).step(say);`,
      'parallel(...) stages have no steps of their own: add the steps to each stage before parallel(...)',
    ],
    [
      'parallel-steps-timeout',
      `parallel(say, wait({ identifier: 'w', duration: '1m' })).timeout('10m');`,
      'parallel(...) steps have no timeout of their own: set timeout on each step inside parallel(...)',
    ],
    [
      'template-group',
      `stepGroup({ identifier: 'g', template: { templateRef: 'checks' } }).step(say);`,
      'a step group made from a template has no steps of its own: put the steps in the template',
    ],
    [
      'template-pipeline',
      `pipeline({ identifier: 'p', project: 'web', template: { templateRef: 'flow' } }).stage(custom({ identifier: 'c' }));`,
      'a pipeline made from a template has no stages of its own: put the stages in the template',
    ],
  ];

  it('shows the sentence in the type error of each misuse, and nothing else', async () => {
    const files = await Promise.all(
      cases.map(async ([name, line]) => {
        await writeFile(join(dir, `${name}.ts`), `${head}${line}\nexport {};\n`);
        return `${name}.ts`;
      }),
    );
    const diagnostics = await typecheck({ files, cwd: dir });
    const byFile = (name: string) => diagnostics.filter((d) => d.location?.file === `${name}.ts`).map((d) => d.message);
    for (const [name, , sentence] of cases) {
      const messages = byFile(name);
      expect(messages, name).toHaveLength(1);
      expect(messages[0], name).toContain(`PipewrightTypeError<"${sentence}">`);
    }
  });
});
