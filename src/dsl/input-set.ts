import { type Child, type Reference, RESOURCE_BRAND, type AnyResource, type Scope } from '../ir/node.js';
import type { DocPath } from '../core/document-path.js';
import { captureSite } from '../core/source-site.js';
import { keyList } from './key-list.js';
import { checkOptions } from './option-check.js';
import type { PipelineBuilder, TemplatePipelineBuilder } from './pipeline.js';
import { wireValue } from './references.js';
import { isRecord } from '../core/is-record.js';
import type { Value } from './expr.js';
import {
  SCOPED_KEYS,
  ScopedResource,
  type OtherFieldsOption,
  type ResourceBuilder,
  type ScopedOptions,
} from './scoped-resource.js';

/** A pipeline an input set or trigger belongs to: a builder (checked to be compiled too) or its identifier. */
export type PipelineOption = PipelineBuilder<string, string> | TemplatePipelineBuilder | string;

const pipelineId = (pipeline: PipelineOption): string =>
  typeof pipeline === 'object' ? pipeline.identifier : pipeline;

/** A pipeline-owned resource lives in its pipeline's project unless told otherwise. */
function ownedScope(pipeline: PipelineOption, options: ScopedOptions, own: Scope): Scope {
  if (typeof pipeline === 'object' && options.org === undefined && options.project === undefined) return pipeline.scope;
  return own;
}

/** Records a builder given for `pipeline` as a reference at `path`. */
function pipelineReference(pipeline: PipelineOption, references: Reference[], path: DocPath): string {
  if (typeof pipeline === 'object') references.push({ path, target: pipeline as AnyResource });
  return pipelineId(pipeline);
}

/** A variable's value in an input set, as on the wire. */
interface InputSetVariable<Name extends string = string> {
  readonly name: Name;
  /** Defaults to the pipeline's type for the variable (a pipeline builder's), else String for text, Number for a number. */
  readonly type?: 'String' | 'Number' | 'Secret';
  readonly value: Value | number;
}

/**
 * Values for a pipeline's runtime inputs, shaped like the pipeline. `variables` by name, as `pipeline({ variables })`
 * takes them (`{ tag: 'v1.2.3' }`), or as the wire list (`[{ name: 'tag', type: 'String', value: 'v1.2.3' }]`):
 * `Inputs` are the pipeline's variables that are runtime inputs, when the pipeline is a builder.
 */
interface InputSetValues<Inputs extends string = string> {
  readonly variables?: { readonly [Name in Inputs]?: Value | number } | ReadonlyArray<InputSetVariable<Inputs>>;
  /** Stages by identifier, as on the wire (`[{ stage: { identifier, type, spec: {...} } }]`). */
  readonly stages?: ReadonlyArray<{ readonly [key: string]: unknown }>;
  readonly properties?: { readonly [key: string]: unknown };
  readonly [field: string]: unknown;
}

export interface InputSetOptions<Inputs extends string = string> extends ScopedOptions, OtherFieldsOption {
  readonly pipeline: PipelineOption;
  /** Values for the pipeline's runtime inputs, shaped like the pipeline (`stages`, `variables`, `properties`). */
  readonly values?: InputSetValues<Inputs>;
}

/** An input set: values for a pipeline's runtime inputs. */
export interface InputSetBuilder extends ResourceBuilder<'inputSet'> {
  /** The identifier of the pipeline it fills. */
  readonly pipelineIdentifier: string;
}

class InputSetImpl extends ScopedResource<'inputSet', InputSetOptions> implements InputSetBuilder {
  get [RESOURCE_BRAND]() {
    return 'inputSet' as const;
  }
  override get scope(): Scope {
    return ownedScope(this.props.pipeline, this.props, super.scope);
  }
  /** The identifier of the pipeline it fills. */
  get pipelineIdentifier(): string {
    return pipelineId(this.props.pipeline);
  }
  protected fields(references: Reference[], _children: Child[]): Record<string, unknown> {
    const identifier = pipelineReference(this.props.pipeline, references, ['pipeline', 'identifier']);
    const given = this.props.values ?? {};
    const values = wireValue(
      given.variables === undefined
        ? given
        : { ...given, variables: variablesList(given.variables, this.props.pipeline) },
      references,
      ['pipeline'],
    ) as Record<string, unknown>;
    return { pipeline: { identifier, ...values } };
  }
}

