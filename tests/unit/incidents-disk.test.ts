import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findIncident } from '../../mcp-server/src/lab/incidents/registry.js';
import { schemaVersionCount } from '../../mcp-server/src/lab/incidents/schema-disagreement.js';
import type { IncidentContext } from '../../mcp-server/src/lab/incidents/types.js';
import type { LabState } from '../../mcp-server/src/lab/types.js';
import { fillBytes, loopDevicesOf, majMinOf, mkfsArgv, mountPoints } from '../../mcp-server/src/lab/incidents/loop-disk.js';
import { isNodeCommandLine } from '../../mcp-server/src/lab/incidents/node-restart.js';
import { labMarkerFlag } from '../../mcp-server/src/lab/jvm-flags.js';

describe('loop filesystem helpers (disk-near-full, slow-disk)', () => {
  it('detaches only the loop devices `losetup -j <image>` names for that image', () => {
    // losetup -j on this host while the disk-near-full incident ran.
    const out = '/dev/loop0: [65024]:10027581 (/tmp/h3-home/lab/incident-disk/disk-near-full/node1.img)\n';
    expect(loopDevicesOf(out)).toEqual(['/dev/loop0']);
    expect(loopDevicesOf('')).toEqual([]);
    expect(loopDevicesOf('/dev/sda: not a loop\n/dev/loop12: [1]:2 (/x)')).toEqual(['/dev/loop12']);
  });

  it('reads mount points from mountinfo, octal escapes decoded', () => {
    const info = [
      '36 35 98:0 / /mnt1 rw,noatime master:1 - ext3 /dev/root rw,errors=continue',
      '412 30 7:0 / /tmp/h3-home/lab/node1/data rw,relatime shared:200 - xfs /dev/loop0 rw',
      '413 30 7:1 / /tmp/a\\040b rw - xfs /dev/loop1 rw',
    ].join('\n');
    expect(mountPoints(info)).toEqual(['/mnt1', '/tmp/h3-home/lab/node1/data', '/tmp/a b']);
  });

  it('major:minor of a loop device as blkio.throttle.* wants it', () => {
    // stat(2) st_rdev of /dev/loop0 (7:0) and of a minor above 255 (259:65536 = NVMe-style numbering).
    expect(majMinOf(0x700)).toBe('7:0');
    expect(majMinOf(0x703)).toBe('7:3');
    expect(majMinOf(259 * 256 + (65536 & 0xff) + ((65536 & 0xfff00) << 12))).toBe('259:65536');
  });

  it('fills to df’s Use% (used ÷ (used + available)), in whole 4 KiB blocks, never negative', () => {
    // statfs of the fresh 1 GiB XFS image: 4 KiB blocks, about 2 % used.
    const s = { blocks: 245760, bfree: 240000, bavail: 240000, bsize: 4096 };
    const bytes = fillBytes(s, 95);
    expect(bytes % 4096).toBe(0);
    const used = (s.blocks - s.bfree) * s.bsize + bytes;
    const total = (s.blocks - s.bfree + s.bavail) * s.bsize;
    expect(used / total).toBeGreaterThan(0.949);
    expect(used / total).toBeLessThanOrEqual(0.95);
    expect(fillBytes({ ...s, bfree: 1000, bavail: 1000 }, 95)).toBe(0);
  });

  it('XFS when mkfs.xfs exists and the image is big enough for it, ext4 otherwise', () => {
    expect(mkfsArgv('/dev/loop3', true)).toEqual({ argv: ['mkfs.xfs', '-q', '-f', '/dev/loop3'], fsType: 'xfs' });
    expect(mkfsArgv('/dev/loop3', false)).toEqual({ argv: ['mkfs.ext4', '-q', '-F', '-m', '0', '/dev/loop3'], fsType: 'ext4' });
  });

  it('a node is restarted only with its own daemon command line', () => {
    const argv = ['/usr/bin/java', labMarkerFlag('/lab/node3'), '-Xmx1G', 'org.apache.cassandra.service.CassandraDaemon'];
    expect(isNodeCommandLine(argv, '/lab/node3')).toBe(true);
    expect(isNodeCommandLine(argv, '/lab/node1')).toBe(false);
    expect(isNodeCommandLine(['/bin/sh', labMarkerFlag('/lab/node3')], '/lab/node3')).toBe(false);
  });
});

