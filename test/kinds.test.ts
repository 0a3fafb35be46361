import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  kindOfDocument,
  kindRow,
  KINDS,
  publishRank,
  RESOURCE_KINDS,
  type ResourceKind,
} from '../src/catalog/kinds.js';
import { keyOf, outputPathOf } from '../src/catalog/resource-key.js';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { validateDocument } from '../src/check/check-document.js';
import { raw } from '../src/dsl/raw.js';
import { generateModule } from '../src/import/generate-module.js';
import { publishDocument } from '../src/platform/document.js';

describe('the table of kinds', () => {
  it('declares each kind, root key and folder once', () => {
    for (const field of ['kind', 'rootKey', 'folder'] as const) {
      const values = KINDS.map((row) => row[field]);
      expect(new Set(values).size, field).toBe(values.length);
    }
  });

  it('knows a document by its root key, and nothing else', () => {
    expect(kindOfDocument({ pipeline: {} })).toBe('pipeline');
    expect(kindOfDocument({ connector: {}, extra: 1 })).toBe('connector');
    expect(kindOfDocument({ pipline: {} })).toBeUndefined();
    expect(kindOfDocument(['pipeline'])).toBeUndefined();
    expect(kindOfDocument(null)).toBeUndefined();
  });

  it('publishes in table order: what a document references before the document', () => {
    expect(RESOURCE_KINDS).toEqual([
      'project',
      'connector',
      'service',
      'environment',
      'infrastructure',
      'template',
      'pipeline',
      'inputSet',
      'overlayInputSet',
      'trigger',
    ]);
    expect(publishRank('inputSet')).toBeLessThan(publishRank('overlayInputSet'));
    expect(publishRank('project')).toBeLessThan(publishRank('connector'));
    expect(publishRank('connector')).toBeLessThan(publishRank('pipeline'));
  });

  it('lays out output paths by scope', () => {
    expect(outputPathOf({ kind: 'project', org: 'default', identifier: 'p' })).toBe('projects/default/p.yaml');
    expect(outputPathOf({ kind: 'connector', identifier: 'gh' })).toBe('connectors/_/_/gh.yaml');
    expect(outputPathOf({ kind: 'connector', org: 'o', identifier: 'gh' })).toBe('connectors/o/_/gh.yaml');
    expect(outputPathOf({ kind: 'pipeline', org: 'o', project: 'p', identifier: 'build' })).toBe(
      'pipelines/o/p/build.yaml',
    );
  });
});

/** One minimal valid document of each kind added beside projects, connectors and pipelines. */
const NEW_KINDS = {
  service: { service: { name: 'api', identifier: 'api', orgIdentifier: 'default', projectIdentifier: 'web' } },
  environment: {
    environment: {
      name: 'prod',
      identifier: 'prod',
      type: 'Production',
      orgIdentifier: 'default',
      projectIdentifier: 'web',
    },
  },
  infrastructure: {
    infrastructureDefinition: {
      name: 'k8s',
      identifier: 'k8s',
      environmentRef: 'prod',
      deploymentType: 'Kubernetes',
      type: 'KubernetesDirect',
      spec: { connectorRef: 'cluster', namespace: 'web', releaseName: 'release-<+INFRA_KEY>' },
      orgIdentifier: 'default',
      projectIdentifier: 'web',
    },
  },
  template: {
    template: {
      name: 'echo',
      identifier: 'echo',
      versionLabel: 'v1',
      type: 'Step',
      orgIdentifier: 'default',
      projectIdentifier: 'web',
      spec: { type: 'Wait', spec: { duration: '1m' } },
    },
  },
  inputSet: {
    inputSet: {
      name: 'prod',
      identifier: 'prod',
      orgIdentifier: 'default',
      projectIdentifier: 'web',
      pipeline: { identifier: 'deploy' },
    },
  },
  overlayInputSet: {
    overlayInputSet: {
      name: 'all',
      identifier: 'all',
      orgIdentifier: 'default',
      projectIdentifier: 'web',
      pipelineIdentifier: 'deploy',
      inputSetReferences: ['prod'],
    },
  },
  // The platform's schema lets a trigger go without a source, but the builders (which need one) do not: import
  // would write raw.trigger for it.
  trigger: {
    trigger: {
      name: 'nightly',
      identifier: 'nightly',
      orgIdentifier: 'default',
      projectIdentifier: 'web',
      pipelineIdentifier: 'deploy',
      source: { type: 'Scheduled', spec: { type: 'Cron', spec: { expression: '0 2 * * *' } } },
    },
  },
} as const;

