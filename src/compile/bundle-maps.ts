import { randomUUID } from 'node:crypto';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { frameOf, setFrameMapper } from '../core/source-site.js';

/** The source maps of the bundles being evaluated (load-modules.ts): file -> map bytes, parsed when first needed. */
const bundleMaps = new Map<string, { readonly bytes: Uint8Array; parsed?: SourceMap }>();

/**
 * Frames in the bundle `file` lead to the user's files through its source map (`bytes`), until `forget` is called.
 * Compile maps the few frames it needs itself (a call site, a definition that throws or reads the environment)
 * rather than having Node parse every bundle's map when it loads it and map every stack of the process.
 */
export function mapBundleFrames(file: string, bytes: Uint8Array): { forget(): void } {
  bundleMaps.set(file, { bytes });
  return { forget: () => bundleMaps.delete(file) };
}

/**
 * The file name of a new bundle of definitions. Worker threads share the process id and may bundle in the same
 * millisecond: a name of its own each.
 */
export const bundleFileName = (): string => `bundle-${process.pid}-${randomUUID()}.mjs`;
const BUNDLE_FILE = /[\\/]bundle-\d+-[0-9a-f-]{36}\.mjs$/;

/**
 * A frame as the user's file, line and column (1-based): a registered bundle's through its map; undefined for a
 * bundle's own glue, or a bundle whose map is gone (its frames are nobody's code).
 */
function mapBundleFrame(
  file: string,
  line: number,
  column: number,
): { file: string; line: number; column: number } | undefined {
  const bundle = bundleMaps.get(file);
  if (!bundle) return BUNDLE_FILE.test(file) ? undefined : { file, line, column };
  bundle.parsed ??= new SourceMap(
    JSON.parse(new TextDecoder().decode(bundle.bytes)) as ConstructorParameters<typeof SourceMap>[0],
  );
  const entry = bundle.parsed.findEntry(line - 1, column - 1) as Partial<{
    generatedLine: number;
    originalSource: string;
    originalLine: number;
    originalColumn: number;
  }>;
  if (entry.originalSource === undefined || entry.generatedLine !== line - 1) return undefined;
  return {
    file: resolve(dirname(file), sourcePath(entry.originalSource)),
    line: entry.originalLine! + 1,
    column: entry.originalColumn! + 1,
  };
}

/**
 * A source map's source as a path: esbuild writes sources as relative URLs, so a folder named after a placeholder
 * (`${ORG_ID}`) reads `$%7BORG_ID%7D`; people type it, and look for it, as it is named on disk.
 */
function sourcePath(source: string): string {
  try {
    return decodeURIComponent(source);
  } catch {
    return source;
  }
}

setFrameMapper(mapBundleFrame);

/** A stack with the frames of registered bundles written as the user's files and lines (for --debug). */
export function mappedStack(stack: string): string {
  return stack
    .split('\n')
    .map((text) => {
      const frame = frameOf(text);
      if (!frame || !bundleMaps.has(frame.file)) return text;
      const at = mapBundleFrame(frame.file, frame.line, frame.column);
      return at ? text.replace(frame.written, `${at.file}:${at.line}:${at.column}`) : text;
    })
    .join('\n');
}