const state = (n: number): LabState => ({
  version: '4.1',
  fullVersion: '4.1.10',
  heap: '1G',
  datacenters: 1,
  startedAt: '2026-01-01T00:00:00Z',
  stateDir: '/lab',
  nodes: Array.from({ length: n }, (_, i) => ({
    index: i + 1,
    host: `127.0.7.${i + 1}`,
    cqlPort: 9042 as const,
    jmxPort: 20071 + i,
    pid: 100 + i,
    dir: `/lab/node${i + 1}`,
    logFile: `/lab/node${i + 1}/logs/system.log`,
    datacenter: 'datacenter1',
    rack: 'rack1',
  })),
});

/** Records calls; nodetool answers from `answers` (by subcommand) so polling incidents see a real cluster's replies. */
function recorder(n: number, answers: Record<string, string[]> = {}, failMove = false) {
  const calls: string[] = [];
  const ctx: IncidentContext = {
    state: state(n),
    cql: async (q) => void calls.push(`cql: ${q}`),
    cqlMany: async (q, rows) => void calls.push(`cqlMany x${rows.length}: ${q}`),
    nodetool: async (i, args) => (calls.push(`nodetool@${i}: ${args.join(' ')}`), answers[args[0]!]?.shift() ?? answers[args[0]!]?.[0] ?? ''),
    latte: async (r) => void calls.push(`latte ${r.fn} ${r.seconds}s ${JSON.stringify(r.params)}`),
    startLoad: async (tag, r) => void calls.push(`load start ${tag}: ${r.fn} ${JSON.stringify(r.params)}`),
    stopLoad: async (tag) => void calls.push(`load stop ${tag}`),
    labPid: async (i) => 200 + i,
    signal: async (i, s) => void calls.push(`signal@${i}: ${s}`),
    cgroupWrite: async (c, g, f, v) => void calls.push(`cgroup ${c}/${g}/${f} = ${v}`),
    cgroupRemove: async (c, g) => void calls.push(`cgroup rm ${c}/${g}`),
    sleep: async () => {},
    progress: (m) => void calls.push(`progress: ${m}`),
    disk: {
      moveDataToLoop: async (i, name, o) => {
        calls.push(`disk move@${i}: ${name} ${o.sizeMiB} MiB ra ${String(o.readAheadKB)}`);
        if (failMove) throw new Error('mkfs failed');
        return { device: '/dev/loop0', majMin: '7:0', fsType: 'xfs', mount: `/lab/node${i}/data` };
      },
      fill: async (i, name, pct) => (calls.push(`disk fill@${i}: ${name} ${pct}`), { usedPct: pct }),
      restoreData: async (i, name) => void calls.push(`disk restore@${i}: ${name}`),
    },
  };
  return { ctx, calls };
}

