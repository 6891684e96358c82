import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderCassandraYaml, securityYaml } from '../../mcp-server/src/lab/config-files.js';
import { jmxAuthFlags, jmxSslFlags, nodetoolJvmFlags, serverJvmFlags } from '../../mcp-server/src/lab/jvm-flags.js';
import { LabError } from '../../mcp-server/src/lab/errors.js';
import { DEFAULT_LAB_NET, labNet, nodeAddress, nodeAddressOn } from '../../mcp-server/src/lab/paths.js';
import { renderCqlshrc } from '../../mcp-server/src/lab/security.js';
import { parseCqlshrc } from '../../mcp-server/src/core/cqlshrc.js';

describe('CQL_TUNER_LAB_NET: a second lab on its own loopback addresses', () => {
  it('defaults to 127.0.0 with the ports of the default lab unchanged', () => {
    expect(labNet({})).toBe(DEFAULT_LAB_NET);
    expect(labNet({ CQL_TUNER_LAB_NET: ' ' })).toBe('127.0.0');
    expect([1, 2, 3].map((i) => nodeAddressOn('127.0.0', i))).toEqual([1, 2, 3].map((i) => nodeAddress(i)));
  });

  it('puts nodes on NET.1-3 with JMX ports of their own, distinct from the default lab and from each other', () => {
    expect(labNet({ CQL_TUNER_LAB_NET: '127.0.2' })).toBe('127.0.2');
    const other = [1, 2, 3].map((i) => nodeAddressOn('127.0.2', i));
    expect(other.map((n) => n.host)).toEqual(['127.0.2.1', '127.0.2.2', '127.0.2.3']);
    const defaults = [7199, 7299, 7399];
    const ports = other.map((n) => n.jmxPort);
    expect(new Set(ports).size).toBe(3);
    for (const p of ports) {
      expect(defaults).not.toContain(p);
      expect(p).toBeGreaterThan(1024);
      expect(p).toBeLessThan(32768); // below Linux's ephemeral range
    }
    const third = [1, 2, 3].map((i) => nodeAddressOn('127.0.3', i).jmxPort);
    expect(third.some((p) => ports.includes(p))).toBe(false);
    expect(nodeAddressOn('127.255.255', 3).jmxPort).toBeLessThan(32768);
  });

  it('normalises leading zeros and refuses anything outside 127.0.0.0/8 or not three octets', () => {
    expect(labNet({ CQL_TUNER_LAB_NET: '127.00.02' })).toBe('127.0.2');
    for (const bad of ['10.0.0', '127.0.2.1', '127.0', '127.256.0', 'localhost', '127.0.2; rm']) {
      const e = (() => {
        try {
          labNet({ CQL_TUNER_LAB_NET: bad });
          return null;
        } catch (err) {
          return err;
        }
      })();
      expect(e, bad).toBeInstanceOf(LabError);
      expect((e as LabError).code).toBe('BAD_LAB_NET');
      expect((e as LabError).fix).toContain('127.0.2');
    }
  });

  it('seeds a lab on another network from its own node 1', () => {
    const y = parse(renderCassandraYaml({ version: '5.0', host: '127.0.2.2', nodeDir: '/n', seed: '127.0.2.1:7000' })) as Record<string, unknown>;
    expect(JSON.stringify(y.seed_provider)).toContain('127.0.2.1:7000');
    expect(y.listen_address).toBe('127.0.2.2');
  });
});

