import type { ProjectDocument } from '../schema/project.js';
import { lower } from '../ir/lower.js';
import { type IrNode, RESOURCE_BRAND, type Resource, type Scope, resourceNode } from '../ir/node.js';
import { Builder, type Chainable } from './builder.js';
import { captureSite } from '../core/source-site.js';
import { defined, tagsDocument, type TagsOption } from './common-options.js';
import { keyList } from './key-list.js';
import { checkOptions, type WithIssues } from './option-check.js';

/** The organization a project belongs to when none is named: it exists in every account. */
export const DEFAULT_ORG = 'default';

export interface ProjectOptions {
  readonly identifier: string;
  /** Display name; defaults to the identifier. */
  readonly name?: string;
  /** Owning organization; defaults to `default`, which always exists. */
  readonly org?: string;
  /** Hex colour such as `#0063F7`. */
  readonly color?: string;
  readonly description?: string;
  readonly tags?: TagsOption;
  readonly modules?: readonly string[];
}

/** A project: groups pipelines, connectors and other resources inside an organization. */
export interface ProjectBuilder extends Resource<'project', ProjectDocument>, Chainable {
  /** Its organization (`default` unless given). */
  readonly org: string;
  description(description: string): ProjectBuilder;
  tags(tags: TagsOption): ProjectBuilder;
}

class ProjectImpl extends Builder<ProjectOptions & WithIssues> implements ProjectBuilder {
  get [RESOURCE_BRAND]() {
    return 'project' as const;
  }
  get identifier(): string {
    return this.props.identifier;
  }
  get org(): string {
    return this.props.org ?? DEFAULT_ORG;
  }
  get scope(): Scope {
    return { org: this.org };
  }

  description(description: string): ProjectBuilder {
    return this.with({ description });
  }
  tags(tags: TagsOption): ProjectBuilder {
    return this.with({ tags });
  }

  protected makeNode(): IrNode {
    const { identifier, name, color, description, tags, modules } = this.props;
    const body = {
      name: name ?? identifier,
      identifier,
      orgIdentifier: this.org,
      ...defined({ color, description, tags: tagsDocument(tags), modules: modules && [...modules] }),
    };
    return resourceNode('project', body, { site: this.site, issues: this.props.issues });
  }
  toDocument(): ProjectDocument {
    return lower(this.toNode()) as ProjectDocument;
  }
}

const PROJECT_KEYS: readonly string[] = keyList<ProjectOptions>()([
  'identifier',
  'name',
  'org',
  'color',
  'description',
  'tags',
  'modules',
]);

/**
 * A project: the home of pipelines, services, environments and project-level connectors inside an organization
 * (`org`, `default` when left out).
 *
 * @example
 * ```ts
 * project({ identifier: 'web', name: 'Web shop', org: 'default', modules: ['CD', 'CI'] })
 * ```
 */
export function project(options: ProjectOptions): ProjectBuilder {
  const issues = checkOptions('project', options, PROJECT_KEYS, ['identifier']);
  return new ProjectImpl({ ...options, issues }, captureSite(project));
}
