/**
 * A secured lab's certificates made by the real JDK keytool (about 25 JVM starts, hence the lab lane): when the CA
 * has to be remade (an interrupted start lost ca.p12), the truststore and the node and client key stores signed by
 * the old CA are remade with it, so the folder is never half old, half new. No Cassandra is started.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureLabSecrets, NO_SECURITY } from '../../mcp-server/src/lab/security.js';

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-lab-ca-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const have = (bin: string, arg: string): boolean => {
  try {
    execFileSync(bin, [arg], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
// CQL_TUNER_SKIP_LAB=1: no JDK on this machine (as for every lab-lane file).
const skip = process.env.CQL_TUNER_SKIP_LAB === '1' || !have('keytool', '-help') || !have('openssl', 'version');

describe.skipIf(skip)('lab secrets with real keytool', () => {
  it('a CA remade (ca.p12 lost) remakes the truststore and node key stores it must sign', async () => {
    const s = await ensureLabSecrets(tmp, '/usr/bin/java', ['127.0.5.1'], { ...NO_SECURITY, tls: true });
    const caBefore = readFileSync(s.caPem, 'utf8');
    const storeBefore = readFileSync(s.nodeKeystore(1));
    // An interrupted start: the CA key store is gone, the rest (signed by the old CA) is still there.
    rmSync(join(s.dir, 'ca.p12'));
    const again = await ensureLabSecrets(tmp, '/usr/bin/java', ['127.0.5.1'], { ...NO_SECURITY, tls: true });
    const caAfter = readFileSync(again.caPem, 'utf8');
    expect(caAfter).not.toBe(caBefore);
    expect(readFileSync(again.nodeKeystore(1)).equals(storeBefore)).toBe(false);
    // The node key store now chains to the new CA: openssl verifies its certificate against the new ca.pem.
    const pw = again.passwords.store;
    const certs = execFileSync('openssl', ['pkcs12', '-in', again.nodeKeystore(1), '-passin', `pass:${pw}`, '-nokeys', '-clcerts'], { encoding: 'utf8' });
    const leaf = join(tmp, 'leaf.pem');
    writeFileSync(leaf, certs);
    expect(execFileSync('openssl', ['verify', '-CAfile', again.caPem, leaf], { encoding: 'utf8' })).toContain('OK');
  }, 400_000);
});
