/**
 * ScyllaDB host tuning: parsers and rules on real pastes (tests/fixtures/scylla-host/README.md names each thread),
 * interpret end to end, and audit_os on a recorded host tree built from those real files.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { copyTunedScyllaTree } from '../helpers/scylla-tree.js';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseCpuList, parseHexMask, parseInterrupts, parseScyllaArgs, parseSeastarAio, splitArgs } from '../../mcp-server/src/core/parse/host/scylla-setup.js';
import { parsePerftuneYaml, parseScyllaSetup } from '../../mcp-server/src/core/parse/host/scylla-setup-files.js';
import { aioNeed, scyllaHostRules } from '../../mcp-server/src/core/rules/scylla-host.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { auditOs } from '../../mcp-server/src/ops/audit-os.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const sample = (n: string) => readFileSync(join(FIXTURES_DIR, 'scylla-host', n), 'utf8');
const ids = (r: { findings: { id: string }[] }) => r.findings.map((f) => f.id).sort();

describe('CPU lists, masks and command lines', () => {
  it('reads perftune/smp_affinity masks word by word, most significant word first', () => {
    expect(parseHexMask("'0x3'")).toEqual([0, 1]);
    expect(parseHexMask('0x00000fff')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // An empty word is zero: CPU 0 and CPUs 64-79.
    expect(parseHexMask('0x0000ffff,,0x00000001')).toEqual([0, ...Array.from({ length: 16 }, (_, i) => 64 + i)]);
    expect(parseHexMask('fffffffe')).toHaveLength(31);
    expect(parseHexMask('0xg')).toBeNull();
    expect(parseCpuList('0,2-4,35')).toEqual([0, 2, 3, 4, 35]);
    expect(parseCpuList('3-1')).toBeNull();
  });

  it('reads --smp/--cpuset/--overprovisioned/--developer-mode in both spellings', () => {
    const io = '/etc/scylla.d/io_properties.yaml';
    const a = parseScyllaArgs(splitArgs(`--log-to-syslog 1 --smp 4 --cpuset=1-4 --overprovisioned --developer-mode=0 --io-properties-file=${io}`));
    expect(a).toMatchObject({ smp: 4, cpuset: [1, 2, 3, 4], overprovisioned: true, developerMode: false, ioPropertiesFile: io });
    expect(parseScyllaArgs(['--overprovisioned', '1', '--smp=2']).overprovisioned).toBe(true);
    expect(parseScyllaArgs(splitArgs('--max-io-requests=1 --num-io-queues=1')).legacyIo).toBe(true);
  });

  it("Seastar's AIO arithmetic reproduces the numbers it printed (seastar#2396: 8 shards, 51026 per shard, 408208)", () => {
    const a = parseSeastarAio(sample('aio_smp8-32768-table_seastar2396.txt'));
    expect(a.ok && a.value).toMatchObject({ shards: 8, networkPerShard: 50000, aioMaxNr: 32768, aioNr: 0 });
    expect(aioNeed(8, 50000, 0).full).toBe(408208);
    // gemini#412: "requested:102052" for 2 shards.
    expect(aioNeed(2, 50000, 0).full).toBe(102052);
  });
});

describe('interpret: real pastes', () => {
  it('scylladb#14366: perftune.yaml tunes the NIC although SET_NIC_AND_DISKS=no (SET_CLOCKSOURCE=yes runs it anyway)', () => {
    const text = sample('setup_perftune-net-despite-switch_scylla14366.txt');
    expect(detect(text)).toMatchObject({ ok: true, kind: 'host.scylla-setup' });
    const p = parseScyllaSetup(text);
    expect(p.ok && p.value.perftune).toMatchObject({ cpuMask: [0, 1], irqCpuMask: [0], nics: ['ens4'], tune: ['net'] });
    expect(p.ok && p.value.env).toMatchObject({ CPUSET: '--cpuset 1 ', SET_NIC_AND_DISKS: 'no', SET_CLOCKSOURCE: 'yes' });
    const r = interpretText(text);
    expect(ids(r)).toEqual(['scylla-host.perftune-net-despite-switch']);
    const f = r.findings[0]!;
    expect(f.severity).toBe('warning');
    expect(f.title).toBe('perftune.yaml tunes the NIC (tune: net, nic ens4) while SET_NIC_AND_DISKS=no');
    expect(f.recommendation).toMatch(/SET_CLOCKSOURCE is on/);
    // The cpuset (CPU 1) is inside cpu_mask 0x3 and outside irq_cpu_mask 0x1: the masks check ran and passed.
    expect(r.checked.find((c) => c.rule === 'scylla-host:cpuset-masks')).toMatchObject({ checked: true, findings: 0 });
  });

  it('scylladb#7672: a mode-based perftune.yaml is read and called out as the old layout', () => {
    const r = interpretText(sample('setup_perftune-mode-mq_scylla7672.txt'));
    expect(r.kind).toBe('host.scylla-setup');
    expect(ids(r)).toEqual(['scylla-host.perftune-mode-layout']);
    expect(r.findings[0]!.title).toBe('perftune.yaml uses the old "mode: mq" layout instead of irq_cpu_mask');
    const y = parsePerftuneYaml(sample('setup_perftune-mode-mq_scylla7672.txt'));
    expect(y).toMatchObject({ cpuMask: Array.from({ length: 12 }, (_, i) => i), mode: 'mq', nics: ['eth0'], tune: ['net', 'system'], tuneClock: true });
  });

  it('scylladb#5181: every NVMe queue interrupts CPU0 only (headerless grep of /proc/interrupts)', () => {
    const text = sample('interrupts_nvme-all-on-cpu0_scylla5181.txt');
    const p = parseInterrupts(text);
    expect(p.ok && { cpus: p.value.cpus, rows: p.value.lines.length }).toEqual({ cpus: 8, rows: 9 });
    const r = interpretText(text);
    expect(r.kind).toBe('host.interrupts');
    expect(ids(r)).toEqual(['scylla-host.irqs-on-one-cpu']);
    // The admin queue nvme0q0 is not an I/O queue: 8 queues, not 9.
    expect(r.findings[0]!.title).toBe('All 8 NVMe queues of nvme0 interrupt CPU0 only (of 8)');
  });

  it('gemini#412: "requested:102052" is 2 shards; ScyllaDB started with its networking blocks cut', () => {
    const r = interpretText(sample('aio_requested-102052-adjusted_gemini412.txt'));
    expect(r.kind).toBe('host.seastar-aio');
    expect(ids(r)).toEqual(['scylla-host.aio-max-nr-below-need']);
    expect(r.findings[0]).toMatchObject({ severity: 'warning' });
    expect(r.findings[0]!.title).toBe('ScyllaDB started with fewer networking AIO blocks (50000 → 31742 per shard): fs.aio-max-nr too low for 2 shards');
    expect(r.findings[0]!.recommendation).toMatch(/at least 102052/);
  });

  it('seastar#2396 table (--smp 8, aio-max-nr 32768): 8 shards, raise to 408208', () => {
    const r = interpretText(sample('aio_smp8-32768-table_seastar2396.txt'));
    expect(r.kind).toBe('host.seastar-aio');
    expect(r.findings[0]!.title).toBe('ScyllaDB started with fewer networking AIO blocks: fs.aio-max-nr too low for 8 shards');
    expect(r.findings[0]!.recommendation).toMatch(/at least 408208 /);
  });

  it('scylladb#15010: "Could not setup Async I/O" in Docker is a node that did not start', () => {
    const r = interpretText(sample('aio_could-not-setup_scylla15010.txt'));
    expect(r.kind).toBe('host.seastar-aio');
    expect(r.findings[0]).toMatchObject({ id: 'scylla-host.aio-max-nr-below-need', severity: 'critical' });
    expect(r.findings[0]!.title).toBe("ScyllaDB could not start: fs.aio-max-nr is below Seastar's minimum");
  });

  it('sliderule#518: ethtool -S of an ENA interface with bw_in/bw_out/pps allowances exceeded', () => {
    const r = interpretText(sample('ethtool-S_ena-bw-in-exceeded_sliderule518.txt'));
    expect(r.kind).toBe('host.ethtool-stats');
    expect(r.findings.map((f) => [f.id, f.severity])).toEqual([['host.nic-allowance-exceeded', 'warning']]);
    expect(r.findings[0]!.title).toBe(
      'The EC2 instance shaped packets on ens34: bw_in_allowance_exceeded 3241329, bw_out_allowance_exceeded 530, pps_allowance_exceeded 784',
    );
    // Another driver's statistics (no allowance counters) are not this kind.
    const other = interpretText('NIC statistics:\n     rx_packets: 10\n     tx_packets: 12\n');
    expect(other.kind).not.toBe('host.ethtool-stats');
  });

  it('a cpuset.conf asking for more shards than its cpuset is refused before start-up', () => {
    const r = interpretText('CPUSET="--cpuset 1-3 --smp 8 "\n');
    expect(r.kind).toBe('host.scylla-setup');
    expect(r.findings.map((f) => [f.id, f.severity])).toEqual([['scylla-host.smp-exceeds-cpus', 'critical']]);
  });
});

/** A recorded ScyllaDB host: the tuned tree of audit-os.test.ts plus the set-up files of scylladb#14366. */
function scyllaTree(edit: (w: (p: string, text: string) => void) => void): string {
  const root = mkdtempSync(join(tmpdir(), 'scylla-host-'));
  const w = copyTunedScyllaTree(root);
  w('sys/devices/system/cpu/online', '0-1\n');
  w('proc/sys/fs/aio-nr', '0\n');
  w('proc/sys/fs/nr_open', '1073741816\n');
  w('proc/sys/fs/file-max', '9223372036854775807\n');
  w('etc/scylla.d/cpuset.conf', 'CPUSET="--cpuset 1 "\n');
  w('etc/scylla.d/perftune.yaml', "cpu_mask: '0x3'\nirq_cpu_mask: '0x1'\nnic:\n- ens4\ntune:\n- net\n");
  w('etc/scylla.d/io.conf', 'SEASTAR_IO="--io-properties-file=/etc/scylla.d/io_properties.yaml"\n');
  w(
    'etc/scylla.d/io_properties.yaml',
    [
      'disks:',
      '  - mountpoint: /var/lib/scylla',
      '    read_iops: 100000',
      '    read_bandwidth: 1000000000',
      '    write_iops: 80000',
      '    write_bandwidth: 800000000',
      '',
    ].join('\n'),
  );
  w('etc/default/scylla-server', 'SET_NIC_AND_DISKS=yes\nIFNAME=ens4\nSET_CLOCKSOURCE=no\n');
  const io = '--io-properties-file=/etc/scylla.d/io_properties.yaml';
  const argv = ['/usr/bin/scylla', '--log-to-syslog', '1', '--network-stack', 'posix', io, '--cpuset', '1'];
  w('proc/1717/cmdline', [...argv, ''].join('\0'));
  w(
    'proc/interrupts',
    [
      '           CPU0       CPU1       ',
      ' 24:    8812345          0   PCI-MSI 81920-edge      ens4-Tx-Rx-0',
      ' 25:    7712001          0   PCI-MSI 81921-edge      ens4-Tx-Rx-1',
      'NMI:          0          0   Non-maskable interrupts',
      '',
    ].join('\n'),
  );
  w('proc/irq/24/smp_affinity_list', '0\n');
  w('proc/irq/25/smp_affinity_list', '0\n');
  w('.commands/df -B1 --output=size,target _var_lib_scylla.txt', '     1B-blocks Mounted on\n3840755982336 /var/lib/scylla\n');
  edit(w);
  return root;
}

