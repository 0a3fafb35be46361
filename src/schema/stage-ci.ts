import { z } from 'zod';
import { orExpression } from './common.js';
import { executionSteps } from './pipeline-elements.js';

/** What a CI stage clones: set once at pipeline level in `properties.ci.codebase`. */
export const codebase = z
  .looseObject({
    // Optional on the platform: a Harness Code repository needs no connector.
    connectorRef: z.string().optional().meta({ description: 'Git connector (account, org or repository level).' }),
    repoName: z.string().optional().meta({ description: 'Repository, when the connector is account- or org-level.' }),
    build: orExpression(
      z.discriminatedUnion('type', [
        z.looseObject({ type: z.literal('branch'), spec: z.looseObject({ branch: z.string() }) }),
        z.looseObject({ type: z.literal('tag'), spec: z.looseObject({ tag: z.string() }) }),
        z.looseObject({
          type: z.literal('PR'),
          spec: z.looseObject({ number: z.union([z.number().int(), z.string()]) }),
        }),
        z.looseObject({ type: z.literal('commitSha'), spec: z.looseObject({ commitSha: z.string() }) }),
      ]),
    ).meta({ description: 'What to build: a branch, tag, PR or commit; usually <+input>.', examples: ['<+input>'] }),
    depth: orExpression(z.number().int().nonnegative()).optional(),
    sslVerify: orExpression(z.boolean()).optional(),
    prCloneStrategy: orExpression(z.enum(['MergeCommit', 'SourceBranch'])).optional(),
    submoduleStrategy: z.string().optional(),
    resources: z.looseObject({}).optional(),
    lfs: orExpression(z.boolean()).optional(),
    debug: orExpression(z.boolean()).optional(),
    fetchTags: orExpression(z.boolean()).optional(),
    sparseCheckout: orExpression(z.array(z.string())).optional(),
    cloneDirectory: z.string().optional(),
    preFetchCommand: z.string().optional(),
    persistCredentials: orExpression(z.boolean()).optional(),
  })
  .meta({ title: 'Codebase' });

export const pipelineProperties = z
  .looseObject({ ci: z.looseObject({ codebase: codebase.optional() }).optional() })
  .meta({ description: 'Pipeline-wide settings; ci.codebase is the repository CI stages clone.' });

export const ciSpec = z
  .looseObject({
    cloneCodebase: orExpression(z.boolean()).optional().meta({ description: 'Clone properties.ci.codebase first.' }),
    caching: z
      .looseObject({
        enabled: orExpression(z.boolean()).optional(),
        paths: orExpression(z.array(z.string())).optional(),
        key: z.string().optional(),
        override: orExpression(z.boolean()).optional(),
        policy: orExpression(z.enum(['pull', 'push', 'pull-push'])).optional(),
      })
      .optional(),
    buildIntelligence: z.looseObject({ enabled: orExpression(z.boolean()).optional() }).optional(),
    platform: z
      .looseObject({
        // Both optional in the schema's Platform (the platform defaults them).
        os: orExpression(z.enum(['Linux', 'MacOS', 'Windows'])).optional(),
        arch: orExpression(z.enum(['Amd64', 'Arm64'])).optional(),
      })
      .optional(),
    runtime: z
      .looseObject({ type: z.enum(['Cloud', 'Docker']), spec: z.looseObject({}) })
      .optional()
      .meta({ description: 'Harness Cloud or a local Docker runner; use with platform.' }),
    infrastructure: z
      .looseObject({
        // The platform schema's enum (its infrastructure forms all list these); Harness Cloud is `runtime`, not here.
        type: z
          .enum(['KubernetesDirect', 'UseFromStage', 'VM'])
          .optional()
          .meta({ examples: ['KubernetesDirect', 'VM'] }),
        spec: z
          .looseObject({
            connectorRef: z.string().optional(),
            namespace: z.string().optional(),
            serviceAccountName: z.string().optional(),
            automountServiceAccountToken: orExpression(z.boolean()).optional(),
            nodeSelector: z.record(z.string(), z.string()).optional(),
            annotations: z.record(z.string(), z.string()).optional(),
            labels: z.record(z.string(), z.string()).optional(),
            os: orExpression(z.enum(['Linux', 'MacOS', 'Windows'])).optional(),
            initTimeout: z.string().optional(),
            harnessImageConnectorRef: z.string().optional(),
            // A VM pool: { type: Pool, spec: { poolName, os } }.
            type: z.string().optional(),
            spec: z.looseObject({ poolName: z.string().optional(), os: z.string().optional() }).optional(),
          })
          .optional(),
        useFromStage: z.string().optional(),
      })
      .optional()
      .meta({ description: 'Your own build infrastructure (Kubernetes cluster or VM pool).' }),
    sharedPaths: z.array(z.string()).optional(),
    serviceDependencies: z.array(z.looseObject({})).optional(),
    // Optional in the schema's IntegrationStageConfig (and `ExecutionElementConfig execution` carries no @NotNull
    // in harness-core 332-ci-manager/.../cimanager/stages/IntegrationStageConfigImpl.java L64).
    execution: z.looseObject({ steps: executionSteps }).optional(),
  })
  // Neither runtime nor infrastructure: the schema takes it and the platform saves it; the stage fails when it
  // runs, which the `no-build-infrastructure` rule reports as a warning (check/rules.ts).
  .meta({ title: 'CI stage spec' });
