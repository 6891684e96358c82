/**
 * The ScyllaDB host set-up read over ssh, for real: a throwaway sshd on 127.0.0.1 (tests/helpers/sshd.ts) and the
 * recorded tuned-host tree. readScyllaHost through SshTarget must get exactly the facts it gets locally from the same
 * tree (the k8s:// and docker:// cases are in tests/unit/scylla-host-targets.test.ts, with shim clients).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScyllaHost } from '../../mcp-server/src/collect/host-scylla.js';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { SshTarget } from '../../mcp-server/src/collect/ssh-target.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';
import { findSshd, SSHD_MISSING_MESSAGE, startSshd, type TestSshd } from '../helpers/sshd.js';

const SSHD = findSshd();
if (!SSHD) process.stderr.write(`note: ${SSHD_MISSING_MESSAGE}\n`);

const root = mkdtempSync(join(tmpdir(), 'scylla-host-ssh-tree-'));
let sshd: TestSshd;

beforeAll(async () => {
  // The tuned ScyllaDB tree plus the set-up files of scylladb#14366 and one NIC queue, as in the k8s/docker case.
  cpSync(join(FIXTURES_DIR, 'storage', 'os-scylla-tuned'), root, { recursive: true });
  const w = (p: string, text: string) => {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  };
  w('etc/scylla.d/cpuset.conf', 'CPUSET="--cpuset 1 "\n');
  w('etc/scylla.d/perftune.yaml', "cpu_mask: '0x3'\nirq_cpu_mask: '0x1'\nnic:\n- ens4\ntune:\n- net\n");
  w('etc/default/scylla-server', 'SET_NIC_AND_DISKS=no\nSET_CLOCKSOURCE=yes\n');
  w('proc/interrupts', '           CPU0       CPU1       \n 24:    8812345          0   PCI-MSI 81920-edge      ens4-Tx-Rx-0\n');
  w('proc/irq/24/smp_affinity_list', '1\n');
  if (SSHD) sshd = await startSshd(SSHD);
});
afterAll(async () => {
  await sshd?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!SSHD)('readScyllaHost over ssh (a real sshd on 127.0.0.1)', () => {
  it('reads the same facts as locally from the same tree', async () => {
    const target = new SshTarget({
      host: '127.0.0.1',
      port: sshd.port,
      user: sshd.user,
      identityFile: sshd.clientKey,
      knownHostsFile: sshd.knownHosts,
      // The machine's ~/.ssh/config must not change what the test exercises.
      configFile: '/dev/null',
    });
    const remote = await readScyllaHost(target, { root });
    const local = await readScyllaHost(new LocalTarget(), { root });
    const names = [target.describe(), new LocalTarget().describe()];
    const strip = (f: typeof local) => JSON.parse(names.reduce((t, n) => t.split(n).join('T'), JSON.stringify(f))) as unknown;
    expect(strip(remote)).toEqual(strip(local));
    expect(remote).toMatchObject({ perftune: { nics: ['ens4'] }, env: { SET_NIC_AND_DISKS: 'no' }, affinity: { 24: [1] }, process: { pid: 1717 } });
  });
});
