import { dirname, join, relative, sep } from 'node:path';
import type { AnyResource } from '../ir/node.js';
import type { ResourceKind } from '../schema/index.js';
import { generatedFile } from '../yaml/emit-yaml.js';
import { sha256, type ManifestEntry } from './layout.js';
import type { RuleSettings } from '../check/rule-settings.js';
import { outputPathOf, type ResourceKey } from '../catalog/resource-key.js';
import { trimEnd } from '../core/trim-ends.js';

/** What decides a document's text besides the document itself. */
export interface RenderOptions {
  readonly outDir: string;
  /** See CompileOptions.schemaModeline. */
  readonly schemaModeline?: boolean | string;
  /** See CompileOptions.rules: carried with the render options so worker batches check as the main thread does. */
  readonly rules?: RuleSettings;
  /**
   * Whether each pipeline keeps its runtime inputs for the input sets that fill it (default true; compile.ts
   * decides, `mayDefineInputSets`): carried here so worker batches build as the main thread does.
   */
  readonly keepInputs?: boolean;
}

/** One output file: where it goes, its text, and its manifest entry. */
export interface RenderedDocument {
  readonly file: string;
  readonly text: string;
  readonly entry: ManifestEntry;
}

/** The folder `pipewright schema` writes to by default (src/cli/schema-command.ts). */
const DEFAULT_SCHEMA_DIR = 'schemas';

/** The $schema of a modeline: a URL under an http(s) base, or a path relative to the emitted file (as the editor resolves it). */
function schemaLocation(base: true | string, kind: string, outDir: string, file: string): string {
  const dir = base === true ? DEFAULT_SCHEMA_DIR : base;
  if (/^https?:\/\//.test(dir)) return `${trimEnd(dir, '/')}/${kind}.schema.json`;
  return relative(dirname(join(outDir, file)), join(dir, `${kind}.schema.json`))
    .split(sep)
    .join('/');
}

/** A validated document as the file compile writes. `source` is the definition file, relative to the working directory. */
export function renderDocument(
  built: {
    readonly kind: ResourceKind;
    readonly key: ResourceKey;
    readonly document: unknown;
    readonly file: string;
    readonly resource?: AnyResource;
  },
  options: RenderOptions,
  hashed = true,
): RenderedDocument {
  const file = outputPathOf(built.key);
  const modeline = options.schemaModeline
    ? `# yaml-language-server: $schema=${schemaLocation(options.schemaModeline, built.kind, options.outDir, file)}\n`
    : '';
  const text = modeline + generatedFile(built.document, built.file);
  // Hashed later by whoever writes the text (spool.ts's WriteBehind), when `hashed` is false.
  return { file, text, entry: manifestEntry(built, file, hashed ? sha256(text) : '') };
}

/** A document of an entry with errors: its place and identity, no text (nothing of such a compile is written). */
export function unrenderedDocument(built: Pick<RenderedSource, 'key' | 'file' | 'resource'>): RenderedDocument {
  const file = outputPathOf(built.key);
  return { file, text: '', entry: manifestEntry(built, file, '') };
}

type RenderedSource = Parameters<typeof renderDocument>[0];

function manifestEntry(
  built: Pick<RenderedSource, 'key' | 'file' | 'resource'>,
  file: string,
  hash: string,
): ManifestEntry {
  const { kind, org, project, parent, version, identifier } = built.key;
  return {
    file,
    kind,
    ...(org ? { org } : {}),
    ...(project ? { project } : {}),
    ...(parent ? { parent } : {}),
    ...(version ? { version } : {}),
    ...(built.resource?.publishFlags?.stable ? { stable: true as const } : {}),
    identifier,
    source: built.file,
    sha256: hash,
  };
}
