import { readFileSync } from 'node:fs';

/** What pipewright's own package.json says: its version and the ranges of its optional peers. */
export interface OwnPackage {
  readonly version: string;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

export const ownPackage = (): OwnPackage =>
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as OwnPackage;

/** The package version. */
export const version = (): string => ownPackage().version;
