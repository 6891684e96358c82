import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cqlCredentialsFromEnv } from '../../mcp-server/src/collect/cql-credentials.js';
import { OpError } from '../../mcp-server/src/ops/errors.js';

const home = mkdtempSync(join(tmpdir(), 'cql-creds-'));
mkdirSync(join(home, '.cassandra'));
mkdirSync(join(home, 'keys'));
writeFileSync(join(home, 'keys', 'ca.pem'), 'CA-PEM');
writeFileSync(join(home, 'keys', 'k.pem'), 'KEY-PEM');
writeFileSync(join(home, 'keys', 'c.pem'), 'CERT-PEM');
afterAll(() => rmSync(home, { recursive: true, force: true }));

function rc(name: string, text: string): string {
  const p = join(home, name);
  writeFileSync(p, text);
  return p;
}

async function refused(p: Promise<unknown>): Promise<OpError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(OpError);
  return e as OpError;
}

describe('CQL credentials and TLS from the environment and cqlshrc', () => {
  it('nothing configured: no credentials, no TLS (no ~/.cassandra/cqlshrc is fine)', async () => {
    const c = await cqlCredentialsFromEnv({}, join(home, 'nobody'));
    expect(c).toMatchObject({ tls: false, credentialSource: null, cqlshrc: null, secrets: [] });
    expect(c.username).toBeUndefined();
  });

  it('reads ~/.cassandra/cqlshrc by default, with ~ and relative paths expanded', async () => {
    writeFileSync(
      join(home, '.cassandra', 'cqlshrc'),
      '[authentication]\nusername = reader\npassword = pw1\n[connection]\nssl = true\n[ssl]\ncertfile = ~/keys/ca.pem\nuserkey = ../keys/k.pem\nusercert = ../keys/c.pem\n',
    );
    const c = await cqlCredentialsFromEnv({}, home);
    expect(c.username).toBe('reader');
    expect(c.password).toBe('pw1');
    expect(c.secrets).toEqual(['pw1']);
    expect(c.credentialSource).toBe(`cqlshrc ${join(home, '.cassandra', 'cqlshrc')}`);
    expect(c.tls).toBe(true);
    expect(c.sslOptions?.ca?.[0]?.toString()).toBe('CA-PEM');
    expect(c.sslOptions?.key?.toString()).toBe('KEY-PEM');
    expect(c.sslOptions?.cert?.toString()).toBe('CERT-PEM');
    expect(c.sslOptions?.rejectUnauthorized).toBe(true);
  });

  it('the environment wins key by key over cqlshrc', async () => {
    const path = rc('a.cqlshrc', '[authentication]\nusername = fromrc\npassword = rcpw\n[connection]\nssl = true\n[ssl]\nvalidate = false\n');
    const c = await cqlCredentialsFromEnv(
      { CQL_TUNER_CQLSHRC: path, CQL_TUNER_CQL_USERNAME: 'envuser', CQL_TUNER_CQL_PASSWORD: 'envpw', CQL_TUNER_CQL_TLS: '0' },
      home,
    );
    expect(c).toMatchObject({ username: 'envuser', password: 'envpw', tls: false, credentialSource: 'CQL_TUNER_CQL_USERNAME' });
    const insecure = await cqlCredentialsFromEnv({ CQL_TUNER_CQLSHRC: path }, home);
    expect(insecure.sslOptions?.rejectUnauthorized).toBe(false); // validate = false
    const strict = await cqlCredentialsFromEnv({ CQL_TUNER_CQLSHRC: path, CQL_TUNER_CQL_TLS_INSECURE: '0' }, home);
    expect(strict.sslOptions?.rejectUnauthorized).toBe(true);
  });

  it('a password from CQL_TUNER_CQL_PASSWORD_FILE (one trailing newline dropped) and from the cqlsh credentials file', async () => {
    const pw = rc('pw.txt', 'pass word \n');
    const c = await cqlCredentialsFromEnv({ CQL_TUNER_CQL_USERNAME: 'u', CQL_TUNER_CQL_PASSWORD_FILE: pw, CQL_TUNER_CQLSHRC: rc('empty.cqlshrc', '') }, home);
    expect(c.password).toBe('pass word ');
    rc('creds', '[PlainTextAuthProvider]\nusername = credu\npassword = credpw\n');
    const viaFile = await cqlCredentialsFromEnv({ CQL_TUNER_CQLSHRC: rc('b.cqlshrc', '[authentication]\ncredentials = creds\n') }, home);
    expect(viaFile).toMatchObject({ username: 'credu', password: 'credpw', secrets: ['credpw'] });
    expect(viaFile.credentialSource).toContain(join(home, 'creds'));
  });

  it('an explicit cqlshrc that is missing, a symlink to /proc, or a key without its certificate: a clear error', async () => {
    const missing = await refused(cqlCredentialsFromEnv({ CQL_TUNER_CQLSHRC: join(home, 'nope') }, home));
    expect(missing.code).toBe('CQL_SETTINGS_UNREADABLE');
    expect(missing.fix).toContain('CQL_TUNER_CQLSHRC');
    symlinkSync('/proc/self/environ', join(home, 'evil.cqlshrc'));
    expect((await refused(cqlCredentialsFromEnv({ CQL_TUNER_CQLSHRC: join(home, 'evil.cqlshrc') }, home))).code).toBe('CQL_SETTINGS_UNREADABLE');
    const half = rc('half.cqlshrc', '[connection]\nssl = true\n[ssl]\nuserkey = keys/k.pem\n');
    expect((await refused(cqlCredentialsFromEnv({ CQL_TUNER_CQLSHRC: half }, home))).code).toBe('CQL_SETTINGS_INCOMPLETE');
    expect((await refused(cqlCredentialsFromEnv({ CQL_TUNER_CQL_TLS: 'maybe', CQL_TUNER_CQLSHRC: half }, home))).code).toBe('BAD_SETTING');
  });
});
