import { describe, expect, it } from 'vitest';
import { synth } from 'pipewright/testing';
import {
  custom,
  input,
  pipeline,
  project,
  shell,
  stageTemplate,
  stepTemplate,
  template,
  type StepTemplateBuilder,
} from 'pipewright';

const web = project({ identifier: 'web' });
/** The README's form: a template whose spec is a builder, with two runtime inputs. */
const echo = template.step({
  identifier: 'echo',
  project: web,
  versionLabel: 'v1',
  spec: shell({ identifier: 'echo', script: input(), timeout: input() }),
});
const using = (step: StepTemplateBuilder) =>
  pipeline({ identifier: 'p', project: web })
    .stage(custom({ identifier: 's' }))
    .step(step);
const messages = (...resources: Parameters<typeof synth>[0][]) =>
  synth([web, echo, ...(resources as never[])]).diagnostics.map((d) => `${d.code}: ${d.message} (${d.hint})`);

describe('templateInputs of a template whose spec is a builder', () => {
  it('takes values for the runtime inputs of the built step', () => {
    const use = stepTemplate({
      identifier: 'hi',
      templateRef: echo,
      templateInputs: {
        type: 'ShellScript',
        timeout: '5m',
        spec: { source: { type: 'Inline', spec: { script: 'x' } } },
      },
    });
    expect(messages(using(use))).toEqual([]);
  });

  it('refuses a misspelt field at the call, naming the inputs the template has', () => {
    // The types refuse it too; a definition compiled without a type check must not publish it silently.
    const use = stepTemplate({ identifier: 'hi', templateRef: echo, templateInputs: { timout: '5m' } as never });
    expect(messages(using(use))).toEqual([
      'unknown-option: stepTemplate() templateInputs.timout is not a runtime input of template "echo" (did you mean "timeout"? (its runtime inputs are spec.source.spec.script, timeout))',
    ]);
  });

  it('refuses a value for a field the template fixes', () => {
    const use = stepTemplate({
      identifier: 'hi',
      templateRef: echo,
      templateInputs: { spec: { shell: 'PowerShell' } },
    });
    expect(messages(using(use))).toEqual([
      'unknown-option: stepTemplate() templateInputs.spec.shell is not a runtime input of template "echo" (its runtime inputs are spec.source.spec.script, timeout; give values only for those (with the type, identifier and name that say where they are))',
    ]);
  });

  it('checks a stage template by its stages and steps identities', () => {
    const stageWithInput = template.stage({
      identifier: 'cs',
      project: web,
      versionLabel: 'v1',
      spec: custom({ identifier: 'cs', variables: { env: input() } }).step(
        shell({ identifier: 'run', script: 'echo', timeout: input() }),
      ),
    });
    const use = (templateInputs: Record<string, unknown>) =>
      pipeline({ identifier: 'p', project: web }).stage(
        stageTemplate({ identifier: 'c', templateRef: stageWithInput, templateInputs: templateInputs as never }),
      );
    const found = (templateInputs: Record<string, unknown>) =>
      synth([web, stageWithInput, use(templateInputs)]).diagnostics.map((d) => d.message);
    expect(
      found({
        type: 'Custom',
        variables: [{ name: 'env', type: 'String', value: 'prod' }],
        spec: { execution: { steps: [{ step: { identifier: 'run', type: 'ShellScript', timeout: '1m' } }] } },
      }),
    ).toEqual([]);
    expect(found({ spec: { execution: { steps: [{ step: { identifier: 'other', timeout: '1m' } }] } } })).toEqual([
      'stageTemplate() templateInputs.spec.execution.steps.other is not a runtime input of template "cs"',
    ]);
  });

  it('leaves a template named by its identifier alone (another document)', () => {
    const use = stepTemplate({ identifier: 'hi', templateRef: 'echo', versionLabel: 'v1', templateInputs: { any: 1 } });
    expect(messages(using(use))).toEqual([]);
  });
});
