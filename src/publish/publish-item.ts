import type { PublishDocument } from '../platform/document.js';

/** One document to publish: what the output folder's manifest says of it. */
export interface PublishItem {
  /** Path in the output folder, for reports. */
  readonly file: string;
  readonly document: PublishDocument;
  /** The TypeScript file compile built it from (manifest `source`), for Git commit messages. */
  readonly source?: string;
  /** A template version to make the stable one (manifest `stable`). */
  readonly stable?: true;
}
