/** The files scripts/generate-catalog.mjs writes to src/catalog/generated, by name, as it would write them now. */
export function generate(): Record<string, string>;
export function builderName(type: string): string;
