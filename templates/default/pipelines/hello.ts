import { custom, expr, input, pipeline, shell } from 'pipewright';
import { appProject } from './project.js';

// Every exported pipeline, project or connector becomes one YAML file in out/ when you run
// `npx pipewright compile`. Rename this file, change it, or copy it: the compiler picks up every
// file matched by `include` in pipewright.config.ts.
export const hello = pipeline({
  identifier: 'hello',
  name: 'hello',
  project: appProject,
  // Pipeline variables; `input()` becomes `<+input>`, asked for when the pipeline runs.
  variables: {
    greeting: { type: 'String', value: input().default('hello') },
  },
})
  // A Custom stage runs steps without a service or an environment. Other stages: deployment(), ci(), approval().
  .stage(custom({ identifier: 'greet', name: 'greet' }))
  // .step() adds to the stage added last.
  .step(
    shell({
      identifier: 'say_hello',
      name: 'say hello',
      // expr`` writes platform expressions (<+...>) with typed references.
      script: expr`echo "${expr.pipeline.variable('greeting')} from run ${expr.pipeline.sequenceId}"`,
      timeout: '5m',
    }),
  );
