import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SelfSignedCert {
  readonly key: string;
  readonly cert: string;
  /** The certificate's file, for NODE_EXTRA_CA_CERTS. */
  readonly certFile: string;
}

/** A throwaway self-signed certificate for 127.0.0.1 and localhost, made with openssl in `dir`. */
export function makeSelfSignedCert(dir: string): SelfSignedCert {
  const keyFile = join(dir, 'emulator-key.pem');
  const certFile = join(dir, 'emulator-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
    ],
    { stdio: 'pipe' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}
