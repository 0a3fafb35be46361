import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { kindOfDocument, kindRow, publishRank, type ResourceKind } from '../../src/catalog/kinds.js';
import { keyOf, outputPathOf } from '../../src/catalog/resource-key.js';

/**
 * Writes a compiled output folder (YAML files with pipewright's header, plus manifest.json) the way
 * `pipewright compile` lays it out, for publish tests that need more documents than examples/ has.
 */

/** One document: its root key (`pipeline`, `infrastructureDefinition`, ...) and body. */
export type Doc = Readonly<Record<string, Record<string, unknown>>>;

export const projectDoc = (identifier: string, extra: Record<string, unknown> = {}): Doc => ({
  project: {
    name: `Project ${identifier}`,
    identifier,
    orgIdentifier: 'default',
    color: '#0063F7',
    description: '',
    tags: {},
    modules: [],
    ...extra,
  },
});

export const connectorDoc = (identifier: string, project: string, extra: Record<string, unknown> = {}): Doc => ({
  connector: {
    name: `Registry ${identifier}`,
    identifier,
    description: '',
    orgIdentifier: 'default',
    projectIdentifier: project,
    tags: {},
    type: 'DockerRegistry',
    spec: { dockerRegistryUrl: 'https://index.docker.io/v2/', providerType: 'DockerHub', auth: { type: 'Anonymous' } },
    ...extra,
  },
});

export const pipelineDoc = (identifier: string, project: string, script = `echo "deploying ${identifier}"`): Doc => ({
  pipeline: {
    name: `deploy ${identifier}`,
    identifier,
    projectIdentifier: project,
    orgIdentifier: 'default',
    tags: {},
    stages: [
      {
        stage: {
          name: 'deploy to k8s',
          identifier: 'deploy_to_k8s',
          description: '',
          type: 'Deployment',
          spec: {
            serviceConfig: {
              serviceRef: '<+input>',
              serviceDefinition: { type: 'Kubernetes', spec: { variables: [] } },
            },
            infrastructure: {
              environmentRef: '<+input>',
              infrastructureDefinition: {
                type: 'KubernetesDirect',
                spec: { connectorRef: '<+input>', namespace: '<+input>', releaseName: 'release-<+INFRA_KEY>' },
              },
              allowSimultaneousDeployments: false,
            },
            execution: {
              steps: [
                {
                  step: {
                    type: 'ShellScript',
                    name: 'echo',
                    identifier: 'echo',
                    spec: {
                      shell: 'Bash',
                      onDelegate: true,
                      source: { type: 'Inline', spec: { script } },
                      environmentVariables: [],
                      outputVariables: [],
                      executionTarget: {},
                    },
                    timeout: '10m',
                  },
                },
              ],
              rollbackSteps: [],
            },
          },
          tags: {},
          failureStrategies: [{ onFailure: { errors: ['AllErrors'], action: { type: 'StageRollback' } } }],
        },
      },
    ],
  },
});

const inShop = (identifier: string, project: string, label: string) => ({
  name: `${label} ${identifier}`,
  identifier,
  orgIdentifier: 'default',
  projectIdentifier: project,
  tags: {},
});

export const serviceDoc = (identifier: string, project: string, replicas = '2'): Doc => ({
  service: {
    ...inShop(identifier, project, 'Service'),
    serviceDefinition: {
      type: 'Kubernetes',
      spec: { variables: [{ name: 'replicas', type: 'String', value: replicas }] },
    },
  },
});

export const environmentDoc = (identifier: string, project: string, type = 'PreProduction'): Doc => ({
  environment: { ...inShop(identifier, project, 'Environment'), type, variables: [] },
});

export const infrastructureDoc = (
  identifier: string,
  project: string,
  environmentRef: string,
  namespace = 'shop',
): Doc => ({
  infrastructureDefinition: {
    ...inShop(identifier, project, 'Cluster'),
    environmentRef,
    deploymentType: 'Kubernetes',
    type: 'KubernetesDirect',
    spec: { connectorRef: 'account.k8s', namespace, releaseName: 'release-<+INFRA_KEY>' },
    allowSimultaneousDeployments: false,
  },
});

/** A stage template running one script. */
export const templateDoc = (identifier: string, project: string, versionLabel: string, script = 'make test'): Doc => ({
  template: {
    ...inShop(identifier, project, 'Template'),
    versionLabel,
    type: 'Stage',
    spec: {
      type: 'Custom',
      spec: {
        execution: {
          steps: [
            {
              step: {
                type: 'ShellScript',
                name: 'run',
                identifier: 'run',
                spec: { shell: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { script } } },
                timeout: '10m',
              },
            },
          ],
        },
      },
    },
  },
});

/** A pipeline whose one stage is a template, with a runtime input `target`. */
export const templatedPipelineDoc = (
  identifier: string,
  project: string,
  templateRef: string,
  versionLabel: string,
): Doc => ({
  pipeline: {
    ...inShop(identifier, project, 'Pipeline'),
    variables: [{ name: 'target', type: 'String', value: '<+input>' }],
    stages: [{ stage: { name: 'checks', identifier: 'checks', template: { templateRef, versionLabel } } }],
  },
});

export const inputSetDoc = (identifier: string, project: string, pipeline: string, target = 'eu'): Doc => ({
  inputSet: {
    ...inShop(identifier, project, 'Inputs'),
    pipeline: { identifier: pipeline, variables: [{ name: 'target', type: 'String', value: target }] },
  },
});