describe('disk incidents, call by call', () => {
  it('disk-near-full moves node 1 onto a loop filesystem and fills it past 90 %; heal restores it', async () => {
    const r = recorder(1);
    const i = findIncident('disk-near-full')!;
    await i.inject(r.ctx);
    expect(r.calls.filter((c) => c.startsWith('disk'))).toEqual(['disk move@1: disk-near-full 1024 MiB ra undefined', 'disk fill@1: disk-near-full 95']);
    r.calls.length = 0;
    await i.heal(r.ctx);
    expect(r.calls).toEqual(['disk restore@1: disk-near-full']);
  });

  it('a failed move is undone at once: no loop device or stopped node is left for a heal that may never come', async () => {
    const r = recorder(3, {}, true);
    await expect(findIncident('disk-near-full')!.inject(r.ctx)).rejects.toThrow(/mkfs failed/);
    expect(r.calls.at(-1)).toBe('disk restore@1: disk-near-full');
    const s = recorder(3, {}, true);
    await expect(findIncident('slow-disk')!.inject(s.ctx)).rejects.toThrow(/mkfs failed/);
    expect(s.calls.slice(-2)).toEqual(['cgroup rm blkio/cql-tuner-lab-disk-node3', 'disk restore@3: slow-disk']);
    expect(s.calls.some((c) => c.startsWith('load start'))).toBe(false);
  });

  it('slow-disk throttles node 3’s JVM on the loop device’s major:minor only, then loads RF 1 data', async () => {
    const r = recorder(3);
    await findIncident('slow-disk')!.inject(r.ctx);
    expect(r.calls.filter((c) => c.startsWith('cgroup'))).toEqual([
      'cgroup blkio/cql-tuner-lab-disk-node3/blkio.throttle.read_iops_device = 7:0 10',
      'cgroup blkio/cql-tuner-lab-disk-node3/blkio.throttle.write_iops_device = 7:0 10',
      'cgroup blkio/cql-tuner-lab-disk-node3/blkio.throttle.read_bps_device = 7:0 262144',
      'cgroup blkio/cql-tuner-lab-disk-node3/blkio.throttle.write_bps_device = 7:0 262144',
      'cgroup blkio/cql-tuner-lab-disk-node3/cgroup.procs = 203',
    ]);
    expect(r.calls.some((c) => /replication_factor': 1/.test(c))).toBe(true);
    // latte -P values are Rune expressions: the keyspace goes in quoted.
    expect(r.calls.find((c) => c.startsWith('load start'))).toContain('"keyspace":"\\"cql_tuner_incident_rf1\\""');
    expect(r.calls.indexOf('disk move@3: slow-disk 1024 MiB ra 4')).toBeGreaterThan(r.calls.findIndex((c) => c.startsWith('nodetool@3: flush')));
  });
});

// nodetool describecluster of the lab (Cassandra 4.1.10, 3 nodes) right after the schema-disagreement inject; the
// healed form is the same output with one version line, as describecluster prints it once the nodes agree.
const TWO_VERSIONS = readFileSync('tests/fixtures/lab-incident-outputs/describecluster-schema-disagreement-4.1.10.txt', 'utf8');
const ONE_VERSION = TWO_VERSIONS.replace(/\t\t71856334[^\n]*\n\n/, '').replace('[127.0.7.1, 127.0.7.2]', '[127.0.7.1, 127.0.7.2, 127.0.7.3]');

describe('schema-disagreement', () => {
  it('counts describecluster’s schema versions', () => {
    expect(schemaVersionCount(TWO_VERSIONS)).toBe(2);
    expect(schemaVersionCount(ONE_VERSION)).toBe(1);
    expect(schemaVersionCount('')).toBe(0);
  });

  it('changes the schema through node 1 only while node 3 is gossip-disabled and seen down, then re-enables gossip', async () => {
    const status = (s3: string) =>
      `--  Address    Load  Tokens  Owns  Host ID  Rack\nUN  127.0.7.1  1 MiB  16  ?  a  rack1\n${s3}  127.0.7.3  1 MiB  16  ?  c  rack1\n`;
    const r = recorder(3, { status: [status('UN'), status('DN'), status('UN')], describecluster: [TWO_VERSIONS] });
    await findIncident('schema-disagreement')!.inject(r.ctx);
    const order = ['nodetool@3: disablegossip', 'cql: CREATE TABLE cql_tuner_incident.schema_drift (id int PRIMARY KEY, v text)', 'nodetool@3: enablegossip'];
    const at = order.map((c) => r.calls.indexOf(c));
    expect(at.every((x) => x >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // The DDL waited until node 1 saw node 3 down.
    expect(r.calls.filter((c) => c === 'nodetool@1: status').length).toBeGreaterThanOrEqual(2);
    expect(r.calls.some((c) => c.includes('warning'))).toBe(false);
  });

  it('heal resets node 3’s schema when the versions still differ, and drops the table', async () => {
    const r = recorder(3, { describecluster: [TWO_VERSIONS, ONE_VERSION] });
    await findIncident('schema-disagreement')!.heal(r.ctx);
    expect(r.calls).toContain('nodetool@3: resetlocalschema');
    expect(r.calls.at(-1)).toBe('cql: DROP TABLE IF EXISTS cql_tuner_incident.schema_drift');
  });
});
