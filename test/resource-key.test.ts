import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { kindRow, type ResourceKind } from '../src/catalog/kinds.js';
import {
  canSee,
  describeKey,
  keyId,
  keyName,
  keyOf,
  parseReference,
  platformText,
  referenceText,
  type ReferenceScope,
  type ReferenceTarget,
  type ResourceKey,
} from '../src/catalog/resource-key.js';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { publishDocument } from '../src/platform/document.js';
import { validateBatch, validateFiles } from '../src/validate/validate-files.js';
import { generatedFile } from '../src/yaml/emit-yaml.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import {
  connector,
  deployment,
  environment,
  infrastructure,
  inputSet,
  pipeline,
  project,
  service,
  shell,
  stage,
  template,
  type AnyResource,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'pipewright-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let written = 0;
/** A YAML file in the test's folder. */
const file = (text: string): string => {
  const path = join(dir, `f${written++}.yaml`);
  writeFileSync(path, text);
  return path;
};

/** The body of a one-document YAML text, as the shared reader reads it (the platform's scalar typing). */
const body = (yaml: string) => {
  const value = readYaml(yaml, 'x.yaml').documents[0]!.value as Record<string, Record<string, unknown>>;
  return Object.values(value)[0];
};

describe('keyOf reads identity fields as the platform does', () => {
  it('takes a YAML number or boolean in an identity field as the platform text of it', () => {
    const key = (versionLabel: string) =>
      keyOf(
        'template',
        body(`template:\n  identifier: echo\n  versionLabel: ${versionLabel}\n  orgIdentifier: default\n`),
      )!.version;
    expect(key('1')).toBe('1');
    expect(key('"1"')).toBe('1');
    expect(key('2.5')).toBe('2.5');
    // YAML 1.1 as the platform reads it: an octal integer, a boolean word, a float in scientific form.
    expect(key('0123')).toBe('83');
    expect(key('yes')).toBe('true');
    expect(key('1.5e-4')).toBe('1.5E-4');
    expect(key('97e0087')).toBe('9.7E88');
    expect(key('v1')).toBe('v1');
    expect(keyOf('connector', body('connector:\n  identifier: gh\n  orgIdentifier: 42\n'))).toEqual({
      kind: 'connector',
      identifier: 'gh',
      org: '42',
    });
  });

  it('has no identifier, org, owner or version where the field is empty, null or not a scalar', () => {
    expect(keyOf('pipeline', { identifier: '' })).toBeUndefined();
    expect(keyOf('pipeline', { identifier: { a: 1 } })).toBeUndefined();
    expect(keyOf('pipeline', 'deploy')).toBeUndefined();
    expect(
      keyOf('inputSet', {
        identifier: 'i',
        orgIdentifier: '',
        projectIdentifier: null,
        pipeline: { identifier: ['p'] },
      }),
    ).toEqual({ kind: 'inputSet', identifier: 'i' });
    // A project cannot live in a project: its projectIdentifier is no part of its identity.
    expect(keyOf('project', { identifier: 'web', orgIdentifier: 'o', projectIdentifier: 'x' })).toEqual({
      kind: 'project',
      identifier: 'web',
      org: 'o',
    });
  });

  it('prints numbers as Java does for the values the reader cannot tell apart from integers', () => {
    expect([
      platformText(1),
      platformText(-0),
      platformText(0.001),
      platformText(12345678.5),
      platformText(true),
      platformText(null),
    ]).toEqual(['1', '0', '0.001', '1.23456785E7', 'true', undefined]);
  });
});

describe('the renderings of a key', () => {
  const version: ResourceKey = { kind: 'template', org: 'default', project: 'web', identifier: 'echo', version: '1' };
  const owned: ResourceKey = { kind: 'inputSet', org: 'default', project: 'web', parent: 'deploy', identifier: 'prod' };
  it('words, short name and map key', () => {
    expect(describeKey(version)).toBe('template "echo" (version 1) in project default/web');
    expect(describeKey(owned)).toBe('input set "prod" of "deploy" in project default/web');
    expect(describeKey({ kind: 'connector', identifier: 'gh' })).toBe('connector "gh" in the account');
    expect(keyName(version)).toBe('default/web/echo@1');
    expect(keyName(owned)).toBe('default/web/deploy/prod');
    expect(keyName({ kind: 'project', org: 'default', identifier: 'web' })).toBe('default/web');
    expect(keyId(version)).not.toBe(keyId({ ...version, version: '2' }));
    expect(keyId(owned)).not.toBe(keyId({ ...owned, parent: 'other' }));
    expect(keyId({ kind: 'connector', identifier: 'gh' })).not.toBe(
      keyId({ kind: 'connector', org: 'default', identifier: 'gh' }),
    );
  });
});

