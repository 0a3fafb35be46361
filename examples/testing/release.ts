import { custom, input, inputSet, pipeline, project, shell } from 'pipewright';

// A building block shared by many pipelines, and a pipeline and input set using it. The test beside this
// example (test/release.test.ts) unit-tests them with `pipewright/testing`, without compiling to files.

export const shop = project({ identifier: 'shop', name: 'Shop', org: 'default' });

/** The smoke test every release ends with: a health check of the deployed service, retried by curl. */
export const smokeTest = (url: string) =>
  shell({ identifier: 'smoke_test', name: 'smoke test', script: `curl --fail --retry 5 ${url}/health`, timeout: '2m' });

export const release = pipeline({
  identifier: 'release',
  name: 'release',
  project: shop,
  variables: { version: input(), region: input().default('eu') },
})
  .stage(custom({ identifier: 'deploy', name: 'deploy' }))
  .step(
    shell({
      identifier: 'roll_out',
      name: 'roll out',
      script: 'echo rolling out <+pipeline.variables.version>',
      timeout: '10m',
    }),
  )
  .step(smokeTest('https://shop.example.com'));

export const nightly = inputSet({
  identifier: 'nightly',
  name: 'nightly',
  pipeline: release,
  values: { variables: [{ name: 'version', type: 'String', value: 'latest' }] },
});