export const overlayInputSetDoc = (
  identifier: string,
  project: string,
  pipeline: string,
  inputSetReferences: readonly string[],
): Doc => ({
  overlayInputSet: {
    ...inShop(identifier, project, 'Overlay'),
    pipelineIdentifier: pipeline,
    inputSetReferences: [...inputSetReferences],
  },
});

export const triggerDoc = (
  identifier: string,
  project: string,
  pipeline: string,
  expression = '0 4 * * *',
  inputSetRefs: readonly string[] = [],
): Doc => ({
  trigger: {
    ...inShop(identifier, project, 'Trigger'),
    enabled: true,
    pipelineIdentifier: pipeline,
    source: { type: 'Scheduled', spec: { type: 'Cron', spec: { expression } } },
    ...(inputSetRefs.length ? { inputSetRefs: [...inputSetRefs] } : {}),
  },
});

/** A pipeline whose Deployment stage uses service v2 (`spec.service`), as artifact triggers of today's pipelines do. */
export const serviceV2PipelineDoc = (identifier: string, project: string, serviceRef = 'web'): Doc => ({
  pipeline: {
    ...inShop(identifier, project, 'Pipeline'),
    stages: [
      {
        stage: {
          name: 'deploy',
          identifier: 'deploy',
          type: 'Deployment',
          spec: {
            deploymentType: 'Kubernetes',
            service: { serviceRef },
            environment: {
              environmentRef: 'qa',
              deployToAll: false,
              infrastructureDefinitions: [{ identifier: 'k8s' }],
            },
            execution: {
              steps: [
                {
                  step: {
                    type: 'K8sRollingDeploy',
                    name: 'roll',
                    identifier: 'roll',
                    spec: { skipDryRun: false },
                    timeout: '10m',
                  },
                },
              ],
            },
          },
          failureStrategies: [{ onFailure: { errors: ['AllErrors'], action: { type: 'StageRollback' } } }],
        },
      },
    ],
  },
});

/** A trigger on a new image tag of the pipeline's primary artifact. */
export const artifactTriggerDoc = (
  identifier: string,
  project: string,
  pipeline: string,
  extra: Record<string, unknown> = {},
): Doc => ({
  trigger: {
    ...inShop(identifier, project, 'On image'),
    enabled: true,
    pipelineIdentifier: pipeline,
    source: {
      type: 'Artifact',
      spec: {
        type: 'DockerRegistry',
        spec: { connectorRef: 'hub', imagePath: 'library/web', tag: '<+trigger.artifact.build>' },
      },
    },
    inputYaml: `pipeline:
  identifier: ${pipeline}
`,
    ...extra,
  },
});

/** A trigger on pushes to a GitHub repository. */
export const webhookTriggerDoc = (
  identifier: string,
  project: string,
  pipeline: string,
  repoName = 'app',
  extra: Record<string, unknown> = {},
): Doc => ({
  trigger: {
    ...inShop(identifier, project, 'On push'),
    enabled: true,
    pipelineIdentifier: pipeline,
    source: {
      type: 'Webhook',
      spec: {
        type: 'Github',
        spec: {
          type: 'Push',
          spec: {
            connectorRef: 'github',
            repoName,
            autoAbortPreviousExecutions: false,
            payloadConditions: [],
            headerConditions: [],
            actions: [],
          },
        },
      },
    },
    ...extra,
  },
});

/** The document's kind, from its root key (the table of kinds). */
const kindOf = (doc: Doc): ResourceKind => kindOfDocument(doc)!;
const bodyOf = (doc: Doc) => Object.values(doc)[0] as Record<string, string>;

/** Where compile would put the document (the table of kinds' layout), and its manifest entry. */
function entryOf(doc: Doc, yaml: string) {
  const kind = kindOf(doc);
  const key = keyOf(kind, doc[kindRow(kind).rootKey])!;
  return {
    file: outputPathOf(key),
    kind,
    ...(key.org ? { org: key.org } : {}),
    ...(key.project ? { project: key.project } : {}),
    identifier: key.identifier,
    source: `defs/${key.identifier}.ts`,
    sha256: createHash('sha256').update(yaml).digest('hex'),
  };
}

/** Writes `docs` into `dir` (manifest in publish order); returns the manifest entries. */
export async function writeOutputFolder(dir: string, docs: readonly Doc[]) {
  const entries = [];
  for (const doc of docs) {
    const yaml = `# Generated by pipewright from defs/${bodyOf(doc).identifier}.ts. Do not edit: change the source and run pipewright compile.\n${stringify(doc)}`;
    const entry = entryOf(doc, yaml);
    await mkdir(dirname(join(dir, entry.file)), { recursive: true });
    await writeFile(join(dir, entry.file), yaml);
    entries.push(entry);
  }
  entries.sort((a, b) => publishRank(a.kind) - publishRank(b.kind) || (a.file < b.file ? -1 : 1));
  await writeFile(
    join(dir, 'manifest.json'),
    `${JSON.stringify({ generator: 'pipewright', version: 1, files: entries }, null, 2)}\n`,
  );
  return entries;
}

/** `projects` projects, each with `connectors` connectors and `pipelines` pipelines. */
export function generateDocuments(projects: number, connectors: number, pipelines: number): Doc[] {
  const docs: Doc[] = [];
  for (let p = 0; p < projects; p++) {
    const project = `proj_${p}`;
    docs.push(projectDoc(project));
    for (let c = 0; c < connectors; c++) docs.push(connectorDoc(`registry_${p}_${c}`, project));
    for (let i = 0; i < pipelines; i++) docs.push(pipelineDoc(`deploy_${p}_${i}`, project));
  }
  return docs;
}

export { kindOf, bodyOf };
