import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import type { BuildContext } from './build-context.js';
import { Builder } from './builder.js';
import { defined, tagsDocument, type TagsOption } from './common-options.js';
import { reportIssues, type WithIssues } from './option-check.js';
import type { ProjectBuilder } from './project.js';
import { ordered, wireValue } from './references.js';
import { RESOURCE_BRAND, type Resource, type Scope } from './resource.js';

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
  return defined({ org: org ?? projectOrg ?? 'default', project: projectId });
}

/** Fields of the document no option names (newer or rarer ones), written as given after the others. */
export interface OtherFieldsOption {
  readonly otherFields?: { readonly [key: string]: unknown };
}

export const SCOPED_KEYS: readonly string[] = ['identifier', 'name', 'description', 'tags', 'org', 'project', 'account'];

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

  /** The kind's own fields, after name, identifier, description, tags and scope. */
  protected abstract fields(context: BuildContext, root: string): Record<string, unknown>;

  toDocument(context: BuildContext): Record<string, Record<string, unknown>> {
    const root = kindRow(this[RESOURCE_BRAND]).rootKey;
    const { identifier, name, description, tags, project } = this.props;
    const { org, project: projectId } = this.scope;
    context.sites.push({ path: [root], site: this.site });
    reportIssues(context, this.props.issues, [root], this.site);
    if (typeof project === 'object') context.references.push({ path: [root, 'projectIdentifier'], target: project, site: this.site });
    const common = { name: name ?? identifier, identifier, description, tags: tagsDocument(tags), orgIdentifier: org, projectIdentifier: projectId };
    const own = { ...common, ...this.fields(context, root) };
    const other = this.props.otherFields ?? {};
    for (const [key, value] of Object.entries(other))
      if (own[key as keyof typeof own] === undefined) (own as Record<string, unknown>)[key] = wireValue(value, context, [root, key], this.site);
    return { [root]: ordered(own, Object.keys(common)) };
  }
}
