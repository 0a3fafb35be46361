import { isResource, type AnyResource } from '../ir/node.js';
import type { ResourceKind } from '../schema/index.js';
import { DiagnosticError, type Diagnostic } from '../core/diagnostics.js';
import { kindOfDocument } from '../catalog/kinds.js';
import type { FoundResource } from './build-documents.js';
import type { LoadedModule } from './load-modules.js';

/**
 * Every exported resource builder, or array of them, in file order then export-name order. The same builder
 * exported twice (or re-exported by another file) counts once, at its first export.
 */
export function collectResources(modules: ReadonlyArray<Pick<LoadedModule, 'file' | 'exports'>>): FoundResource[] {
  const misshapen = modules.flatMap(({ file, exports }) =>
    Object.keys(exports)
      .sort()
      .flatMap((name) => {
        const kind = kindOfDocument(exports[name]);
        return kind ? [documentExport(file, name, kind)] : [];
      }),
  );
  if (misshapen.length) throw new DiagnosticError(misshapen);
  const seen = new Set<AnyResource>();
  const found: FoundResource[] = [];
  const add = (resource: AnyResource, file: string, exportName: string) => {
    if (seen.has(resource)) return;
    seen.add(resource);
    found.push({ resource, file, exportName });
  };
  for (const { file, exports } of modules)
    for (const name of Object.keys(exports).sort()) {
      const value = exports[name];
      if (isResource(value)) add(value, file, name);
      else if (Array.isArray(value))
        value.forEach((item, index) => {
          if (isResource(item)) add(item, file, `${name}[${index}]`);
        });
    }
  return found;
}

/** An export that is a plain wire document rather than a builder: almost certainly a mistake. */
const documentExport = (file: string, name: string, kind: ResourceKind): Diagnostic => ({
  code: 'plain-document-export',
  severity: 'error',
  message: `export "${name}" is a plain ${kind} document, not a builder, so it would be silently skipped`,
  path: [],
  location: { file },
  hint: `build it with ${kind}(...), or wrap the object as raw.${kind}(${name}) to emit it verbatim`,
});
