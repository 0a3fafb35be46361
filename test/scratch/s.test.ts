import { it } from 'vitest';
import { synth } from 'pipewright/testing';
import { pipeline, project, custom, shell, template, stepTemplate, inputSet, input, deployment } from 'pipewright';
const show = (x: any) => { try { const r = synth(x); console.log(r.diagnostics.map((d: any) => `${d.severity} ${d.code}: ${d.path?.join('.')} ${d.message} | ${d.hint ?? ''}`).join('\n') || 'no diagnostics'); } catch (e: any) { console.log('THROWN', e.message); } };
it('1', () => {
  const t = template.step({ identifier: 'echo', project: 'web', versionLabel: 'v1', spec: shell({ identifier: 'echo', script: 'echo <+input>', timeout: '<+input>' } as any) });
  const p = pipeline({ identifier: 'p', project: 'web' }).stage(custom({ identifier: 's' })).step(stepTemplate({ identifier: 'u', templateRef: t, templateInputs: { timout: '5m' } } as any));
  console.log(JSON.stringify(t.toDocument()));
  show([t, p]);
});
it('2', () => {
  const p = pipeline({ identifier: 'p', project: 'web', variables: { tag: input() } }).stage(custom({ identifier: 's' })).step(shell({ identifier: 'x', script: 'echo' }));
  show([p, inputSet({ identifier: 'i', pipeline: p, values: { variables: { tag: 'v1.2.3' } } })]);
});
it('3', () => {
  const p = pipeline({ identifier: 'p', project: 'web' }).stage(custom({ identifier: 's' })).step(shell({ identifier: 'x', script: 'echo', failureStrategies: [{ onFailure: { errors: ['AllErrors'], action: { type: 'Abort' } } }] } as any));
  show([p]);
});
