import { describe, expect, it } from 'vitest';
import { custom, pipeline, shell, step as anyStep, stepGroup } from 'pipewright';
import { unknownKeys } from '../src/check/key-typos.js';
import { checkDocument, validateDocument } from '../src/check/check-document.js';
import { lift } from '../src/ir/lift.js';
import { lower } from '../src/ir/lower.js';
import type { IrNode } from '../src/ir/node.js';
import { TOO_DEEP, walk, type Rule } from '../src/check/walk.js';

const step = (identifier: string, extra: Record<string, unknown> = {}) => ({
  step: {
    identifier,
    name: identifier,
    type: 'ShellScript',
    timeout: '1m',
    spec: { shell: 'Bash', source: { type: 'Inline', spec: { script: 'echo' } } },
    ...extra,
  },
});

/** A pipeline document with every structure lift knows: parallel stages, step groups, parallel steps, rollback steps. */
const wire = () => ({
  pipeline: {
    identifier: 'p',
    name: 'p',
    projectIdentifier: 'web',
    orgIdentifier: 'default',
    stages: [
      {
        stage: {
          identifier: 'a',
          name: 'a',
          type: 'Custom',
          spec: {
            execution: {
              steps: [
                step('one'),
                { parallel: [step('two'), step('three', { strategy: { repeat: { items: ['x', 'y'] } } })] },
                {
                  stepGroup: {
                    identifier: 'g',
                    name: 'g',
                    stepGroupInfra: { type: 'KubernetesDirect', spec: {} },
                    steps: [step('four')],
                  },
                },
              ],
              rollbackSteps: [step('back')],
            },
          },
        },
      },
      {
        parallel: [
          { stage: { identifier: 'b', name: 'b', type: 'Custom', spec: {} } },
          { stage: { identifier: 'c', name: 'c', type: 'Approval', spec: {} } },
        ],
      },
    ],
  },
});

/** Every node of a tree, depth first. */
const nodes = (node: IrNode): IrNode[] => [node, ...node.children.flatMap((child) => nodes(child.node))];

describe('the skeleton IR', () => {
  it('lifts a pipeline into pipeline, stage, parallel, step group and step nodes, and lowers it back unchanged', () => {
    const document = wire();
    const root = lift('pipeline', document);
    expect(nodes(root).map((node) => `${node.kind}:${node.identifier ?? ''}`)).toEqual([
      'pipeline:p',
      'stage:a',
      'step:one',
      'parallel:',
      'step:two',
      'step:three',
      'stepGroup:g',
      'step:four',
      'step:back',
      'parallel:',
      'stage:b',
      'stage:c',
    ]);
    expect(root.key).toMatchObject({ kind: 'pipeline', org: 'default', project: 'web', identifier: 'p' });
    expect(lower(root)).toEqual(wire());
  });

  it('keeps keys beside the root key as data around the lifted pipeline, so its steps are still checked', () => {
    const document = { ...wire(), extra: { note: 'kept' } };
    const root = lift('pipeline', document);
    expect(root.kind).toBe('raw');
    expect(nodes(root).filter((node) => node.kind === 'step')).toHaveLength(5);
    expect(lower(root)).toEqual({ ...wire(), extra: { note: 'kept' } });
    const twice = { ...wire(), extra: {} };
    (twice.pipeline.stages[0]!.stage!.spec.execution!.steps as unknown[]).push(step('one'));
    expect(validateDocument('pipeline', twice).map((d) => d.code)).toContain('duplicate-identifier');
  });

  it('keeps an element with a key beside its wrapper as raw data, so lowering loses nothing', () => {
    const odd = { step: step('x').step, note: 'beside' };
    const document = wire();
    (document.pipeline.stages[0]!.stage!.spec.execution!.steps as unknown[]).push(odd);
    const root = lift('pipeline', document);
    expect(nodes(root).some((node) => node.kind === 'raw' && node.body === odd)).toBe(true);
    expect(lower(root)).toEqual(document);
  });

  it('makes frozen nodes, from builders as from YAML, with the builder call as their site', () => {
    const built = pipeline({ identifier: 'p', project: 'web' })
      .stage(custom({ identifier: 's' }))
      .step(shell({ identifier: 'x', script: 'echo' }))
      .toNode();
    for (const node of [...nodes(built), ...nodes(lift('pipeline', wire()))]) expect(Object.isFrozen(node)).toBe(true);
    expect(nodes(built).find((node) => node.kind === 'step')?.site?.location).toEqual({
      file: 'test/ir.test.ts',
      line: expect.any(Number),
      column: expect.any(Number),
    });
    expect(nodes(lift('pipeline', wire())).every((node) => node.site === undefined)).toBe(true);
  });
});

