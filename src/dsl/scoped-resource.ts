import type { ResourceKind } from '../catalog/kinds.js';
import { lower } from '../ir/lower.js';
import {
  type Child,
  type IrNode,
  type Reference,
  RESOURCE_BRAND,
  type Resource,
  type Scope,
  resourceNode,
} from '../ir/node.js';
import { Builder, type Chainable } from './builder.js';
import { defined, tagsDocument, type TagsOption } from './common-options.js';
import type { WithIssues } from './option-check.js';
import { keyList } from './key-list.js';
import { DEFAULT_ORG, type ProjectBuilder } from './project.js';
import { ordered, wireValue } from './references.js';
import { fieldOf, setField } from '../core/own-field.js';

/** What every resource beside pipelines has: identity, display fields, and where it lives. */
export interface ScopedOptions {
  readonly identifier: string;
  /** Display name; defaults to the identifier. */
  readonly name?: string;
  readonly description?: string;
  readonly tags?: TagsOption;
  /** Owning org; defaults to the project's org, or `default` for a project given by identifier. */
  readonly org?: string;
  /** Owning project (a builder or an identifier); leave out for an org- or account-level resource. */
  readonly project?: ProjectBuilder | string;
  /** With no project and no org: an account-level resource. */
  readonly account?: boolean;
}

/** The scope options name: none with `account`, else the org (the project's, else `default`) and the project. */
export function scopeOf({ org, project, account }: ScopedOptions): Scope {
  if (account) return {};
  const projectId = typeof project === 'string' ? project : project?.identifier;
  const projectOrg = typeof project === 'object' ? project.org : undefined;
  return defined({ org: org ?? projectOrg ?? DEFAULT_ORG, project: projectId });
}

/** Fields of the document no option names (newer or rarer ones), written as given after the others. */
export interface OtherFieldsOption {
  readonly otherFields?: { readonly [key: string]: unknown };
}

/**
 * A resource builder as users hold it: identity, scope, its document, and the chain helpers. Each kind's
 * interface extends this one with what is its own; the classes behind them stay inside the package.
 */
export interface ResourceBuilder<K extends ResourceKind, Doc = Record<string, Record<string, unknown>>>
  extends Resource<K, Doc>, Chainable {}

export const SCOPED_KEYS: readonly string[] = keyList<ScopedOptions>()([
  'identifier',
  'name',
  'description',
  'tags',
  'org',
  'project',
  'account',
]);

/**
 * A resource of one kind of the table, written as `{ <root key>: { name, identifier, scope, ...fields } }`.
 * Subclasses give the kind and the fields after the common ones.
 */
export abstract class ScopedResource<K extends ResourceKind, P extends ScopedOptions & OtherFieldsOption>
  extends Builder<P & WithIssues>
  implements Resource<K, Record<string, Record<string, unknown>>>
{
  abstract get [RESOURCE_BRAND](): K;

  get identifier(): string {
    return this.props.identifier;
  }
  get scope(): Scope {
    return scopeOf(this.props);
  }

  /**
   * The kind's own fields, after name, identifier, description, tags and scope: references recorded at paths
   * from the body, and any builder-made part of the body as a child node.
   */
  protected abstract fields(references: Reference[], children: Child[]): Record<string, unknown>;

  protected makeNode(): IrNode {
    const kind = this[RESOURCE_BRAND];
    const { identifier, name, description, tags, project } = this.props;
    const { org, project: projectId } = this.scope;
    const references: Reference[] = [];
    const children: Child[] = [];
    if (typeof project === 'object') references.push({ path: ['projectIdentifier'], target: project });
    const common = {
      name: name ?? identifier,
      identifier,
      description,
      tags: tagsDocument(tags),
      orgIdentifier: org,
      projectIdentifier: projectId,
    };
    const own = { ...common, ...this.fields(references, children) };
    const other = this.props.otherFields ?? {};
    for (const [key, value] of Object.entries(other))
      if (fieldOf(own, key) === undefined) setField(own, key, wireValue(value, references, [key]));
    return resourceNode(kind, ordered(own, Object.keys(common)), {
      site: this.site,
      references,
      children,
      issues: this.props.issues,
    });
  }

  toDocument(): Record<string, Record<string, unknown>> {
    return lower(this.toNode()) as Record<string, Record<string, unknown>>;
  }
}
