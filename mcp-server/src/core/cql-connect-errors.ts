/**
 * Why a CQL connection failed, from what the driver and Node's TLS said, as a cause an operator can act on: the
 * code, what was wrong, and the fix naming the setting to change and where it came from. Pure: text and error
 * codes in (already scrubbed of secrets), never throws.
 */

export interface CqlConnectFailure {
  /** Contact points as given. */
  points: string[];
  port: number;
  /** The driver's message and, per host, its inner errors' messages (scrubbed of the password). */
  message: string;
  detail: string;
  /** Node error codes found on the inner errors (ERR_TLS_CERT_ALTNAME_INVALID, SELF_SIGNED_CERT_IN_CHAIN, ...). */
  errorCodes: string[];
  tls: boolean;
  /** Where the username came from ("CQL_TUNER_CQL_USERNAME", "cqlshrc /home/u/.cassandra/cqlshrc"), null: none. */
  credentialSource: string | null;
  /** Where the CA came from, null: the system's CAs. */
  caSource: string | null;
  /** A TLS handshake to the first contact point succeeded while TLS was off: the server wants TLS. */
  serverSpeaksTls?: boolean;
}

export interface CqlConnectDiagnosis {
  code: string;
  message: string;
  fix: string;
}

const UNKNOWN_CA = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
]);

const TLS_SETTINGS = 'CQL_TUNER_CQL_TLS=1 (or [connection] ssl = true in cqlshrc)';

export function diagnoseCqlConnect(f: CqlConnectFailure): CqlConnectDiagnosis {
  const at = f.points.join(', ');
  const text = `${f.message} ${f.detail}`;
  const codes = new Set(f.errorCodes);
  const why = (f.detail || f.message).slice(0, 600);
  const hasCode = (...c: string[]) => c.some((x) => codes.has(x));

  if (hasCode('ERR_TLS_CERT_ALTNAME_INVALID') || /does not match certificate's altnames|Hostname\/IP does not match/i.test(text)) {
    return {
      code: 'CQL_TLS_HOSTNAME',
      message: `the certificate of ${at} is not for the address connected to: ${why}`,
      fix:
        'Connect with an address the node certificate lists (its subjectAltName), or reissue the node certificates with the ' +
        'node addresses as IP SANs. Turning verification off (validate = false in cqlshrc [ssl], CQL_TUNER_CQL_TLS_INSECURE=1) also ' +
        'accepts an impostor: use it only to confirm this is the cause.',
    };
  }
  if (hasCode('CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID') || /certificate has expired|certificate is not yet valid/i.test(text)) {
    return {
      code: 'CQL_TLS_CERT_EXPIRED',
      message: `the certificate of ${at} is outside its validity period: ${why}`,
      fix: 'Renew the node certificates (or the CA that signed them); check the clock of this machine and of the nodes.',
    };
  }
  const unknownCa = /self[- ]signed certificate|unable to verify the first certificate|unable to get (local )?issuer/i;
  if ([...codes].some((c) => UNKNOWN_CA.has(c)) || unknownCa.test(text)) {
    return {
      code: 'CQL_TLS_UNKNOWN_CA',
      message: `the certificate of ${at} is not signed by a CA this client trusts (trusting ${f.caSource ?? 'the system CAs only'}): ${why}`,
      fix: 'Give the CA that signed the node certificates, as PEM: certfile = <ca.pem> under [ssl] in cqlshrc, or CQL_TUNER_CQL_CA_FILE=<ca.pem>.',
    };
  }
  const clientCert = /certificate required|alert number 116|peer did not return a certificate|bad certificate|alert number 42/i;
  if (clientCert.test(text) || hasCode('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED')) {
    return {
      code: 'CQL_TLS_CLIENT_CERT',
      message: `${at} requires a client certificate (require_client_auth) and refused this one or its absence: ${why}`,
      fix:
        'Give a client certificate signed by a CA the nodes trust: userkey = <key.pem> and usercert = <cert.pem> under [ssl] ' +
        'in cqlshrc, or CQL_TUNER_CQL_CLIENT_KEY / CQL_TUNER_CQL_CLIENT_CERT.',
    };
  }
  if (f.tls && (/wrong version number|packet length too long|unknown protocol|EPROTO/i.test(text) || hasCode('EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER'))) {
    return {
      code: 'CQL_TLS_NOT_ON_SERVER',
      message: `TLS is on here but ${at} answered in plain text (client_encryption_options not enabled there): ${why}`,
      fix: `Turn TLS off for this cluster (unset ${TLS_SETTINGS}), or enable client_encryption_options on the nodes.`,
    };
  }
  if (/requires authentication, but no authenticator|no authenticator found|requires authentication/i.test(text)) {
    return {
      code: 'CQL_AUTH_REQUIRED',
      message: `${at} requires a login (PasswordAuthenticator) and no CQL credentials are configured`,
      fix:
        'Give the credentials of a read-only role: [authentication] username / password in cqlshrc (CQL_TUNER_CQLSHRC=<path>, ' +
        'default ~/.cassandra/cqlshrc), or CQL_TUNER_CQL_USERNAME with CQL_TUNER_CQL_PASSWORD (or CQL_TUNER_CQL_PASSWORD_FILE).',
    };
  }
  if (/Provided username .* incorrect|Bad credentials|Authentication|PasswordAuthenticator|Username and\/or password are incorrect/i.test(text)) {
    return {
      code: 'CQL_AUTH',
      message: `CQL login refused at ${at}${f.credentialSource ? ` for the credentials from ${f.credentialSource}` : ''}: ${why}`,
      fix:
        `Check the username and password${f.credentialSource ? ` in ${f.credentialSource}` : ''}; ` +
        'the role also needs LOGIN = true (ALTER ROLE <role> WITH LOGIN = true).',
    };
  }
  if (!f.tls && f.serverSpeaksTls) {
    return {
      code: 'CQL_TLS_REQUIRED',
      message: `${at} accepts only TLS on port ${f.port} (client_encryption_options enabled, optional: false) and TLS is off here: ${why}`,
      fix: `Set ${TLS_SETTINGS}, with the CA that signed the node certificates as certfile under [ssl] (or CQL_TUNER_CQL_CA_FILE).`,
    };
  }
  if (/SSL|TLS|certificate/i.test(text)) {
    return {
      code: 'CQL_TLS',
      message: `TLS problem connecting to ${at}: ${why}`,
      fix: 'Check the TLS settings: CQL_TUNER_CQL_TLS / CQL_TUNER_CQL_CA_FILE, or [connection] ssl and [ssl] certfile in cqlshrc.',
    };
  }
  return {
    code: 'CQL_UNREACHABLE',
    message: `no node answered CQL at ${at} (port ${f.port}): ${why}`,
    fix: 'Check the addresses, the native transport port (9042) and that the nodes run (nodetool statusbinary).',
  };
}