describe('the one walk', () => {
  /** What a rule sees at each step: its stage, list, containerisation and looping. */
  const seen: Rule<string[]> = {
    code: 'possible-secret',
    init: () => [],
    step(node, at, state) {
      state.push(
        `${node.identifier} in ${at.stage?.node.identifier}/${at.list?.label}${at.containerised ? ' containerised' : ''}${at.looping ? ' looping' : ''}`,
      );
    },
    end(at, state) {
      at.report({ code: 'possible-secret', severity: 'warning', message: state.join('; '), path: [] });
    },
  };

  it('calls a rule at every step with its enclosing stage, list, containerisation and looping', () => {
    const document = wire();
    const walked = walk(lift('pipeline', document), document, 'pipeline', [seen]);
    walked.finish(new Set());
    expect(walked.found[0]![0]!.message.split('; ')).toEqual([
      'one in a/execution.steps',
      'two in a/execution.steps',
      'three in a/execution.steps looping',
      'four in a/the steps of step group "g" containerised',
      'back in a/execution.rollbackSteps',
    ]);
  });

  it('does not call a rule at the nodes of kinds it leaves out', () => {
    const document = wire();
    const walked = walk(lift('pipeline', document), document, 'pipeline', [{ ...seen, kinds: ['inputSet'] }]);
    walked.finish(new Set());
    expect(walked.found[0]![0]!.message).toBe('');
  });

  it('stops a document nested past the limit before recursion could overflow', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 500; i++) deep = { a: deep };
    const document = { pipeline: { identifier: 'p', stages: [], deep } };
    expect(() => walk(lift('pipeline', document), document, 'pipeline', [seen])).toThrow();
    try {
      walk(lift('pipeline', document), document, 'pipeline', [seen]);
    } catch (error) {
      expect(error).toBe(TOO_DEEP);
    }
    expect(validateDocument('pipeline', document).map((d) => d.code)).toEqual(['too-deep']);
  });

  it('reaches steps inside a step group built with the builders as it reaches lifted ones', () => {
    const built = pipeline({ identifier: 'p', project: 'web' })
      .stage(custom({ identifier: 's' }))
      .step(
        stepGroup({ identifier: 'g' }).step(
          shell({ identifier: 'x', script: 'echo' }),
          shell({ identifier: 'x', script: 'echo' }),
        ),
      );
    const node = built.toNode();
    expect(checkDocument('pipeline', node, lower(node)).map((d) => d.code)).toContain('duplicate-identifier');
  });

  it('follows the schema through built nodes: a misspelt key deep in a step group is found where it is written', () => {
    const misspelt = anyStep({
      identifier: 'x',
      type: 'ShellScript',
      timeout: '1m',
      spec: { shell: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { scipt: 'echo' } } },
    });
    const node = pipeline({ identifier: 'p', project: 'web' })
      .stage(custom({ identifier: 's' }))
      .step(stepGroup({ identifier: 'g' }).step(misspelt))
      .toNode();
    const typos = checkDocument('pipeline', node, lower(node)).filter((d) => d.code === 'unknown-key');
    expect(typos.map((d) => [d.path.join('.'), d.hint])).toEqual([
      [
        'pipeline.stages.0.stage.spec.execution.steps.0.stepGroup.steps.0.step.spec.source.spec.scipt',
        'did you mean "script"?',
      ],
    ]);
    // Without the schema to follow, the walk has no fields to compare keys with.
    const walked = walk(node, lower(node), 'pipeline', [unknownKeys]);
    expect(walked.found[0]).toEqual([]);
  });
});
