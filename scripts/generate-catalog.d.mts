/** The files scripts/generate-catalog.mjs writes, by name, as it would write them now. */
export function generate(): Record<string, string>;
/** Each generated file's folder, relative to the repository: the data with the catalogue, the types and builders with the DSL. */
export const GENERATED_FOLDERS: Readonly<Record<string, string>>;
export function builderName(type: string): string;