const name = fc.stringMatching(/^[a-zA-Z_][0-9a-zA-Z_]{0,8}$/);
const scope = fc.oneof(
  fc.constant({}),
  name.map((org) => ({ org })),
  fc.tuple(name, name).map(([org, project]) => ({ org, project })),
);
const target = fc.tuple(name, scope).map(([identifier, at]): ReferenceTarget => ({ identifier, ...at }));

describe('the reference codec', () => {
  it('reads back what it writes, from every scope that can see the target; writes nothing for one that cannot', () => {
    fc.assert(
      fc.property(target, scope, fc.boolean(), (to, from: ReferenceScope, sameOrg) => {
        // Half the time the referrer shares the target's org, so that most pairs can see each other.
        const referrer = sameOrg && to.org !== undefined ? { ...from, org: to.org } : from;
        const text = referenceText(to, referrer);
        if (!canSee(referrer, to)) {
          expect(text).toBeUndefined();
          return;
        }
        expect(text).toBe(referenceText(to));
        expect(parseReference(text!, referrer)).toEqual(to);
      }),
      { numRuns: 300 },
    );
  });

  it('names the scope by prefix, and reads a bare identifier in the referrer own scope', () => {
    expect(referenceText({ identifier: 'gh' })).toBe('account.gh');
    expect(referenceText({ identifier: 'gh', org: 'o' })).toBe('org.gh');
    expect(referenceText({ identifier: 'gh', org: 'o', project: 'p' })).toBe('gh');
    expect(referenceText({ identifier: 'gh', org: 'o', project: 'p' }, { org: 'o', project: 'q' })).toBeUndefined();
    expect(referenceText({ identifier: 'gh', org: 'o' }, { org: 'other' })).toBeUndefined();
    expect(parseReference('gh', { org: 'o' })).toEqual({ identifier: 'gh', org: 'o' });
    expect(parseReference('gh', {})).toEqual({ identifier: 'gh' });
    expect(parseReference('account.gh', { org: 'o', project: 'p' })).toEqual({ identifier: 'gh' });
  });

  it('reads no reference from an expression, an empty identifier, or `org.` where there is no org', () => {
    expect(parseReference('<+input>', { org: 'o' })).toBeUndefined();
    expect(parseReference('org.', { org: 'o' })).toBeUndefined();
    expect(parseReference('', { org: 'o' })).toBeUndefined();
    expect(parseReference('org.gh', {})).toBeUndefined();
  });
});

/** Versions a user may write that YAML would read as something else unless quoted. */
const versionLabel = fc.oneof(
  fc.constantFrom('1', '2', '1.0', '0123', '1e3', 'true', 'yes', '0x1F', '1_000'),
  fc.stringMatching(/^[0-9a-zA-Z][0-9a-zA-Z._-]{0,6}$/),
);
const placement = fc.oneof(
  fc.constant({ account: true as const }),
  name.map((org) => ({ org })),
  fc.tuple(name, name).map(([org, project]) => ({ org, project })),
);
const projectPlacement = fc.tuple(name, name).map(([org, project]) => ({ org, project }));
const spec = shell({ identifier: 'x', script: 'echo hi', timeout: '10m' });

/** A builder of one of several kinds, with its identity drawn at random. */
const arbitraryBuilder: fc.Arbitrary<AnyResource> = fc.oneof(
  fc.record({ id: name, at: placement }).map(({ id, at }) =>
    connector({
      identifier: id,
      ...at,
      type: 'Github',
      spec: {
        url: 'https://github.com/o',
        type: 'Account',
        validationRepo: 'r',
        authentication: { type: 'Http', spec: { type: 'UsernameToken', spec: { username: 'u', tokenRef: 't' } } },
        apiAccess: { type: 'Token', spec: { tokenRef: 't' } },
      },
    }),
  ),
  fc
    .record({ id: name, at: placement, version: versionLabel })
    .map(({ id, at, version }) => template.step({ identifier: id, ...at, versionLabel: version, spec })),
  fc
    .record({ id: name, at: projectPlacement })
    .map(({ id, at }) => service({ identifier: id, ...at, deploymentType: 'Kubernetes', spec: { manifests: [] } })),
  fc.record({ id: name, at: projectPlacement, env: name }).map(({ id, at, env }) =>
    infrastructure({
      identifier: id,
      environment: environment({ identifier: env, ...at, type: 'Production' }),
      deploymentType: 'Kubernetes',
      type: 'KubernetesDirect',
      spec: { connectorRef: 'c', namespace: 'n', releaseName: 'r' },
    }),
  ),
  fc
    .record({ id: name, at: projectPlacement, of: name })
    .map(({ id, at, of }) => inputSet({ identifier: id, ...at, pipeline: of, values: {} })),
  fc.record({ id: name, org: name }).map(({ id, org }) => project({ identifier: id, org })),
);

