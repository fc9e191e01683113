/**
 * TLS settings for the API listener. TLS 1.2 is limited to ECDHE key exchange with AEAD ciphers (forward
 * secrecy, no CBC, no SHA-1 MACs); TLS 1.3's suites all qualify and keep Node's defaults. With a client
 * CA, every client must present a certificate that chains to it (mutual TLS).
 */
import type { SecureContextOptions, TlsOptions } from 'node:tls';
import type { TlsConfig } from './config.js';

/** The forward-secret AEAD suites of Mozilla's "intermediate" profile, in its order. */
export const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

const TLS13_CIPHERS = 'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256';

export function tlsServerOptions(tls: TlsConfig): TlsOptions & SecureContextOptions {
  return {
    cert: tls.cert,
    key: tls.key,
    minVersion: tls.minVersion ?? 'TLSv1.2',
    ciphers: `${TLS13_CIPHERS}:${TLS12_CIPHERS}`,
    honorCipherOrder: true,
    ...(tls.clientCa === undefined ? {} : { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true }),
  };
}
