import type { SourceSite } from './call-site.js';

/** A position in a document: keys and list indexes from its root. */
export type DocPath = ReadonlyArray<string | number>;

/** A builder-made reference to another resource, checked by compile once all resources are known. */
export interface ResourceReference {
  readonly path: DocPath;
  readonly target: import('./resource.js').AnyResource;
  readonly site: SourceSite;
}

/** A mistake in a builder's options (an unknown or missing option), reported at the builder's call. */
export interface OptionIssue {
  readonly code: 'unknown-option' | 'missing-option';
  readonly message: string;
  readonly hint?: string;
}

/** Where each part of a document came from, what it references, and what its builders were given wrong. */
export interface BuildContext {
  readonly sites: Array<{ path: DocPath; site: SourceSite }>;
  readonly references: ResourceReference[];
  readonly issues: Array<OptionIssue & { path: DocPath; site: SourceSite }>;
  /** Where each step was added to its list (`.step(check)`), which may differ from where it was defined. */
  readonly uses: Array<{ path: DocPath; site: SourceSite }>;
}

export const newBuildContext = (): BuildContext => ({ sites: [], references: [], issues: [], uses: [] });