describe('audit_os with product scylla on recorded host trees', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  });
  const audit = async (edit: (w: (p: string, text: string) => void) => void) => {
    const root = scyllaTree(edit);
    roots.push(root);
    return auditOs({ root, product: 'scylla' });
  };

  it('a consistent set-up (scylladb#14366 files, switch on, IRQs on CPU0): every ScyllaDB check runs and passes', async () => {
    const r = await audit(() => {});
    expect(r.findings.filter((f) => f.id.startsWith('scylla-host.'))).toEqual([]);
    const sh = r.checked.filter((c) => c.rule.startsWith('scylla-host:'));
    expect(sh.map((c) => [c.rule, c.checked])).toEqual([
      ['scylla-host:aio', true],
      ['scylla-host:shards', true],
      ['scylla-host:cpuset-masks', true],
      ['scylla-host:irq-affinity', true],
      ['scylla-host:perftune', true],
      ['scylla-host:nofile', true],
      ['scylla-host:disk-ram', true],
      ['scylla-host:io-setup', true],
      ['scylla-host:developer-mode', false],
    ]);
    expect(r.scyllaHost).toMatchObject({ onlineCpus: [0, 1], affinity: { 24: [0], 25: [0] }, dataFsBytes: 3840755982336, process: { pid: 1717 } });
  });

  it('drift everywhere: each problem found with its numbers', async () => {
    const r = await audit((w) => {
      w('proc/sys/fs/aio-max-nr', '65536\n');
      // Started by hand on both CPUs, then cpuset.conf kept saying CPU 1; irqbalance moved queue 1 to CPU 1.
      w('proc/1717/cmdline', ['/usr/bin/scylla', '--cpuset', '0-1', '--io-properties-file=/etc/scylla.d/io_properties.yaml', ''].join('\0'));
      w('proc/irq/25/smp_affinity_list', '1\n');
      w('etc/default/scylla-server', 'SET_NIC_AND_DISKS=no\nSET_CLOCKSOURCE=yes\n');
      w('etc/scylla.d/dev-mode.conf', 'DEV_MODE=--developer-mode=1\n');
      w('.commands/df -B1 --output=size,target _var_lib_scylla.txt', '     1B-blocks Mounted on\n15000000000000 /var/lib/scylla\n');
    });
    const by = Object.fromEntries(r.findings.filter((f) => f.id.startsWith('scylla-host.')).map((f) => [f.id, f]));
    expect(Object.keys(by).sort()).toEqual([
      'scylla-host.aio-max-nr-below-need',
      'scylla-host.cpuset-conf-drift',
      'scylla-host.cpuset-perftune-mismatch',
      'scylla-host.developer-mode',
      'scylla-host.disk-ram-ratio',
      'scylla-host.irq-affinity-drift',
      'scylla-host.perftune-net-despite-switch',
    ]);
    // The running command line has no --developer-mode: dev-mode.conf takes effect at the next start.
    expect(by['scylla-host.developer-mode']!.title).toBe('dev-mode.conf puts ScyllaDB in developer mode (DEV_MODE=--developer-mode=1) from its next start');
    // 2 shards × (1024 + 2 + 50000) + 1024 reserve = 103076 > 65536; the minimum (3078) fits.
    expect(by['scylla-host.aio-max-nr-below-need']).toMatchObject({ severity: 'warning' });
    const title = (id: string) => by[`scylla-host.${id}`]!.title;
    expect(title('aio-max-nr-below-need')).toBe('fs.aio-max-nr 65536 is below the 103076 AIO blocks 2 shards ask for: networking blocks get cut');
    expect(title('cpuset-conf-drift')).toBe('The running scylla differs from /etc/scylla.d/cpuset.conf: --cpuset 1 in cpuset.conf, 0-1 running');
    expect(title('cpuset-perftune-mismatch')).toBe('cpuset.conf and perftune.yaml disagree: CPU 0 of --cpuset 0-1 also takes IRQs (irq_cpu_mask 0x1)');
    expect(by['scylla-host.irq-affinity-drift']!.evidence[0]).toMatch(/25 \(ens4-Tx-Rx-1\) → CPU 1/);
    expect(by['scylla-host.disk-ram-ratio']!.title).toMatch(/is 111:1 \(ScyllaDB: up to 100:1/);
    // Developer mode (from dev-mode.conf) makes ScyllaDB skip the I/O set-up: not judged then.
    expect(r.checked.find((c) => c.rule === 'scylla-host:io-setup')).toMatchObject({ checked: false, skippedBecause: expect.stringMatching(/developer mode/) });
  });

  it('scylla absent from /etc/scylla.d and /proc: the checks say why they were skipped', async () => {
    const r = await audit((w) => {
      w('.commands/pgrep -o -x scylla.txt', '');
    });
    expect(r.checked.find((c) => c.rule === 'scylla-host:nofile')).toMatchObject({ checked: false, skippedBecause: 'no running scylla process read' });
    // cpuset.conf still gives the shard count for the AIO check.
    expect(r.checked.find((c) => c.rule === 'scylla-host:aio')).toMatchObject({ checked: true, findings: 0 });
  });

  it('rules are pure over facts: a developer-mode process and a 9000-descriptor limit', () => {
    const out = scyllaHostRules({
      origin: 'test',
      onlineCpus: [0, 1, 2, 3],
      memTotalKiB: null,
      aioMaxNr: null,
      aioNr: null,
      nrOpen: 1048576,
      fileMax: null,
      process: { pid: 7, args: parseScyllaArgs(['--developer-mode', '1']), nofileSoft: 9000, nofileHard: 2000000 },
      env: {},
      perftune: null,
      perftunePresent: false,
      ioPropertiesPresent: false,
      interrupts: null,
      affinity: {},
      dataFsBytes: null,
      dataDir: null,
      unread: [],
    });
    const f = out.flatMap((o) => o.findings);
    expect(f.map((x) => [x.id, x.severity])).toEqual([
      ['scylla-host.nofile-low', 'critical'],
      ['scylla-host.developer-mode', 'warning'],
    ]);
    expect(f[0]!.title).toBe('scylla (pid 7) open files: soft limit 9000 < 800000; hard limit 2000000 above fs.nr_open 1048576');
  });
});