/**
 * A refused query as the GRANT that would allow it. Cassandra's Unauthorized message reads "User <role> has no
 * <PERMISSION> permission on <table ks.t> or any of its parents" (and <keyspace ks>, <all keyspaces>).
 */
const VIRTUAL_KEYSPACES = new Set(['system_views', 'system_virtual_schema']);

export function grantForUnauthorized(message: string): { role: string; grant: string } | null {
  const m = /User (\S+) has no (\w+) permission on <(table|keyspace|all keyspaces)\s*([^>]*)>/i.exec(message);
  if (!m) return null;
  const role = m[1]!;
  const perm = m[2]!.toUpperCase();
  const kind = m[3]!.toLowerCase();
  const name = m[4]!.trim();
  // The virtual keyspaces change table by table between releases (a table grant would go stale): the keyspace.
  // Anything else: the one table, the least privilege that allows the query.
  const ks = kind === 'table' ? name.split('.')[0]! : name;
  const on = kind === 'all keyspaces' ? 'ALL KEYSPACES' : kind === 'table' && !VIRTUAL_KEYSPACES.has(ks) ? `TABLE ${name}` : `KEYSPACE ${ks}`;
  return { role, grant: `GRANT ${perm} ON ${on} TO ${role}` };
}

/**
 * One warning per missing grant across a sweep's refused queries (CQL_UNAUTHORIZED sources), so a report says
 * "GRANT SELECT ON KEYSPACE system_views TO cql_tuner" once rather than once per virtual table and node.
 */
export function missingGrantWarnings(sources: readonly { name: string; error?: { code: string; message: string } }[]): string[] {
  const byGrant = new Map<string, Set<string>>();
  for (const s of sources) {
    if (s.error?.code !== 'CQL_UNAUTHORIZED') continue;
    const g = grantForUnauthorized(s.error.message);
    if (!g) continue;
    byGrant.set(g.grant, (byGrant.get(g.grant) ?? new Set()).add(s.name));
  }
  return [...byGrant].map(([grant, names]) => {
    const some = `${[...names].slice(0, 3).join(', ')}${names.size > 3 ? ', …' : ''}`;
    return `the CQL role may not read ${names.size} source(s) (${some}): missing grant, run as a superuser: ${grant}`;
  });
}
