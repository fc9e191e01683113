import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A self-signed certificate for 127.0.0.1, written to `dir` by openssl. An EC key by default: generated
 * in milliseconds, unlike RSA (which only tests of RSA key exchange need).
 */
export async function createSelfSignedCert(
  dir: string,
  keyType: 'ec' | 'rsa' = 'ec',
): Promise<{ cert: Buffer; key: Buffer }> {
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      ...(keyType === 'ec' ? ['ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'] : ['rsa:2048']),
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  );
  return { cert: await readFile(certPath), key: await readFile(keyPath) };
}