describe('diagnose: the ScyllaDB host check joins the report', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  });
  it('a Cassandra cluster is not touched; a ScyllaDB host read adds its findings, outcomes and counts', async () => {
    const { analyzeBundle } = await import('../../mcp-server/src/ops/snapshot.js');
    const { diagnoseBundle } = await import('../../mcp-server/src/ops/diagnose.js');
    const { checkScyllaHost, withScyllaHost } = await import('../../mcp-server/src/ops/scylla-host-check.js');
    const { readScyllaHost } = await import('../../mcp-server/src/collect/host-scylla.js');
    const { LocalTarget } = await import('../../mcp-server/src/collect/local-target.js');
    const { writeBundle } = await import('../../mcp-server/src/collect/bundle-store.js');
    // A one-node Cassandra bundle from the real lab capture (as logs-sperf-diagnose-bundle.test.ts writes it).
    const bundle = join(mkdtempSync(join(tmpdir(), 'scylla-host-bundle-')), 'b');
    roots.push(dirname(bundle));
    const meta = { tool: { name: 'cql-tuner' as const, version: 'test' }, collectedAt: '2026-11-24T00:00:00.000Z', durationMs: 1, contactPoints: ['10.0.0.1'] };
    await writeBundle(bundle, meta, [
      {
        node: { address: '10.0.0.1', cqlPort: 9042, jmxHost: '10.0.0.1', jmxPort: 7199, datacenter: 'dc1', rack: 'r1', hostId: null, upPerDriver: true },
        ms: 10,
        cqlReachable: false,
        virtualTables: [],
        sources: ['tpstats', 'info', 'version'].map((sub) => ({
          name: `nodetool:${sub}`,
          via: 'nodetool' as const,
          ok: true,
          ms: 5,
          text: readFileSync(join(FIXTURES_DIR, `lab/cassandra-5.0-3node/node1/nodetool-${sub}.txt`), 'utf8'),
        })),
      },
    ]);
    const s = await analyzeBundle(bundle);
    expect(s.nodes[0]!.facts.product).not.toBe('scylla');
    expect(await checkScyllaHost({ nodetoolVia: 'ssh://ops@{host}' }, s, () => new LocalTarget())).toBeUndefined();

    const report = await diagnoseBundle(bundle);
    const root = scyllaTree((w) => w('proc/sys/fs/aio-max-nr', '40000\n')); // 1 shard wants 1024 + 51026 = 52050
    try {
      const facts = await readScyllaHost(new LocalTarget(), { root });
      const node = s.nodes[0]!.address;
      const joined = withScyllaHost(report, { hosts: [{ target: 'ssh ops@node1', nodes: [node], facts }] });
      const added = joined.findings.filter((f) => f.id.startsWith('scylla-host.'));
      expect(added.map((f) => [f.id, f.node])).toEqual([['scylla-host.aio-max-nr-below-need', node]]);
      expect(joined.counts.warning).toBe(report.counts.warning + 1);
      expect(joined.checked.filter((c) => c.rule.startsWith('scylla-host:')).map((c) => c.rule)).toHaveLength(9);
      // A host that could not be read is one skipped outcome that says why.
      const none = withScyllaHost(report, { hosts: [{ target: 'ssh ops@node1', nodes: [node], error: 'connection refused' }] });
      expect(none.checked.at(-1)).toMatchObject({ rule: 'scylla-host', checked: false, skippedBecause: 'ssh ops@node1: connection refused' });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