describe('one identity for compile, validate and publish', () => {
  it("compile's key for a builder is validate's and publish's key for the YAML compile writes", () => {
    fc.assert(
      fc.property(arbitraryBuilder, (resource) => {
        const { documents } = buildAndValidate([{ resource, file: 'x.ts', exportName: 'x' }]);
        const { key, document } = documents[0]!;
        const text = generatedFile(document, 'x.ts');
        expect(validateBatch([file(text)]).records.map((record) => record.key)).toEqual([key]);
        expect(publishDocument(text).id).toEqual(key);
      }),
      { numRuns: 120 },
    );
  });

  it('writes a builder reference as text that reads back, from the referring document, as the key of its target', () => {
    fc.assert(
      fc.property(name, placement, projectPlacement, (id, at, home) => {
        const hub = connector({
          identifier: id,
          ...at,
          type: 'K8sCluster',
          spec: { credential: { type: 'InheritFromDelegate' } },
        });
        const deploy = pipeline({ identifier: 'deploy', ...home }).stage(
          deployment({
            identifier: 's',
            service: 'api',
            environment: 'prod',
            infrastructure: { connector: hub, namespace: 'ns' },
          }).step(spec),
        );
        const { documents } = buildAndValidate([
          { resource: deploy, file: 'x.ts', exportName: 'x' },
          { resource: hub, file: 'x.ts', exportName: 'hub' },
        ]);
        const [built, target] = documents as [(typeof documents)[number], (typeof documents)[number]];
        const stages = (
          built.document as {
            pipeline: {
              stages: Array<{
                stage: { spec: { infrastructure: { infrastructureDefinition: { spec: { connectorRef: string } } } } };
              }>;
            };
          }
        ).pipeline.stages;
        const text = stages[0]!.stage.spec.infrastructure.infrastructureDefinition.spec.connectorRef;
        if (!canSee(built.key, target.key)) return;
        const { identifier, org, project } = target.key;
        expect(parseReference(text, built.key)).toEqual({
          identifier,
          ...(org ? { org } : {}),
          ...(project ? { project } : {}),
        });
      }),
      { numRuns: 100 },
    );
  });
});

describe('template versions in validate', () => {
  const templateYaml = (versionLabel: string) =>
    [
      'template:',
      '  name: echo',
      '  identifier: echo',
      `  versionLabel: ${versionLabel}`,
      '  orgIdentifier: default',
      '  projectIdentifier: web',
      '  type: Step',
      '  spec:',
      '    type: ShellScript',
      '    timeout: 10m',
      '    spec:',
      '      shell: Bash',
      '      onDelegate: true',
      '      source:',
      '        type: Inline',
      '        spec:',
      '          script: echo hi',
      '',
    ].join('\n');
  const duplicates = async (...files: string[]) =>
    (await validateFiles(files)).flatMap((result) =>
      result.diagnostics
        .filter((d) => d.code === 'duplicate-resource')
        .map((d) => `${d.location.line}:${d.location.column} ${d.message}`),
    );

  it('takes two versions written as numbers in one file for two resources', async () => {
    expect(await duplicates(file(`${templateYaml('1')}---\n${templateYaml('2')}`))).toEqual([]);
    expect(await duplicates(file(templateYaml('1')), file(templateYaml('2')))).toEqual([]);
  });

  it('takes `versionLabel: 1` and `versionLabel: "1"` for one resource: a duplicate', async () => {
    expect(await duplicates(file(`${templateYaml('1')}---\n${templateYaml('"1"')}`))).toEqual([
      '21:15 template "echo" (version 1) in project default/web is defined twice',
    ]);
  });

  it('keys every kind of the table the same way in validate as in publish', () => {
    const kinds = ['pipeline', 'inputSet', 'template'] as const satisfies readonly ResourceKind[];
    for (const kind of kinds) {
      const { rootKey } = kindRow(kind);
      const text = `${rootKey}:\n  identifier: x\n  name: x\n  orgIdentifier: 7\n  projectIdentifier: true\n  versionLabel: 3\n  pipeline:\n    identifier: p\n`;
      expect(validateBatch([file(text)]).records[0]!.key).toEqual(publishDocument(text).id);
    }
  });
});