/** The types the pipeline gives its variables, when it is a builder. */
function variableTypes(pipeline: PipelineOption): Map<string, unknown> {
  if (typeof pipeline !== 'object') return new Map();
  const document = pipeline.toDocument() as { pipeline?: { variables?: unknown } };
  const list = document.pipeline?.variables;
  return new Map(
    Array.isArray(list) ? list.filter(isRecord).map((variable) => [String(variable.name), variable.type]) : [],
  );
}

/** Variables by name become the wire list, each typed as the pipeline types it (the platform merges by name). */
function variablesList(variables: NonNullable<InputSetValues['variables']>, pipeline: PipelineOption): unknown {
  if (Array.isArray(variables) || !isRecord(variables)) return variables;
  const types = variableTypes(pipeline);
  return Object.entries(variables)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ({
      name,
      type: types.get(name) ?? (typeof value === 'number' ? 'Number' : 'String'),
      value,
    }));
}

const INPUT_SET_KEYS = [
  ...SCOPED_KEYS,
  ...keyList<InputSetOptions, keyof ScopedOptions>()(['otherFields', 'pipeline', 'values']),
];

/**
 * An input set: values for a pipeline's runtime inputs, kept under a name so that runs and triggers can pick them.
 *
 * @example
 * ```ts
 * const release = pipeline({ identifier: 'release', project: 'web', variables: { env: input() } });
 * inputSet({ identifier: 'prod', pipeline: release, values: { variables: { env: 'prod' } } });
 * ```
 */
export function inputSet<Inputs extends string = string>(
  options: InputSetOptions<NoInfer<Inputs>> & {
    readonly pipeline: PipelineBuilder<string, string, Inputs> | TemplatePipelineBuilder | string;
  },
): InputSetBuilder;
export function inputSet(options: InputSetOptions): InputSetBuilder {
  const issues = checkOptions('inputSet', options, INPUT_SET_KEYS, ['identifier', 'pipeline']);
  return new InputSetImpl({ ...options, issues }, captureSite(inputSet));
}

/** Input sets by builder (checked to be compiled too) or identifier. */
export type InputSetsOption = ReadonlyArray<InputSetBuilder | string>;

/** `inputSetReferences`: identifiers, with each builder recorded as a reference. */
export function inputSetRefs(inputSets: InputSetsOption, references: Reference[], path: DocPath): string[] {
  return inputSets.map((entry, index) => {
    if (typeof entry === 'object') references.push({ path: [...path, index], target: entry });
    return typeof entry === 'object' ? entry.identifier : entry;
  });
}

export interface OverlayInputSetOptions extends ScopedOptions, OtherFieldsOption {
  readonly pipeline: PipelineOption;
  /** The input sets it applies, in order (later ones win). */
  readonly inputSets: InputSetsOption;
}

/** An overlay input set: input sets of one pipeline, applied in order. */
export interface OverlayInputSetBuilder extends ResourceBuilder<'overlayInputSet'> {}

class OverlayInputSetImpl
  extends ScopedResource<'overlayInputSet', OverlayInputSetOptions>
  implements OverlayInputSetBuilder
{
  get [RESOURCE_BRAND]() {
    return 'overlayInputSet' as const;
  }
  override get scope(): Scope {
    return ownedScope(this.props.pipeline, this.props, super.scope);
  }
  protected fields(references: Reference[], _children: Child[]): Record<string, unknown> {
    return {
      pipelineIdentifier: pipelineReference(this.props.pipeline, references, ['pipelineIdentifier']),
      inputSetReferences: inputSetRefs(this.props.inputSets, references, ['inputSetReferences']),
    };
  }
}

const OVERLAY_INPUT_SET_KEYS = [
  ...SCOPED_KEYS,
  ...keyList<OverlayInputSetOptions, keyof ScopedOptions>()(['otherFields', 'pipeline', 'inputSets']),
];

/**
 * An overlay input set: several input sets of one pipeline applied in order, the later ones winning.
 *
 * @example
 * ```ts
 * overlayInputSet({ identifier: 'prodEu', pipeline: 'release', project: 'web', inputSets: ['prod', 'eu'] })
 * ```
 */
export function overlayInputSet(options: OverlayInputSetOptions): OverlayInputSetBuilder {
  const issues = checkOptions('overlayInputSet', options, OVERLAY_INPUT_SET_KEYS, [
    'identifier',
    'pipeline',
    'inputSets',
  ]);
  return new OverlayInputSetImpl({ ...options, issues }, captureSite(overlayInputSet));
}

export { ownedScope, pipelineReference };
