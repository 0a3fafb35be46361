import { kindRow } from '../catalog/kinds.js';
import { describePath, type DocPath } from '../core/document-path.js';
import { isRecord } from '../core/is-record.js';
import type { Client } from '../platform/client.js';
import { type PublishDocument } from '../platform/document.js';
import type { PublishItem } from './publish-item.js';
import type { ResourceKey } from '../catalog/resource-key.js';
import type { ResourceKind } from '../catalog/kinds.js';
import { keyName } from '../catalog/resource-key.js';

/**
 * What a document's write depends on, for a dry run that predicts the real run's failures: the organization and
 * project it lives in, what it belongs to (an input set's or trigger's pipeline, an infrastructure's environment),
 * the templates it uses and the input sets an overlay combines, which the platform refuses to save without; and
 * the connectors, services and environments it refers to, which the platform saves without but a run of the
 * pipeline then fails on (a missing service or environment is skipped at save: harness-core
 * 125-cd-nextgen/.../creator/filters/DeploymentStageFilterJsonCreatorV2.java L614-630, L680-686).
 */

type Json = Record<string, unknown>;

export interface Dependency {
  /** The resource depended on; an organization is `{ kind: 'organization', identifier }`. */
  readonly target: ResourceKey | { readonly kind: 'organization'; readonly identifier: string };
  /** How the document uses it, for messages: `its project`, `stage "build" > templateRef`. */
  readonly use: string;
  /** Whether the platform refuses the document without it (else it only warns). */
  readonly required: boolean;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

/** `account.x`, `org.x` and `x` as the platform reads a reference from a document in `from`'s scope. */
function scoped(ref: string, from: ResourceKey): { org?: string; project?: string; identifier: string } {
  if (ref.startsWith('account.')) return { identifier: ref.slice('account.'.length) };
  if (ref.startsWith('org.')) return { identifier: ref.slice('org.'.length), ...(from.org ? { org: from.org } : {}) };
  return {
    identifier: ref,
    ...(from.org ? { org: from.org } : {}),
    ...(from.project ? { project: from.project } : {}),
  };
}

/** Reference fields and the kind each names. */
const REFERENCES: ReadonlyArray<{ readonly field: string; readonly kind: ResourceKind; readonly required: boolean }> = [
  { field: 'templateRef', kind: 'template', required: true },
  { field: 'connectorRef', kind: 'connector', required: false },
  { field: 'serviceRef', kind: 'service', required: false },
  { field: 'environmentRef', kind: 'environment', required: false },
];

function references(document: PublishDocument, out: Dependency[]): void {
  const { id, value } = document;
  const root = kindRow(id.kind).rootKey;
  const visit = (node: unknown, at: DocPath) => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, [...at, i]));
    if (!isRecord(node)) return;
    for (const { field, kind, required } of REFERENCES) {
      const ref = text(node[field]);
      // An infrastructure's own environmentRef is its parent, checked as such.
      if (
        !ref ||
        ref.startsWith('<+') ||
        (id.kind === 'infrastructure' && at.length === 0 && field === 'environmentRef')
      )
        continue;
      const version = kind === 'template' ? text(node.versionLabel) : undefined;
      const { subject, field: inside } = describePath(value[root], [...at, field]);
      out.push({
        target: { kind, ...scoped(ref, id), ...(version ? { version } : {}) },
        use: [subject, inside].filter(Boolean).join(' > '),
        required,
      });
    }
    for (const [key, child] of Object.entries(node)) visit(child, [...at, key]);
  };
  visit(value[root], []);
}