describe('secured lab config', () => {
  const tls = { keystore: '/s/node1.p12', truststore: '/s/truststore.p12', password: 'pw', requireClientAuth: true, internode: true };

  it('writes the authenticator as a bare class for 4.1 and as class_name for 5.0 (ParameterizedClass)', () => {
    expect(securityYaml('4.1', { auth: true, tls: null })).toEqual({
      authenticator: 'PasswordAuthenticator',
      authorizer: 'CassandraAuthorizer',
      role_manager: 'CassandraRoleManager',
    });
    expect(securityYaml('5.0', { auth: true, tls: null }).authenticator).toEqual({ class_name: 'PasswordAuthenticator' });
  });

  it('requires TLS on the native port (optional: false) and turns on mutual internode TLS', () => {
    const y = securityYaml('5.0', { auth: false, tls });
    expect(y.authenticator).toBeUndefined();
    expect(y.client_encryption_options).toMatchObject({
      enabled: true,
      optional: false,
      require_client_auth: true,
      keystore: '/s/node1.p12',
      store_type: 'PKCS12',
    });
    expect(y.server_encryption_options).toMatchObject({ internode_encryption: 'all', require_client_auth: true, require_endpoint_verification: false });
    expect(securityYaml('5.0', { auth: false, tls: { ...tls, internode: false } }).server_encryption_options).toBeUndefined();
  });

  it('leaves the open lab yaml without any security key', () => {
    const y = parse(renderCassandraYaml({ version: '5.0', host: '127.0.0.1', nodeDir: '/n' })) as Record<string, unknown>;
    for (const k of ['authenticator', 'authorizer', 'client_encryption_options', 'server_encryption_options']) expect(y[k]).toBeUndefined();
  });

  it('sets JMX authentication the way cassandra-env.sh does, plus the export Java 17 needs for it', () => {
    expect(jmxAuthFlags(undefined)).toEqual(['-Dcom.sun.management.jmxremote.authenticate=false']);
    const f = jmxAuthFlags({ passwordFile: '/s/jmxremote.password', accessFile: '/s/jmxremote.access' });
    expect(f).toContain('-Dcom.sun.management.jmxremote.authenticate=true');
    expect(f).toContain('-Dcom.sun.management.jmxremote.password.file=/s/jmxremote.password');
    expect(f).toContain('-Dcom.sun.management.jmxremote.access.file=/s/jmxremote.access');
    expect(f).toContain('--add-exports=java.management/com.sun.jmx.remote.security=ALL-UNNAMED');
    const base = {
      version: '5.0' as const,
      heap: '512M',
      nodeDir: '/n',
      logDir: '/n/logs',
      configUrl: 'file:///n/c.yaml',
      logbackPath: '/n/l.xml',
      jmxPort: 20021,
      index: 1,
      jammJar: null,
    };
    const flags = serverJvmFlags({ ...base, jmxAuth: { passwordFile: '/p', accessFile: '/a' }, superuserSetupDelayMs: 0 });
    expect(flags).not.toContain('-Dcom.sun.management.jmxremote.authenticate=false');
    expect(flags).toContain('-Dcassandra.superuser_setup_delay_ms=0');
  });

  it('JMX over SSL: the daemon serves with its keystore, the lab nodetool trusts the lab truststore', () => {
    expect(jmxSslFlags(undefined)).toEqual([]);
    expect(jmxSslFlags({ keystore: '/s/node1.p12', password: 'pw' })).toEqual([
      '-Dcom.sun.management.jmxremote.ssl=true',
      '-Dcom.sun.management.jmxremote.ssl.need.client.auth=false',
      '-Djavax.net.ssl.keyStore=/s/node1.p12',
      '-Djavax.net.ssl.keyStorePassword=pw',
      '-Djavax.net.ssl.keyStoreType=PKCS12',
    ]);
    expect(nodetoolJvmFlags('5.0', '/l.xml').some((f) => f.includes('trustStore'))).toBe(false);
    expect(nodetoolJvmFlags('5.0', '/l.xml', { truststore: '/s/t.p12', password: 'pw' })).toEqual(
      expect.arrayContaining(['-Djavax.net.ssl.trustStore=/s/t.p12', '-Djavax.net.ssl.trustStorePassword=pw', '-Djavax.net.ssl.trustStoreType=PKCS12']),
    );
  });

  it("writes a cqlshrc that cql-tuner's own parser reads back", () => {
    const text = renderCqlshrc({ username: 'cql_tuner', password: 'p w', caPem: '/s/ca.pem', userKey: '/s/k.pem', userCert: '/s/c.pem', host: '127.0.2.1' });
    expect(parseCqlshrc(text)).toEqual({
      username: 'cql_tuner',
      password: 'p w',
      hostname: '127.0.2.1',
      port: 9042,
      ssl: true,
      certfile: '/s/ca.pem',
      validate: true,
      userkey: '/s/k.pem',
      usercert: '/s/c.pem',
      warnings: [],
    });
  });
});
