/**
 * A cgroup CPU quota on a node's process (CFS bandwidth control), from files recorded on this machine kind
 * (tests/fixtures/host/cgroup-cpu/README.md): a 5 % quota group with a busy loop in it for 3 s.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readIoThrottle } from '../../mcp-server/src/collect/io-throttle.js';
import type { RunOptions, RunResult, Target } from '../../mcp-server/src/collect/target.js';
import { cpuThrottleFiles, cpuThrottleFrom } from '../../mcp-server/src/core/parse/host/cpu-throttle.js';
import { parseProcCgroup } from '../../mcp-server/src/core/parse/host/io-throttle.js';
import { ioThrottleOutcome } from '../../mcp-server/src/core/rules/io-throttle.js';

const fx = (f: string) => readFileSync(new URL(`../fixtures/host/cgroup-cpu/${f}`, import.meta.url), 'utf8');
const GREP = fx('v1-quota-5pct-busy-3s.grep.txt');
const CG = parseProcCgroup(fx('v1-quota-5pct-busy-3s.proc-cgroup.txt'));

describe('cgroup CPU caps: parsing', () => {
  it('names the v1 cpu files of the process and its ancestors, and the v2 ones', () => {
    expect(CG.v1['cpu']).toBe('/cqlt-probe');
    expect(cpuThrottleFiles(CG)).toEqual([
      '/sys/fs/cgroup/cpu/cqlt-probe/cpu.cfs_quota_us',
      '/sys/fs/cgroup/cpu/cqlt-probe/cpu.cfs_period_us',
      '/sys/fs/cgroup/cpu/cqlt-probe/cpu.stat',
      '/sys/fs/cgroup/cpu/cpu.cfs_quota_us',
      '/sys/fs/cgroup/cpu/cpu.cfs_period_us',
      '/sys/fs/cgroup/cpu/cpu.stat',
      '/sys/fs/cgroup/cpu.max',
      '/sys/fs/cgroup/cpu.stat',
      '/sys/fs/cgroup/unified/cpu.max',
      '/sys/fs/cgroup/unified/cpu.stat',
    ]);
  });

  it('the recorded 5 % quota: 0.05 CPU, 30 of 30 periods throttled, 2.80 s; the root (-1) is no cap', () => {
    expect(cpuThrottleFrom(GREP, CG)).toEqual({
      cap: { cpus: 0.05, quotaUs: 5000, periodUs: 100000, file: '/sys/fs/cgroup/cpu/cqlt-probe/cpu.cfs_quota_us' },
      stat: { dir: '/sys/fs/cgroup/cpu/cqlt-probe', periods: 30, throttled: 30, throttledMs: 2803.732779 },
    });
    // the root group alone (quota -1): nothing
    const root = parseProcCgroup('1:cpu:/\n0::/\n');
    expect(cpuThrottleFrom(GREP, root).cap).toBeNull();
  });

  it('cgroup v2 cpu.max and cpu.stat (throttled_usec), the tighter of a group and its parent', () => {
    const cg = parseProcCgroup('0::/kubepods/pod1/c1\n');
    const text = [
      '/sys/fs/cgroup/kubepods/pod1/c1/cpu.max:max 100000',
      '/sys/fs/cgroup/kubepods/pod1/c1/cpu.stat:usage_usec 9000000',
      '/sys/fs/cgroup/kubepods/pod1/c1/cpu.stat:nr_periods 200',
      '/sys/fs/cgroup/kubepods/pod1/c1/cpu.stat:nr_throttled 50',
      '/sys/fs/cgroup/kubepods/pod1/c1/cpu.stat:throttled_usec 4000000',
      '/sys/fs/cgroup/kubepods/pod1/cpu.max:150000 100000',
      '/sys/fs/cgroup/kubepods/cpu.max:max 100000',
    ].join('\n');
    expect(cpuThrottleFrom(text, cg)).toEqual({
      cap: { cpus: 1.5, quotaUs: 150000, periodUs: 100000, file: '/sys/fs/cgroup/kubepods/pod1/cpu.max' },
      stat: { dir: '/sys/fs/cgroup/kubepods/pod1/c1', periods: 200, throttled: 50, throttledMs: 4000 },
    });
  });

  it('hostile file text is ignored, never a cap', () => {
    const text = '/sys/fs/cgroup/cpu/cqlt-probe/cpu.cfs_quota_us:5000; rm -rf /\n/sys/fs/cgroup/cpu/cqlt-probe/cpu.cfs_period_us:1e9\n';
    expect(cpuThrottleFrom(text, CG)).toEqual({ cap: null, stat: null });
  });
});

describe('cgroup CPU caps: the finding', () => {
  const node = (cpu: ReturnType<typeof cpuThrottleFrom>) => ({ target: 'local', nodes: [{ node: '127.0.0.3', pid: 4242, dataDirs: [], limits: [], cpu }] });

  it('throttled in 100 % of periods: critical, naming the quota, the file and the throttled time', () => {
    const o = ioThrottleOutcome([node(cpuThrottleFrom(GREP, CG))]);
    const f = o.findings.find((x) => x.id === 'host.cpu-throttle')!;
    expect(f).toMatchObject({ severity: 'critical', node: '127.0.0.3', knowledgeIds: ['os.cgroup.cpu-throttle'] });
    expect(f.title).toBe('127.0.0.3: the process may use 0.05 CPU(s) (cgroup CPU quota) and was stopped for it in 100 % of periods');
    expect(f.evidence[0]).toBe(
      '/sys/fs/cgroup/cpu/cqlt-probe/cpu.cfs_quota_us: quota 5000 µs per 100000 µs period = 0.05 CPU(s) (the process, pid 4242, is in this cgroup or below it)',
    );
    expect(f.evidence[1]).toMatch(/30 of 30 periods throttled, 2\.80 s throttled in all/);
  });

  it('a cap that is rarely hit is information; no cap is no finding', () => {
    const rare = { cap: { cpus: 4, quotaUs: 400000, periodUs: 100000, file: 'f' }, stat: { dir: 'd', periods: 1000, throttled: 10, throttledMs: 50 } };
    expect(ioThrottleOutcome([node(rare)]).findings.map((f) => `${f.id} ${f.severity}`)).toEqual(['host.cpu-throttle info']);
    const none = ioThrottleOutcome([node({ cap: null, stat: { dir: 'd', periods: 0, throttled: 0, throttledMs: 0 } })]);
    expect(none.findings).toEqual([]);
    expect(none.checked).toBe(true);
  });

  it('collect reads the CPU files with one fixed grep argv of /sys paths, after the I/O caps', async () => {
    const asked: string[][] = [];
    const answers: Record<string, string> = {
      pgrep: '4242\n',
      'grep -a': `/proc/4242/cgroup:${fx('v1-quota-5pct-busy-3s.proc-cgroup.txt').trim().split('\n').join('\n/proc/4242/cgroup:')}\n/proc/4242/cmdline:java\n`,
      cat: '',
      'grep -s': GREP,
    };
    const target: Target = {
      kind: 'local',
      describe: () => 'local',
      async run(argv: readonly string[], _o: RunOptions): Promise<RunResult> {
        asked.push([...argv]);
        const key = argv[0] === 'grep' ? `grep ${argv[1]}` : argv[0]!;
        return { argv: [...argv], stdout: answers[key] ?? '', stderr: '', exitCode: 0, ms: 1, timedOut: false, cancelled: false, truncated: false };
      },
    };
    const r = await readIoThrottle(target, [{ node: '127.0.0.3', dataDirs: [] }]);
    expect(r.nodes[0]!.cpu?.cap?.cpus).toBe(0.05);
    const cpuGrep = asked.find((a) => a.includes('/sys/fs/cgroup/cpu/cqlt-probe/cpu.stat'))!;
    expect(cpuGrep.slice(0, 4)).toEqual(['grep', '-s', '-H', '']);
    expect(cpuGrep.slice(4).every((p) => /^\/sys\/fs\/cgroup\/[\w./,-]+$/.test(p))).toBe(true);
  });
});

describe('a CPU quota leads the symptoms on its node', () => {
  it('time to safepoint, drops and queued stages on the capped node follow it; another node keeps its own', async () => {
    const { chainFindings } = await import('../../mcp-server/src/core/diagnosis/chain.js');
    const f = (id: string, node: string, severity: 'critical' | 'warning' | 'info' = 'warning') => ({
      id,
      severity,
      title: `${id} on ${node}`,
      evidence: [`${id} evidence`],
      node,
      recommendation: '',
      knowledgeIds: [],
      confidence: 'high' as const,
    });
    const cap = ioThrottleOutcome([node3(cpuThrottleFrom(GREP, CG))]).findings[0]!;
    const out = chainFindings([
      f('log.time-to-safepoint', '127.0.0.3', 'critical'),
      f('log.dropped', '127.0.0.3'),
      f('log.threadpool-pending', '127.0.0.3'),
      cap,
      f('log.dropped', '127.0.0.1'),
    ]);
    const head = out.find((x) => x.id === 'host.cpu-throttle')!;
    expect(head.chain?.effects.map((e) => e.id).sort()).toEqual(['log.dropped', 'log.threadpool-pending', 'log.time-to-safepoint']);
    expect(head.chain?.reason).toMatch(/a CPU quota hit now explains these symptoms/);
    expect(out.filter((x) => x.node === '127.0.0.1').map((x) => x.id)).toEqual(['log.dropped']);
  });
});

function node3(cpu: ReturnType<typeof cpuThrottleFrom>) {
  return { target: 'local', nodes: [{ node: '127.0.0.3', pid: 4242, dataDirs: [], limits: [], cpu }] };
}
