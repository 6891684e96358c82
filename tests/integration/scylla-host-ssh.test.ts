/**
 * The ScyllaDB host set-up read over ssh, for real: a throwaway sshd on 127.0.0.1 (tests/helpers/sshd.ts) and the
 * recorded tuned-host tree. readScyllaHost through SshTarget must get exactly the facts it gets locally from the same
 * tree (the k8s:// and docker:// cases are in tests/unit/scylla-host-targets.test.ts, with shim clients).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScyllaHost } from '../../mcp-server/src/collect/host-scylla.js';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { SshTarget } from '../../mcp-server/src/collect/ssh-target.js';
import { writeTunedScyllaTree } from '../helpers/scylla-tree.js';
import { findSshd, SSHD_MISSING_MESSAGE, startSshd, type TestSshd } from '../helpers/sshd.js';

const SSHD = findSshd();
if (!SSHD) process.stderr.write(`note: ${SSHD_MISSING_MESSAGE}\n`);

const root = mkdtempSync(join(tmpdir(), 'scylla-host-ssh-tree-'));
let sshd: TestSshd;

beforeAll(async () => {
  writeTunedScyllaTree(root);
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
