import type { SourceSite } from './call-site.js';

/** A position in a document: keys and list indexes from its root. */
export type DocPath = ReadonlyArray<string | number>;

/** A builder-made reference to another resource, checked by compile once all resources are known. */
export interface ResourceReference {
  readonly path: DocPath;
  readonly target: import('./resource.js').AnyResource;
  readonly site: SourceSite;
}

/** Where each part of a document came from, and what it references; filled while building. */
export interface BuildContext {
  readonly sites: Array<{ path: DocPath; site: SourceSite }>;
  readonly references: ResourceReference[];
}

export const newBuildContext = (): BuildContext => ({ sites: [], references: [] });
