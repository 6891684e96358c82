/**
 * latte 0.29 turns TLS on without checking the server's certificate (src/scripting/connect.rs builds an openssl
 * SslContext and never calls set_verify, so the default SSL_VERIFY_NONE holds): it would hand the password to
 * anyone answering at the address. Before a run gets the password, each contact point's certificate is checked
 * here the way the CQL session checks it (the user's CA, the address in the certificate, cqlshrc validate).
 * Peers latte finds in system.peers are not checked (latte has no host filter): the contact points are the
 * loopback or CQL_TUNER_STRESS_ALLOW hosts the user chose, and their cluster is the one being loaded.
 */
import { connect as tlsConnect } from 'node:tls';
import { diagnoseCqlConnect } from '../core/cql-connect-errors.js';
import { OpError } from '../core/errors.js';
import type { CqlCredentials } from './cql-credentials.js';

const HANDSHAKE_TIMEOUT_MS = 5000;

function handshake(host: string, port: number, creds: CqlCredentials): Promise<{ code: string | null; message: string } | null> {
  const ssl = creds.sslOptions;
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host,
      port,
      ...(ssl?.ca ? { ca: ssl.ca } : {}),
      ...(ssl?.key && ssl.cert ? { key: ssl.key, cert: ssl.cert } : {}),
      rejectUnauthorized: ssl?.rejectUnauthorized ?? true,
      // An address is checked against the IP SANs; a name goes as SNI and is checked against the DNS SANs.
      ...(/^[\d.]+$|:/.test(host) ? {} : { servername: host }),
    });
    const done = (r: { code: string | null; message: string } | null): void => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ code: 'ETIMEDOUT', message: `no TLS handshake within ${HANDSHAKE_TIMEOUT_MS / 1000} s` }), HANDSHAKE_TIMEOUT_MS);
    socket.once('secureConnect', () => done(null));
    socket.once('error', (e: NodeJS.ErrnoException) => done({ code: e.code ?? null, message: e.message }));
  });
}

/**
 * Throws the diagnosed error (CQL_TLS_UNKNOWN_CA, CQL_TLS_HOSTNAME, CQL_TLS_CERT_EXPIRED, …) when a contact
 * point's certificate does not pass; the fix names the setting to change, as for every other collecting tool.
 */
export async function verifyStressTls(nodes: readonly string[], port: number, creds: CqlCredentials): Promise<void> {
  for (const host of nodes) {
    const failed = await handshake(host, port, creds);
    if (!failed) continue;
    const d = diagnoseCqlConnect({
      points: [host],
      port,
      message: failed.message,
      detail: '',
      errorCodes: failed.code ? [failed.code] : [],
      tls: true,
      credentialSource: creds.credentialSource,
      caSource: creds.caSource,
    });
    const why = `${d.message} (checked before the run: latte itself does not verify the node certificate, so it gets no password unless this check passes)`;
    throw new OpError(d.code, why, d.fix);
  }
}