/** Everything `document` depends on, each once. */
function dependenciesOf(document: PublishDocument): Dependency[] {
  const { id, value } = document;
  const out: Dependency[] = [];
  if (id.org)
    out.push({ target: { kind: 'organization', identifier: id.org }, use: 'its organization', required: true });
  if (id.project && id.kind !== 'project')
    out.push({ target: { kind: 'project', org: id.org!, identifier: id.project }, use: 'its project', required: true });
  if (id.parent && (id.kind === 'inputSet' || id.kind === 'overlayInputSet' || id.kind === 'trigger'))
    out.push({
      target: { kind: 'pipeline', org: id.org!, project: id.project!, identifier: id.parent },
      use: 'its pipeline',
      required: true,
    });
  if (id.parent && id.kind === 'infrastructure')
    out.push({ target: { kind: 'environment', ...scoped(id.parent, id) }, use: 'its environment', required: true });
  if (id.kind === 'overlayInputSet') {
    const refs = (value.overlayInputSet as Json | undefined)?.inputSetReferences;
    for (const ref of Array.isArray(refs) ? refs : [])
      if (text(ref))
        out.push({
          target: { kind: 'inputSet', org: id.org!, project: id.project!, parent: id.parent!, identifier: text(ref)! },
          use: 'inputSetReferences',
          required: true,
        });
  }
  references(document, out);
  const seen = new Set<string>();
  return out.filter((d) => {
    const key = `${keyOf(d.target)}|${d.required}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const keyOf = (target: Dependency['target']): string =>
  target.kind === 'organization'
    ? `organization:${target.identifier}`
    : `${target.kind}:${keyName(target as ResourceKey)}`;

/** `project default/shop`, `template default/shop/checks@v1`, `organization default`. */
const nameOf = (target: Dependency['target']): string =>
  target.kind === 'organization'
    ? `organization ${target.identifier}`
    : `${kindRow(target.kind).label} ${keyName(target as ResourceKey)}`;

export interface DependencyFindings {
  /** Why the platform would refuse the document; empty when it would not. */
  readonly missing: readonly string[];
  /** What it refers to that is not there, which the platform accepts but a run fails on. */
  readonly warnings: readonly string[];
}

/**
 * Checks dependencies against this run's documents (and what the dry run predicts for them) and, for the rest,
 * the platform: one GET per distinct dependency, shared by every document that has it.
 */
export class DependencyCheck {
  readonly #client: Client;
  /** Documents of this run by key, and a template's identifier for references without a version. */
  readonly #inRun = new Map<string, PublishItem>();
  readonly #failed = new Map<string, string>();
  readonly #onPlatform = new Map<string, Promise<boolean | undefined>>();

  constructor(client: Client, items: readonly PublishItem[]) {
    this.#client = client;
    for (const item of items) {
      const { id } = item.document;
      this.#inRun.set(keyOf(id), item);
      if (id.version) this.#inRun.set(keyOf({ ...id, version: undefined } as ResourceKey), item);
    }
  }

  /** What the dry run predicts for a document, for the documents that depend on it. */
  noteFailed(item: PublishItem, why: string): void {
    this.#failed.set(keyOf(item.document.id), why);
  }

  async check(item: PublishItem): Promise<DependencyFindings> {
    const missing: string[] = [];
    const warnings: string[] = [];
    for (const dependency of dependenciesOf(item.document)) {
      const key = keyOf(dependency.target);
      const inRun = this.#inRun.get(key);
      const failed = inRun ? this.#failed.get(keyOf(inRun.document.id)) : undefined;
      if (failed && dependency.required)
        missing.push(`${dependency.use}, ${nameOf(dependency.target)}, would fail itself (${failed})`);
      if (inRun) continue;
      const there = await this.#exists(key, dependency.target);
      // Could not tell (an error reading it): no prediction rather than a wrong one.
      if (there !== false) continue;
      const what = `${dependency.use}, ${nameOf(dependency.target)}, does not exist on the platform and is not in this run`;
      if (dependency.required) missing.push(what);
      else
        warnings.push(`${what}: the platform saves the ${kindRow(item.document.id.kind).label}, and a run of it fails`);
    }
    return { missing, warnings };
  }

  #exists(key: string, target: Dependency['target']): Promise<boolean | undefined> {
    let found = this.#onPlatform.get(key);
    if (!found) {
      const read =
        target.kind === 'organization'
          ? this.#client.organizationExists(target.identifier)
          : this.#client.read(target as ResourceKey).then((remote) => remote !== undefined);
      found = read.catch(() => undefined);
      this.#onPlatform.set(key, found);
    }
    return found;
  }
}
