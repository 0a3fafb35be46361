import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  action,
  buildAndPushDockerRegistry,
  ci,
  connectors,
  expr,
  input,
  parallel,
  pipeline,
  plugin,
  run,
  runTests,
  stepGroup,
  type Expr,
} from 'pipewright';
import { fixture, roundTrip } from './support/fixtures.js';

/** Each test rebuilds a corpus fixture with the typed builders: builder -> document -> YAML -> data equals the fixture. */
const payments = (identifier: string, name: string) => ({ identifier, name, project: 'payments' });
const cloud = { platform: { os: 'Linux', arch: 'Amd64' }, runtime: 'Cloud' } as const;
const dockerhub = connectors.dockerRegistry({ identifier: 'dockerhub', account: true });

describe('CI builders', () => {
  it('ci() on Harness Cloud with a codebase, caching and Run steps with reports', async () => {
    const built = pipeline({
      ...payments('web_build', 'web build'),
      tags: { team: 'web' },
      codebase: { connectorRef: 'account.github', repoName: 'payments-web', build: input() },
    }).stage(
      ci({
        identifier: 'build',
        name: 'Build and test',
        description: 'Lint, test and bundle the web app on Harness Cloud',
        cloneCodebase: true,
        caching: { enabled: true },
        ...cloud,
      }).step(
        run({ identifier: 'install', name: 'Install', shell: 'Sh', command: 'npm ci' }),
        run({
          identifier: 'test',
          name: 'Test',
          shell: 'Sh',
          command: 'npm run lint\nnpm test -- --reporters=default --reporters=jest-junit',
          reports: { type: 'JUnit', spec: { paths: ['junit.xml'] } },
          envVariables: { CI: 'true', JEST_JUNIT_OUTPUT_DIR: '.' },
          timeout: '20m',
        }),
      ),
    );
    expect(roundTrip(built)).toEqual(await fixture('ci-nodejs-cloud'));
  });

  it('ci() on a Kubernetes cluster; buildAndPushDockerRegistry with a connector builder as connectorRef', async () => {
    const built = pipeline({
      ...payments('api_image', 'api image'),
      codebase: {
        connectorRef: 'github_payments_api',
        build: { type: 'branch', spec: { branch: expr.trigger.branch } },
        depth: 50,
        prCloneStrategy: 'MergeCommit',
      },
    }).stage(
      ci({
        identifier: 'build',
        name: 'Build',
        cloneCodebase: true,
        infrastructure: {
          type: 'KubernetesDirect',
          spec: {
            connectorRef: 'org.build_cluster',
            namespace: 'harness-builds',
            automountServiceAccountToken: true,
            nodeSelector: {},
            os: 'Linux',
          },
        },
        sharedPaths: ['/var/run'],
      }).step(
        run({
          identifier: 'unit_tests',
          name: 'Unit tests',
          connectorRef: dockerhub,
          image: 'golang:1.22',
          shell: 'Bash',
          command: 'go test ./...',
          resources: { limits: { memory: '2Gi', cpu: '1' } },
        }),
        buildAndPushDockerRegistry({
          identifier: 'push_image',
          name: 'Push image',
          connectorRef: dockerhub,
          repo: 'payments/api',
          tags: [expr.pipeline.sequenceId, expr.raw('codebase.shortCommitSha')],
          dockerfile: 'build/Dockerfile',
          context: '.',
          labels: { 'org.opencontainers.image.source': 'https://github.com/payments/api' },
          buildArgs: { GO_VERSION: '1.22' },
          optimize: true,
          timeout: '30m',
        }),
      ),
    );
    expect(roundTrip(built)).toEqual(await fixture('ci-k8s-build-push'));
  });

  it('runTests() with Test Intelligence and test splitting', async () => {
    const built = pipeline({
      ...payments('ledger_tests', 'ledger tests'),
      codebase: {
        connectorRef: 'github_ledger',
        build: { type: 'PR', spec: { number: expr.raw('trigger.prNumber') } },
      },
    }).stage(
      ci({ identifier: 'test', name: 'Test', cloneCodebase: true, ...cloud }).step(
        runTests({
          identifier: 'run_tests',
          name: 'Run tests with Test Intelligence',
          language: 'Java',
          buildTool: 'Maven',
          args: 'test -DfailIfNoTests=false',
          packages: 'com.example.ledger',
          runOnlySelectedTests: true,
          testAnnotations: 'org.junit.Test',
          preCommand: './mvnw -q dependency:go-offline',
          reports: { type: 'JUnit', spec: { paths: ['**/target/surefire-reports/*.xml'] } },
          enableTestSplitting: true,
          timeout: '1h',
        }),
      ),
    );
    expect(roundTrip(built)).toEqual(await fixture('ci-run-tests-java'));
  });

  it('action() and plugin(), with a when condition', async () => {
    const built = pipeline({
      ...payments('cli_release', 'cli release'),
      codebase: { connectorRef: 'github_cli', build: { type: 'tag', spec: { tag: expr.raw('trigger.tag') } } },
    }).stage(
      ci({
        identifier: 'release',
        name: 'Release',
        cloneCodebase: true,
        platform: { os: 'Linux', arch: 'Arm64' },
        runtime: 'Cloud',
      }).step(
        action({
          identifier: 'setup_go',
          name: 'Setup Go',
          uses: 'actions/setup-go@v5',
          with: { 'go-version': '1.22' },
          env: { GOFLAGS: '-mod=mod' },
        }),
        run({ identifier: 'build_binaries', name: 'Build binaries', shell: 'Bash', command: 'make dist' }),
        plugin({
          identifier: 'upload_s3',
          name: 'Upload to S3',
          connectorRef: dockerhub,
          image: 'plugins/s3',
          settings: {
            bucket: 'payments-cli-releases',
            source: 'dist/**/*',
            target: expr.raw('codebase.tag'),
            access_key: expr.secret('aws_access_key'),
            secret_key: expr.secret('aws_secret_key'),
          },
        }),
        plugin({
          identifier: 'notify_slack',
          name: 'Notify Slack',
          image: 'plugins/slack',
          settings: { webhook: expr.secret('slack_webhook'), template: expr`Released ${expr.raw('codebase.tag')}` },
          when: { stageStatus: 'Success' },
        }),
      ),
    );
    expect(roundTrip(built)).toEqual(await fixture('ci-plugin-action'));
  });

  it('a stage matrix, a step parallelism and step repeats', async () => {
    const codebase = { connectorRef: 'account.github', repoName: 'payments-sdk-js', build: input() };
    const matrix = pipeline({ ...payments('sdk_compat', 'sdk compatibility'), codebase }).stage(
      ci({ identifier: 'test_matrix', name: 'Test matrix', cloneCodebase: true, ...cloud })
        .step(
          run({
            identifier: 'test_node',
            name: 'Test on Node',
            connectorRef: dockerhub,
            image: expr`node:${expr.raw('matrix.node')}`,
            shell: 'Sh',
            command: 'npm ci && npm test',
          }),
        )
        .strategy({
          matrix: {
            node: ['18', '20', '22'],
            os: ['linux', 'alpine'],
            exclude: [{ node: '18', os: 'alpine' }],
            maxConcurrency: 3,
            nodeName: 'node-<+matrix.node>-<+matrix.os>',
          },
        }),
    );
    expect(roundTrip(matrix)).toEqual(await fixture('ci-matrix-node-versions'));

    const split = pipeline({
      ...payments('e2e_split', 'e2e split'),
      codebase: {
        connectorRef: 'account.github',
        repoName: 'payments-web',
        build: { type: 'branch', spec: { branch: 'main' } },
      },
    }).stage(
      ci({ identifier: 'e2e', name: 'E2E', cloneCodebase: true, ...cloud }).step(
        run({
          identifier: 'playwright',
          name: 'Playwright shard',
          shell: 'Bash',
          command: 'npx playwright test --shard=$((HARNESS_NODE_INDEX + 1))/$HARNESS_NODE_TOTAL',
          envVariables: { HARNESS_NODE_INDEX: '<+strategy.iteration>', HARNESS_NODE_TOTAL: '<+strategy.iterations>' },
        }).strategy({ parallelism: 4 }),
      ),
    );
    expect(roundTrip(split)).toEqual(await fixture('ci-parallelism-tests'));

    const repeat = pipeline({
      ...payments('multi_jdk', 'multi jdk'),
      codebase: { connectorRef: 'github_ledger', build: input() },
    }).stage(
      ci({ identifier: 'build_per_jdk', name: 'Build per JDK', cloneCodebase: true, ...cloud }).step(
        run({
          identifier: 'compile',
          name: 'Compile',
          connectorRef: dockerhub,
          image: 'eclipse-temurin:<+repeat.item>',
          shell: 'Sh',
          command: './gradlew build',
          strategy: { repeat: { items: ['17', '21'], maxConcurrency: 2 } },
        }),
        run({
          identifier: 'flaky_check',
          name: 'Flaky check',
          shell: 'Sh',
          command: "./gradlew test --tests '*Flaky*'",
          strategy: { repeat: { times: 3 } },
        }),
      ),
    );
    expect(roundTrip(repeat)).toEqual(await fixture('ci-repeat-items'));
  });

  it('parallel() steps and a stepGroup with when and failure strategies', async () => {
    const sh = (identifier: string, name: string, command: string) => run({ identifier, name, shell: 'Sh', command });
    const built = pipeline({
      ...payments('monorepo_checks', 'monorepo checks'),
      codebase: { connectorRef: 'account.github', repoName: 'payments-monorepo', build: input() },
    }).stage(
      ci({ identifier: 'checks', name: 'Checks', cloneCodebase: true, ...cloud }).step(
        parallel(sh('lint', 'Lint', 'pnpm lint'), sh('typecheck', 'Typecheck', 'pnpm tsc --noEmit')),
        stepGroup({
          identifier: 'services',
          name: 'Services',
          when: { stageStatus: 'Success' },
          failureStrategies: [{ action: 'MarkAsFailure' }],
        }).step(
          parallel(
            sh('api_tests', 'API tests', 'pnpm --filter api test'),
            sh('worker_tests', 'Worker tests', 'pnpm --filter worker test'),
          ),
        ),
      ),
    );
    expect(roundTrip(built)).toEqual(await fixture('ci-parallel-step-groups'));
  });

  it('types options from the wire schemas: enums stay literal, expressions fit anywhere, misspelt options do not compile', () => {
    type RunOptions = Parameters<typeof run>[0];
    expectTypeOf<RunOptions['shell']>().toEqualTypeOf<
      'Sh' | 'Bash' | 'Powershell' | 'Pwsh' | 'Python' | `${string}<+${string}` | Expr | undefined
    >();
    expectTypeOf<RunOptions['privileged']>().toEqualTypeOf<boolean | `${string}<+${string}` | Expr | undefined>();
    run({ identifier: 'x', command: 'make', shell: input(), privileged: '<+pipeline.variables.privileged>' });
    // @ts-expect-error: `comand` is not an option of run()
    run({ identifier: 'x', command: 'make', comand: 'make' });
    // @ts-expect-error: a CI platform has no os "Solaris"
    ci({ identifier: 'x', platform: { os: 'Solaris', arch: 'Amd64' } });
  });
});
