import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { SshTarget } from '../../mcp-server/src/collect/ssh-target.js';
import { readHostStorage } from '../../mcp-server/src/collect/storage/read-host.js';
import { readOs } from '../../mcp-server/src/collect/storage/read-os.js';
import { storageRules } from '../../mcp-server/src/core/rules/storage.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';
import { findSshd, SSHD_MISSING_MESSAGE, startSshd, type TestSshd } from '../helpers/sshd.js';

const SSHD = findSshd();
if (!SSHD) process.stderr.write(`note: ${SSHD_MISSING_MESSAGE}\n`);

// The same inspection through a real sshd on 127.0.0.1 must see exactly what the local target sees:
// every read is an argv that survives the remote shell's quoting (paths with spaces included).
describe.skipIf(!SSHD)('storage and OS readers over a real SSH target', () => {
  let sshd: TestSshd;
  const ssh = () =>
    new SshTarget({
      host: '127.0.0.1',
      port: sshd.port,
      user: sshd.user,
      identityFile: sshd.clientKey,
      knownHostsFile: sshd.knownHosts,
      configFile: '/dev/null',
    });

  beforeAll(async () => {
    sshd = await startSshd(SSHD as string);
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
  });

  it('a recorded tree read over ssh gives the same facts and findings as read locally', async () => {
    const opts = {
      root: join(FIXTURES_DIR, 'storage', 'raid0-1m'),
      product: 'scylla' as const,
      dirs: [{ role: 'data' as const, path: '/var/lib/scylla/data' }],
    };
    const local = await readHostStorage(new LocalTarget(), opts);
    const remote = await readHostStorage(ssh(), opts);
    const strip = (f: typeof local.facts) => ({ ...f, origin: '' });
    expect(strip(remote.facts)).toEqual(strip(local.facts));
    expect(remote.facts.xfs).toHaveLength(1);
    expect(
      storageRules(remote.facts)
        .flatMap((o) => o.findings)
        .map((f) => f.id),
    ).toContain('storage.xfs-stripe-aligned');
  }, 60_000);

  it('this machine over ssh: same devices and sector sizes as local; OS facts identical', async () => {
    const local = await readHostStorage(new LocalTarget(), {});
    const remote = await readHostStorage(ssh(), {});
    expect(remote.facts.devices.map((d) => [d.name, d.logicalSectorSize, d.physicalSectorSize, d.readAheadKiB])).toEqual(
      local.facts.devices.map((d) => [d.name, d.logicalSectorSize, d.physicalSectorSize, d.readAheadKiB]),
    );
    const lo = await readOs(new LocalTarget(), { product: 'cassandra' });
    const ro = await readOs(ssh(), { product: 'cassandra' });
    // Processes come and go (other tests start Cassandra labs on this machine): compare the host settings only.
    const stable = (f: typeof lo) => ({ ...f, origin: '', process: null, unread: f.unread.filter((u) => !/process|\/proc\/\d+/.test(u.what)) });
    expect(stable(ro)).toEqual(stable(lo));
  }, 60_000);
});
