import { createRequire } from 'node:module';
import { DiagnosticError } from '../core/diagnostics.js';
import { ownPackage } from '../core/own-package.js';

/**
 * ts-morph and prettier (about 26 MB) are optional peer dependencies: only `import` and `compile --typecheck`
 * use them, so a project that does neither does not install them. This names what is missing, and the
 * install command with the versions pipewright is built against, before the command starts its work.
 */
export function requireOptional(names: readonly string[], purpose: string): void {
  const require = createRequire(import.meta.url);
  const missing = names.filter((name) => {
    try {
      require.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return;
  const { peerDependencies = {} } = ownPackage();
  const specs = missing.map((name) => (peerDependencies[name] ? `${name}@${peerDependencies[name]}` : name));
  throw DiagnosticError.of(
    'missing-dependency',
    `${purpose} needs ${missing.join(' and ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed`,
    `install ${missing.length === 1 ? 'it' : 'them'} beside pipewright: npm install --save-dev ${specs.join(' ')}`,
  );
}