describe('the kinds beyond pipelines', () => {
  it.each(Object.entries(NEW_KINDS))(
    '%s: raw builds it under its root key, valid, laid out by the table',
    (kind, document) => {
      const resource = raw[kind as keyof typeof NEW_KINDS](structuredClone(document) as Record<string, unknown>);
      const { documents, diagnostics } = buildAndValidate([{ resource, file: 'x.ts', exportName: 'x' }]);
      expect(diagnostics).toEqual([]);
      expect(documents[0]!.document).toEqual(document);
      expect(resource.scope).toEqual({ org: 'default', project: 'web' });
      expect(outputPathOf(documents[0]!.key)).toMatch(
        new RegExp(`^${kindRow(kind as ResourceKind).folder}/default/web/`),
      );
    },
  );

  it('keys an infrastructure by its environment and a template by its version', () => {
    expect(keyOf('infrastructure', NEW_KINDS.infrastructure.infrastructureDefinition)).toMatchObject({
      parent: 'prod',
      identifier: 'k8s',
    });
    expect(outputPathOf(keyOf('template', NEW_KINDS.template.template)!)).toBe('templates/default/web/echo/v1.yaml');
    expect(outputPathOf(keyOf('inputSet', NEW_KINDS.inputSet.inputSet)!)).toBe(
      'input-sets/default/web/deploy/prod.yaml',
    );
  });

  it.each(Object.entries(NEW_KINDS))('%s: a document missing its required fields is refused', (kind) => {
    const rootKey = kindRow(kind as ResourceKind).rootKey;
    const codes = validateDocument(kind as ResourceKind, { [rootKey]: { identifier: 'x' } }).map((d) => d.code);
    expect(codes).toContain('missing-field');
  });

  it.each(Object.entries(NEW_KINDS))(
    '%s: import writes the builder call that builds the same document',
    (kind, document) => {
      const { text } = generateModule({
        kind: kind as ResourceKind,
        document: structuredClone(document) as Record<string, unknown>,
        source: 'x.yaml',
      });
      const builder =
        { template: 'template.step', infrastructure: 'infrastructure', trigger: 'trigger.cron' }[kind as string] ??
        kind;
      expect(text).toContain(`${builder}({`);
      expect(text).not.toContain('raw.');
      expect(text).toContain(
        `export const ${document[kindRow(kind as ResourceKind).rootKey as keyof typeof document]['identifier']}`,
      );
    },
  );

  it.each(Object.entries(NEW_KINDS))(
    '%s: publish reads the same identity as layout, parent and version included',
    (kind, document) => {
      const { id } = publishDocument(stringify(document));
      const key = keyOf(
        kind as ResourceKind,
        (document as Record<string, unknown>)[kindRow(kind as ResourceKind).rootKey],
      )!;
      expect(id).toEqual({
        kind,
        org: key.org,
        project: key.project,
        identifier: key.identifier,
        ...(key.parent ? { parent: key.parent } : {}),
        ...(key.version ? { version: key.version } : {}),
      });
    },
  );
});

describe('import of a value a typed option does not take', () => {
  it('keeps to raw.<kind>, so the generated code still type-checks', () => {
    const text = (type: string) =>
      generateModule({
        kind: 'environment',
        document: { environment: { name: 'a', identifier: 'a', type } },
        source: 'x.yaml',
      }).text;
    expect(text('Pre-Production')).toContain('raw.environment(');
    expect(text('PreProduction')).toContain('environment({');
    const service = (type: string) =>
      generateModule({
        kind: 'service',
        document: { service: { name: 'a', identifier: 'a', serviceDefinition: { type, spec: {} } } },
        source: 'x.yaml',
      }).text;
    expect(service('Kubernetes')).toContain('service({');
    expect(service('Kubernetess')).toContain('raw.service(');
  });
});
