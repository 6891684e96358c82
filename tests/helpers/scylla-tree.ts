/**
 * A tuned ScyllaDB host as files: the recorded tree of tests/fixtures/storage/os-scylla-tuned plus the set-up files of
 * scylladb#14366 (cpuset.conf, perftune.yaml, scylla-server defaults) and one NIC queue's interrupt and affinity, for
 * readScyllaHost through each Target (local, ssh, kubectl and docker shims).
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FIXTURES_DIR } from './corpus.js';

/** The recorded tuned tree copied under `root`, and a writer of more files under it (directories made as needed). */
export function copyTunedScyllaTree(root: string): (path: string, text: string) => void {
  cpSync(join(FIXTURES_DIR, 'storage', 'os-scylla-tuned'), root, { recursive: true });
  return (p, text) => {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  };
}

export function writeTunedScyllaTree(root: string): void {
  const w = copyTunedScyllaTree(root);
  w('etc/scylla.d/cpuset.conf', 'CPUSET="--cpuset 1 "\n');
  w('etc/scylla.d/perftune.yaml', "cpu_mask: '0x3'\nirq_cpu_mask: '0x1'\nnic:\n- ens4\ntune:\n- net\n");
  w('etc/default/scylla-server', 'SET_NIC_AND_DISKS=no\nSET_CLOCKSOURCE=yes\n');
  w('proc/interrupts', '           CPU0       CPU1       \n 24:    8812345          0   PCI-MSI 81920-edge      ens4-Tx-Rx-0\n');
  w('proc/irq/24/smp_affinity_list', '1\n');
}
