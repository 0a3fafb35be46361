import type { ResourceKind } from '../catalog/kinds.js';
import { platformText, type ReferenceScope } from '../catalog/resource-key.js';
import type { Code } from './code.js';
import type { ImportContext, Node } from './lifted.js';
import type { Candidate } from './verify.js';

/**
 * A reference field's code as a builder reference to another imported module, or undefined (it stays text); a
 * template is named with the version the use gives.
 */
export type Link = (kind: ResourceKind, text: unknown, parent?: unknown, version?: string) => Code | undefined;

/** The scope a document's references are read from: its own org and project. */
const scopeOf = (body: Node): ReferenceScope => {
  const org = platformText(body.orgIdentifier);
  const project = platformText(body.projectIdentifier);
  return { ...(org !== undefined ? { org } : {}), ...(project !== undefined ? { project } : {}) };
};

/**
 * A document's candidates with its references as builders: each candidate `make` gives is tried first with every
 * reference to an imported module written as that module's export (only when one is), then with text. The text
 * form is the next fallback level, so a reference whose types refuse it (a type error demotes it) becomes text
 * again, and evaluation judges both.
 */
export function linking(body: Node, context: ImportContext, make: (link: Link) => readonly Candidate[]): Candidate[] {
  const textual = make(() => undefined);
  const { refer } = context;
  if (!refer) return [...textual];
  const from = scopeOf(body);
  return textual.flatMap((plain, index): Candidate[] => [
    () => {
      let linked = false;
      const link: Link = (kind, text, parent, version) => {
        const found = refer(kind, text, {
          from,
          ...(platformText(parent) !== undefined ? { parent: platformText(parent)! } : {}),
          ...(version !== undefined ? { version } : {}),
        });
        linked ||= found !== undefined;
        return found;
      };
      const code = make(link)[index]!();
      // Without a reference written as a builder it is the text candidate: not evaluated twice.
      return linked ? code : undefined;
    },
    plain,
  ]);
}

/** A `Link` as a `Refer`, for `linkedTemplate` inside `linking` (so a template linked there counts as a link). */
export const referThrough =
  (link: Link): NonNullable<ImportContext['refer']> =>
  (kind, text, at) =>
    link(kind, text, at?.parent, at?.version);

/**
 * A template use's options (`stepTemplate()`, `stageTemplate()`, `pipeline({ template })`) with `templateRef` as the template's builder, when
 * that template, in the version the use names, is imported; undefined otherwise. A use without a `versionLabel`
 * gets the stable version, which the documents do not say, and stays text.
 */
export function linkedTemplate(
  options: Record<string, Code>,
  template: Node,
  refer: ImportContext['refer'],
): Record<string, Code> | undefined {
  const version = platformText(template.versionLabel);
  if (!refer || version === undefined || typeof template.versionLabel !== 'string') return undefined;
  const found = refer('template', template.templateRef, { version });
  return found && { ...options, templateRef: found };
}
