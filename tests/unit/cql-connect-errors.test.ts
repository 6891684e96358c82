import { describe, expect, it } from 'vitest';
import { diagnoseCqlConnect, grantForUnauthorized, missingGrantWarnings, type CqlConnectFailure } from '../../mcp-server/src/core/cql-connect-errors.js';
import { classifyNodetoolFailure } from '../../mcp-server/src/core/nodetool-errors.js';

const base: CqlConnectFailure = {
  points: ['10.0.0.1'],
  port: 9042,
  message: 'All host(s) tried for query failed',
  detail: '',
  errorCodes: [],
  tls: true,
  credentialSource: null,
  caSource: null,
};

// Messages as Node's TLS and cassandra-driver 4.10 word them (seen against the secured lab of tests/integration).
describe('CQL connect failures → code and fix', () => {
  it('host name mismatch', () => {
    const d = diagnoseCqlConnect({
      ...base,
      detail: "10.0.0.1:9042: Hostname/IP does not match certificate's altnames: IP: 10.0.0.1 is not in the cert's list: 10.0.0.9",
      errorCodes: ['ERR_TLS_CERT_ALTNAME_INVALID'],
    });
    expect(d.code).toBe('CQL_TLS_HOSTNAME');
    expect(d.fix).toMatch(/subjectAltName/);
  });

  it('unknown CA, naming where the trusted CA came from', () => {
    const d = diagnoseCqlConnect({
      ...base,
      detail: '10.0.0.1:9042: self-signed certificate in certificate chain',
      errorCodes: ['SELF_SIGNED_CERT_IN_CHAIN'],
      caSource: 'CQL_TUNER_CQL_CA_FILE /x/other.pem',
    });
    expect(d.code).toBe('CQL_TLS_UNKNOWN_CA');
    expect(d.message).toContain('/x/other.pem');
    expect(d.fix).toMatch(/certfile/);
    expect(diagnoseCqlConnect({ ...base, detail: 'unable to verify the first certificate' }).code).toBe('CQL_TLS_UNKNOWN_CA');
  });

  it('expired certificate', () => {
    expect(diagnoseCqlConnect({ ...base, detail: 'certificate has expired', errorCodes: ['CERT_HAS_EXPIRED'] }).code).toBe('CQL_TLS_CERT_EXPIRED');
  });

  it('client certificate required', () => {
    const d = diagnoseCqlConnect({ ...base, detail: 'write EPROTO ...:SSL alert number 116' });
    expect(d.code).toBe('CQL_TLS_CLIENT_CERT');
    expect(d.fix).toMatch(/userkey/);
  });

  it('TLS on here, plain text there', () => {
    const d = diagnoseCqlConnect({
      ...base,
      detail: 'write EPROTO 0080:error:0A00010B:SSL routines:ssl3_get_record:wrong version number',
      errorCodes: ['EPROTO'],
    });
    expect(d.code).toBe('CQL_TLS_NOT_ON_SERVER');
  });

  it('TLS required there, off here: only once a handshake proved the server speaks TLS', () => {
    const off = { ...base, tls: false, detail: '10.0.0.1:9042: Socket was closed' };
    expect(diagnoseCqlConnect(off).code).toBe('CQL_UNREACHABLE');
    const d = diagnoseCqlConnect({ ...off, serverSpeaksTls: true });
    expect(d.code).toBe('CQL_TLS_REQUIRED');
    expect(d.fix).toContain('CQL_TUNER_CQL_TLS=1');
  });

  it('login needed but no credentials, and a refused login naming where the credentials came from', () => {
    const need = diagnoseCqlConnect({ ...base, detail: 'Host 10.0.0.1:9042 requires authentication, but no authenticator found in the options' });
    expect(need.code).toBe('CQL_AUTH_REQUIRED');
    expect(need.fix).toContain('CQL_TUNER_CQLSHRC');
    const bad = diagnoseCqlConnect({
      ...base,
      detail: 'Provided username reader and/or password are incorrect',
      credentialSource: 'cqlshrc /home/u/.cassandra/cqlshrc',
    });
    expect(bad.code).toBe('CQL_AUTH');
    expect(bad.message).toContain('cqlshrc /home/u/.cassandra/cqlshrc');
  });

  it('anything else is unreachable', () => {
    expect(diagnoseCqlConnect({ ...base, tls: false, detail: 'connect ECONNREFUSED 10.0.0.1:9042' }).code).toBe('CQL_UNREACHABLE');
  });
});

