import { isResource, type AnyResource } from '../dsl/resource.js';
import type { FoundResource } from './build-documents.js';
import type { LoadedModule } from './load-modules.js';

/**
 * Every exported resource builder, or array of them, in file order then export-name order. The same builder
 * exported twice (or re-exported by another file) counts once, at its first export.
 */
export function collectResources(modules: readonly LoadedModule[]): FoundResource[] {
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
