import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readIoThrottle } from '../../mcp-server/src/collect/io-throttle.js';
import type { RunOptions, RunResult, Target } from '../../mcp-server/src/collect/target.js';
import { chainFindings, orderFindings } from '../../mcp-server/src/core/diagnosis/chain.js';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { effectiveLimits, parseProcCgroup, parseThrottleGrep, throttleFiles } from '../../mcp-server/src/core/parse/host/io-throttle.js';
import { ioThrottleOutcome } from '../../mcp-server/src/core/rules/io-throttle.js';

interface Recorded {
  argv: string[];
  exitCode: number | null;
  stdout: string;
}
const LAB = JSON.parse(readFileSync(new URL('../fixtures/io-throttle/lab-slow-disk.json', import.meta.url), 'utf8')) as { runs: Recorded[] };

/** Answers each argv with what the real host answered when the fixture was recorded; anything else fails loudly. */
function replay(runs: Recorded[]): Target & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    kind: 'local',
    asked,
    describe: () => 'local',
    async run(argv: readonly string[], _o: RunOptions): Promise<RunResult> {
      asked.push([...argv]);
      const r = runs.find((x) => x.argv.join('\0') === argv.join('\0'));
      // The CPU cap files were first read after this fixture was recorded: answered as grep answers for files that
      // are not there (exit 2, nothing printed), so the recorded I/O caps are judged as before.
      if (!r && argv[0] === 'grep' && argv.slice(4).every((a) => /\/cpu\.(cfs_quota_us|cfs_period_us|stat|max)$/.test(a))) {
        return { argv: [...argv], stdout: '', stderr: '', exitCode: 2, ms: 1, timedOut: false, cancelled: false, truncated: false };
      }
      if (!r) throw new Error(`not recorded: ${argv.join(' ').slice(0, 200)}`);
      return { argv: [...argv], stdout: r.stdout, stderr: '', exitCode: r.exitCode, ms: 1, timedOut: false, cancelled: false, truncated: false };
    },
  };
}

const LAB_NODES = [1, 2, 3].map((i) => ({ node: `127.0.31.${i}`, dataDirs: [`/tmp/h3home/lab/node${i}/data`] }));

describe('cgroup I/O caps: parsing', () => {
  it('reads v1 and v2 paths from /proc/PID/cgroup and refuses paths that are not plain', () => {
    // Node 3's /proc/31632/cgroup on the lab with slow-disk injected (a cgroup v1 host with a v2 root line).
    const text = '9:name=systemd:/\n8:pids:/\n7:blkio:/cql-tuner-lab-disk-node3\n4:memory:/process_api/8c16a5c0\n1:cpu:/\n0::/\n';
    expect(parseProcCgroup(text)).toEqual({ v1: { pids: '/', blkio: '/cql-tuner-lab-disk-node3', memory: '/process_api/8c16a5c0', cpu: '/' }, v2: '/' });
    expect(parseProcCgroup('7:blkio:/a/../../etc\n0::/x/./y\n')).toEqual({ v1: {}, v2: null });
  });

  it('lists the throttle files of the cgroup and every ancestor (v1), and io.max of each non-root v2 cgroup', () => {
    const files = throttleFiles({ v1: { blkio: '/kubepods/pod1' }, v2: '/system.slice/cassandra.service' });
    expect(files).toContain('/sys/fs/cgroup/blkio/kubepods/pod1/blkio.throttle.read_iops_device');
    expect(files).toContain('/sys/fs/cgroup/blkio/kubepods/blkio.throttle.read_bps_device');
    expect(files).toContain('/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device');
    expect(files).toContain('/sys/fs/cgroup/system.slice/cassandra.service/io.max');
    expect(files).toContain('/sys/fs/cgroup/unified/system.slice/io.max');
    expect(files.some((f) => f === '/sys/fs/cgroup/io.max')).toBe(false);
  });

  it('parses v1 "MAJ:MIN value" and v2 io.max keys; 0 and max are no limit; the tightest cap wins', () => {
    const v1 = '/sys/fs/cgroup/blkio/a/blkio.throttle.read_iops_device';
    const v1Parent = '/sys/fs/cgroup/blkio/blkio.throttle.read_iops_device';
    const v2 = '/sys/fs/cgroup/a/io.max';
    const text = [`${v1}:7:0 10`, `${v1Parent}:7:0 5`, `${v1Parent}:8:0 0`, `${v2}:259:0 rbps=2097152 wbps=max riops=max wiops=120`, `${v2}:junk`].join('\n');
    const limits = effectiveLimits(parseThrottleGrep(text, [v1, v1Parent, v2]));
    expect(limits.map((l) => `${l.majMin} ${l.kind} ${l.value}`)).toEqual(['259:0 readBps 2097152', '259:0 writeIops 120', '7:0 readIops 5']);
    expect(limits.find((l) => l.majMin === '7:0')?.file).toBe(v1Parent);
  });
});