describe('missing grants', () => {
  it('turns Unauthorized into the least GRANT: a virtual keyspace whole, another table alone', () => {
    expect(grantForUnauthorized('User cql_tuner has no SELECT permission on <table system_views.clients> or any of its parents')).toEqual({
      role: 'cql_tuner',
      grant: 'GRANT SELECT ON KEYSPACE system_views TO cql_tuner',
    });
    expect(grantForUnauthorized('User r has no SELECT permission on <table system_distributed.parent_repair_history> or any of its parents')?.grant).toBe(
      'GRANT SELECT ON TABLE system_distributed.parent_repair_history TO r',
    );
    expect(grantForUnauthorized('User r has no DESCRIBE permission on <all keyspaces> or any of its parents')?.grant).toBe(
      'GRANT DESCRIBE ON ALL KEYSPACES TO r',
    );
    expect(grantForUnauthorized('Read timeout')).toBeNull();
  });

  it('says each missing grant once for a whole sweep', () => {
    const err = (t: string) => ({ code: 'CQL_UNAUTHORIZED', message: `10.0.0.1: User r has no SELECT permission on <table ${t}> or any of its parents` });
    const w = missingGrantWarnings([
      { name: 'cql:system_views.clients', error: err('system_views.clients') },
      { name: 'cql:system_views.caches', error: err('system_views.caches') },
      { name: 'cql:system.local' },
      { name: 'nodetool:info', error: { code: 'JMX_AUTH', message: 'x' } },
    ]);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain('2 source(s)');
    expect(w[0]).toContain('GRANT SELECT ON KEYSPACE system_views TO r');
  });
});

describe('nodetool JMX authentication failures (texts from nodetool 5.0.9 against the secured lab)', () => {
  it('no login, a wrong password and a read-only user are three different fixes', () => {
    const none = classifyNodetoolFailure(
      'info',
      '127.0.0.1',
      7199,
      'error: Authentication failed! Credentials required\n-- StackTrace --\njava.lang.SecurityException: Authentication failed! Credentials required',
    );
    expect(none.code).toBe('JMX_AUTH');
    expect(none.message).toMatch(/requires a login/);
    const wrong = classifyNodetoolFailure(
      'info',
      '127.0.0.1',
      7199,
      'error: Invalid username or password\n-- StackTrace --\njavax.security.auth.login.FailedLoginException: Invalid username or password',
    );
    expect(wrong.code).toBe('JMX_AUTH');
    expect(wrong.message).toMatch(/refused the user name or password/);
    const ro = classifyNodetoolFailure(
      'status',
      '127.0.0.1',
      7199,
      'error: Access denied! Invalid access level for requested MBeanServer operation.\njava.lang.SecurityException: Access denied!',
    );
    expect(ro.code).toBe('JMX_ACCESS_DENIED');
    expect(ro.fix).toMatch(/readwrite/);
  });

  it('a plain client meeting JMX over SSL is JMX_SSL, not an unreachable port', () => {
    const t = "nodetool: Failed to connect to '127.0.0.1:7199' - ConnectIOException: 'non-JRMP server at remote endpoint'.";
    expect(classifyNodetoolFailure('info', '127.0.0.1', 7199, t).code).toBe('JMX_SSL');
    expect(
      classifyNodetoolFailure('info', '127.0.0.1', 7199, "nodetool: Failed to connect to '127.0.0.1:7199' - ConnectException: 'Connection refused'.").code,
    ).toBe('JMX_UNREACHABLE');
  });
});