describe('cgroup I/O caps on the real lab (recorded)', () => {
  it('matches each lab daemon to its node and finds node 3 capped on the loop device under its data directory', async () => {
    const t = replay(LAB.runs);
    const r = await readIoThrottle(t, LAB_NODES);
    expect(r.error).toBeUndefined();
    expect(r.nodes.map((n) => [n.node, n.pid, n.dataDirs[0]?.majMin])).toEqual([
      ['127.0.31.1', 28151, '254:0'],
      ['127.0.31.2', 28902, '254:0'],
      ['127.0.31.3', 31632, '7:0'],
    ]);
    expect(r.nodes[2]!.limits.map((l) => `${l.kind} ${l.value}`)).toEqual(['readBps 262144', 'readIops 10', 'writeBps 262144', 'writeIops 10']);
    expect(r.nodes[0]!.limits).toEqual([]);
    // Only fixed tools, and paths under /proc/<digits> or /sys/fs/cgroup.
    for (const argv of t.asked) {
      expect(['pgrep', 'grep', 'cat']).toContain(argv[0]);
      for (const a of argv.slice(1).filter((x) => x.startsWith('/'))) expect(a).toMatch(/^(\/proc\/\d+\/|\/sys\/fs\/cgroup\/)/);
    }
  });

  it('the rule names the cap on node 3 only, in MiB/KiB per second and IOPS, with the cgroup file and the device', async () => {
    const r = await readIoThrottle(replay(LAB.runs), LAB_NODES);
    const o = ioThrottleOutcome([r]);
    expect(o.checked).toBe(true);
    expect(o.findings.map((f) => [f.id, f.node, f.severity])).toEqual([['host.io-throttle', '127.0.31.3', 'warning']]);
    expect(o.findings[0]!.title).toBe(
      '127.0.31.3: reads at 256 KiB/s, reads at 10 IOPS, writes at 256 KiB/s, writes at 10 IOPS on its data disk, capped by a cgroup I/O limit',
    );
    expect(o.findings[0]!.evidence.join('\n')).toMatch(
      /blkio\.throttle\.read_iops_device: 7:0 reads at 10 IOPS[\s\S]*device 7:0 holds \/tmp\/h3home\/lab\/node3\/data/,
    );
  });

  it('a host without a Cassandra daemon is a skipped check with the reason, not a clean bill', async () => {
    const none = replay([{ argv: ['pgrep', '-f', 'org.apache.cassandra.service.CassandraDaemon'], exitCode: 1, stdout: '' }]);
    const o = ioThrottleOutcome([await readIoThrottle(none, LAB_NODES)]);
    expect(o.checked).toBe(false);
    expect(o.skippedBecause).toMatch(/no Cassandra daemon process found/);
  });
});

describe('the chain: a capped disk leads the symptoms on its node', () => {
  const f = (id: string, severity: Finding['severity'], node: string, when: string): Finding => ({
    id,
    severity,
    node,
    when,
    title: id,
    evidence: [`${id} evidence`],
    recommendation: '',
    knowledgeIds: [],
    confidence: 'high',
  });

  it('latency (same time) and the log symptoms of a slow disk on that node follow host.io-throttle; other nodes do not', () => {
    // The slow-disk diagnosis on the lab before this chain: log.dropped and log.time-to-safepoint were separate criticals.
    const input = [
      f('log.dropped', 'critical', '127.0.31.3', 'in the logs'),
      f('log.time-to-safepoint', 'critical', '127.0.31.3', 'in the logs'),
      f('latency.local-read-p99', 'critical', '127.0.31.3', 'window'),
      f('host.io-throttle', 'warning', '127.0.31.3', 'window'),
      f('log.local-pause', 'warning', '127.0.31.1', 'in the logs'),
    ];
    const out = orderFindings(chainFindings(input));
    expect(out.map((x) => [x.id, x.severity])).toEqual([
      ['host.io-throttle', 'critical'],
      ['log.local-pause', 'warning'],
    ]);
    expect(out[0]!.chain?.effects.map((e) => e.id).sort()).toEqual(['latency.local-read-p99', 'log.dropped', 'log.time-to-safepoint']);
    expect(out[0]!.chain?.reason).toMatch(/compare their times/);
  });

  it('dropped-message counters since start on the capped node follow it too, with what they explained (the full scenario run: a separate critical)', () => {
    // Scenario slow-disk, 2026-11-29: "256 messages dropped on 127.0.0.3 (RANGE_REQ, READ_REQ) (since start, 2 min ago)",
    // itself leading a StatusLogger ReadStage backlog, stood as a critical beside host.io-throttle.
    const pending = { ...f('log.threadpool-pending', 'warning', '127.0.0.3', 'in the logs'), title: 'ReadStage reached 43 pending tasks' };
    const dropped = {
      ...f('dropped.messages', 'critical', '127.0.0.3', 'since start, 2 min ago'),
      chain: { reason: 'StatusLogger', effects: [pending] },
    };
    const other = f('dropped.messages', 'critical', '127.0.0.1', 'since start, 2 min ago');
    const out = orderFindings(chainFindings([f('host.io-throttle', 'critical', '127.0.0.3', 'window'), dropped, other]));
    expect(out.map((x) => [x.id, x.node])).toEqual([
      ['host.io-throttle', '127.0.0.3'],
      ['dropped.messages', '127.0.0.1'],
    ]);
    expect(out[0]!.chain?.effects.map((e) => e.id)).toEqual(['dropped.messages']);
  });
});
