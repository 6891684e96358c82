/**
 * What an expert reads in host tool output pasted during a slow-cluster incident (iostat -x, vmstat, sar, mpstat):
 * a device that is saturated, slow at low load (a throttled volume) or not completing I/O at all; %util that is
 * not saturation on parallel devices; busy or stolen CPU; swapping; iowait read as the idle time it is.
 * PURE: reads HostFacts (rules/host-facts.ts); thresholds come from knowledge/host-metrics.yaml.
 */
import type { Finding, Severity } from '../findings.js';
import { numberOf, threshold, type KnowledgeId } from '../knowledge/index.js';
import { fmtNum, grade, outcomeOf, PACK, skipped } from './rule.js';
import type { KindRuleOutcome, KindRules } from './per-kind.js';
import { runTtopRules } from './host-ttop.js';
import type { Ttop } from '../parse/host/ttop.js';
import {
  ETHTOOL_STATS_KIND,
  INTERRUPTS_KIND,
  SCYLLA_SETUP_KIND,
  SEASTAR_AIO_KIND,
  type EthtoolStats,
  type Interrupts,
  type ScyllaSetup,
  type SeastarAio,
} from '../parse/host/scylla-setup.js';
import { ethtoolRules, interruptsRules, scyllaSetupRules, seastarAioRules } from './scylla-host.js';
import { hostFacts, type BlockIoSample, type CpuSample, type DiskSample, type HostFacts, type RateSample } from './host-facts.js';

type HostRule = { id: string; checks: string; run(f: HostFacts): Finding[] | string };

const f1 = (v: number) => fmtNum(Math.round(v * 100) / 100, 2);
const at = (s: { label: string; line: number }) => `${s.label}, line ${s.line}`;

function finding(
  id: string,
  severity: Severity,
  title: string,
  evidence: string[],
  recommendation: string,
  knowledgeIds: KnowledgeId[],
  f: HostFacts,
  confidence: Finding['confidence'] = 'high',
): Finding {
  // A single report that may be since boot lowers confidence: the numbers might not be current.
  const unsure = f.caveats.some((c) => /if it was|if mpstat ran/.test(c));
  const conf = unsure && confidence === 'high' ? 'medium' : confidence;
  return { id, severity, title, evidence: [...evidence, ...f.caveats], recommendation, knowledgeIds, confidence: conf };
}

// ---------- devices ----------

/** What a device name says about how it serves requests (iostat prints names, not hardware). */
export type DeviceClass = 'nvme' | 'stacked' | 'virtual' | 'scsi' | 'other';
const IGNORED = /^(?:loop|ram|zram|sr|fd)\d/;

export function deviceClass(name: string): DeviceClass {
  if (/^nvme\d+(?:c\d+)?n\d+/.test(name)) return 'nvme';
  if (/^(?:md\d|md\/|dm-\d)/.test(name)) return 'stacked';
  if (/^(?:x?vd[a-z])/.test(name)) return 'virtual';
  if (/^(?:sd[a-z]|hd[a-z])/.test(name)) return 'scsi';
  return 'other';
}

const iops = (d: DiskSample) => (d.readsPerS ?? 0) + (d.writesPerS ?? 0);
const mbps = (d: DiskSample) => ((d.readKBps ?? 0) + (d.writeKBps ?? 0)) / 1024;

/** A device is flash when its name says NVMe or when it served more IOPS, quickly, than a spinning disk can. */
function isFlash(samples: DiskSample[]): boolean {
  if (deviceClass(samples[0]!.device) === 'nvme') return true;
  const minIops = numberOf('host.disk.hdd-max-iops');
  return samples.some((d) => iops(d) >= minIops && (d.awaitMs ?? Infinity) <= threshold('host.disk.await.flash').warning!);
}

/**
 * The slowest direction of one sample, graded against the device class. Below the minimum rate (a few fsyncs in
 * an idle second) only the critical level counts: one slow request is noise, a second-long one is not.
 */
function worstAwait(d: DiskSample, kid: KnowledgeId): { ms: number; dir: string; rate: number; sev: Severity } | null {
  const min = numberOf('host.disk.await-min-iops');
  const c: { ms: number; dir: string; rate: number }[] = [];
  if (d.readAwaitMs !== null && (d.readsPerS ?? 0) > 0) c.push({ ms: d.readAwaitMs, dir: 'r_await', rate: d.readsPerS ?? 0 });
  if (d.writeAwaitMs !== null && (d.writesPerS ?? 0) > 0) c.push({ ms: d.writeAwaitMs, dir: 'w_await', rate: d.writesPerS ?? 0 });
  if (c.length === 0 && d.awaitMs !== null && iops(d) > 0) c.push({ ms: d.awaitMs, dir: 'await', rate: iops(d) });
  const graded = c.flatMap((x) => {
    const sev = grade(PACK, x.ms, kid);
    return sev === 'critical' || (sev === 'warning' && x.rate >= min) ? [{ ...x, sev }] : [];
  });
  return graded.length ? graded.reduce((a, b) => (b.ms > a.ms ? b : a)) : null;
}

/** The await of the busiest direction, for evidence when nothing is over a limit. */
const mainAwait = (d: DiskSample) => ((d.readsPerS ?? 0) >= (d.writesPerS ?? 0) ? (d.readAwaitMs ?? d.awaitMs) : (d.writeAwaitMs ?? d.awaitMs)) ?? 0;

const row = (d: DiskSample) =>
  `${d.device} ${at(d)}: ${f1(d.readsPerS ?? 0)} r/s${d.writesPerS !== null ? ` ${f1(d.writesPerS)} w/s` : ''}, ${f1(mbps(d))} MB/s` +
  `${d.readAwaitMs !== null && (d.readsPerS ?? 0) > 0 ? `, r_await ${f1(d.readAwaitMs)} ms` : ''}` +
  `${d.writeAwaitMs !== null && (d.writesPerS ?? 0) > 0 ? `, w_await ${f1(d.writeAwaitMs)} ms` : ''}` +
  `${d.readAwaitMs === null && d.writeAwaitMs === null && d.awaitMs !== null ? `, await ${f1(d.awaitMs)} ms` : ''}` +
  `${d.queueSize !== null ? `, aqu-sz ${f1(d.queueSize)}` : ''}${d.reqKB !== null ? `, ${f1(d.reqKB)} KiB/request` : ''}` +
  `${d.utilPct !== null ? `, %util ${f1(d.utilPct)}` : ''}`;

function byDevice(f: HostFacts): Map<string, DiskSample[]> {
  const m = new Map<string, DiskSample[]>();
  for (const d of f.disks) {
    if (IGNORED.test(d.device)) continue;
    const list = m.get(d.device) ?? [];
    list.push(d);
    m.set(d.device, list);
  }
  return m;
}

const noDisks = (f: HostFacts) =>
  f.disks.length === 0 ? (f.sinceBoot.length ? 'only since-boot device numbers in the paste' : 'no device rows (iostat -x, sar -d)') : null;

const stuckQueue: HostRule = {
  id: 'host.disk.stuck-queue',
  checks: 'requests queued on a device while none complete (hung device, virtio/driver bug, dead path)',
  run(f) {
    const skip = noDisks(f);
    if (skip) return skip;
    const out: Finding[] = [];
    for (const [dev, ss] of byDevice(f)) {
      const stuck = ss.filter((d) => iops(d) === 0 && ((d.queueSize ?? 0) >= numberOf('host.disk.queue-min') || (d.utilPct ?? 0) >= 99));
      if (stuck.length === 0) continue;
      out.push(
        finding(
          'host.disk.stuck-queue',
          'critical',
          `${dev}: I/O is not completing — ${f1(stuck[0]!.queueSize ?? 0)} requests queued, %util ${f1(stuck[0]!.utilPct ?? 0)}, 0 completed per second`,
          [...stuck.slice(0, 3).map(row), `${stuck.length} of ${ss.length} interval(s) with a queue and no completions`],
          'Requests reach the device and never come back: the device, its driver or the path to it is hung (virtio and cloud volume detach/stall ' +
            'bugs, a failing disk, a dead multipath leg). Check dmesg for timeouts and resets, the hypervisor or cloud console for the volume; a node ' +
            'in this state stalls every read and flush — take it out of service rather than tuning it.',
          ['host.disk.stuck-queue', 'host.disk.util-parallel'],
          f,
        ),
      );
    }
    return out;
  },
};

type Verdict = 'saturated' | 'slow-at-low-load' | 'await-high';

/** One device's intervals graded against its class's await limits and classified by load. */
function gradeDevice(ss: DiskSample[]) {
  const flash = isFlash(ss);
  const kid: KnowledgeId = flash ? 'host.disk.await.flash' : 'host.disk.await.other';
  const slow = ss.flatMap((d) => {
    const w = worstAwait(d, kid);
    return w ? [{ d, w, sev: w.sev }] : [];
  });
  const low = (d: DiskSample) => iops(d) < numberOf('host.disk.low-load-iops') && mbps(d) < numberOf('host.disk.low-load-mbps');
  const sat = (d: DiskSample) => (d.utilPct ?? 0) >= threshold('host.disk.util-busy').warning! && (d.queueSize ?? 0) >= numberOf('host.disk.queue-min');
  // Saturated at any time wins (the device hit its limit then); otherwise mostly-low-load intervals say the
  // slowness is behind the device.
  const verdict: Verdict = slow.some((s) => !low(s.d) && sat(s.d))
    ? 'saturated'
    : slow.filter((s) => low(s.d)).length * 2 >= slow.length
      ? 'slow-at-low-load'
      : 'await-high';
  return { flash, kid, slow, verdict, sat, low };
}

type Graded = { dev: string; ss: DiskSample[]; g: ReturnType<typeof gradeDevice> };

const VERDICT_TEXT: Record<Verdict, { id: string; recommendation: string; kids: KnowledgeId[]; confidence: Finding['confidence'] }> = {
  saturated: {
    id: 'host.disk.saturated',
    recommendation:
      'The device is doing all it can and requests queue in front of it. Find what drives it (compaction, repair/streaming, a scan, or a tool such ' +
      'as iotune or a backup) before adding load: lower compaction/stream throughput while serving, spread data over more devices, or move to ' +
      'faster storage.',
    kids: ['host.disk.util-busy', 'host.disk.queue-min', 'storage.queue-depth.littles-law'],
    confidence: 'high',
  },
  'slow-at-low-load': {
    id: 'host.disk.slow-at-low-load',
    recommendation:
      'Each request is slow although few are sent: the limit is behind the device. On a cloud volume check its provisioned IOPS/throughput and ' +
      "burst credits (EBS gp2 BurstBalance, io1/gp3 limits, the instance's EBS bandwidth, GCE PD per-VM caps); on a local disk check dmesg and " +
      "SMART for a failing device; on a VM, the host's storage. Adding threads or tuning the database will not help.",
    kids: ['host.disk.low-load-iops', 'host.disk.low-load-mbps', 'host.disk.cloud-volume-throttle'],
    confidence: 'medium',
  },
  'await-high': {
    id: 'host.disk.await-high',
    recommendation:
      'Requests wait long on this device although it is neither slow at low load nor saturated (no standing queue at high %util): compare with its ' +
      "expected latency, look for large requests (KiB/request) and background work (compaction, repair, backups), and check the device's health.",
    kids: ['host.disk.util-busy'],
    confidence: 'high',
  },
};

function latencyTitle(v: Verdict, x: Graded): string {
  const worst = x.g.slow.reduce((a, b) => (b.w.ms > a.w.ms ? b : a));
  const { w, d } = worst;
  const base = `${x.dev}: ${w.dir} ${f1(w.ms)} ms`;
  if (v === 'saturated') {
    const s = x.g.slow.find((y) => !x.g.low(y.d) && x.g.sat(y.d))!.d;
    return (
      `${x.dev} is saturated: ${w.dir} up to ${f1(w.ms)} ms with aqu-sz ${f1(s.queueSize ?? 0)} and %util ${f1(s.utilPct ?? 0)} ` +
      `at ${f1(iops(s))} IO/s, ${f1(mbps(s))} MB/s`
    );
  }
  if (v === 'slow-at-low-load') {
    return `${base} at only ${f1(iops(d))} IO/s and ${f1(mbps(d))} MB/s — slow per request at low load (throttled or degraded volume)`;
  }
  return `${base} is high for a ${x.g.flash ? 'flash' : 'non-flash'} device (at ${f1(w.rate)} requests/s)`;
}

const deviceLatency: HostRule = {
  id: 'host.disk.latency',
  checks: 'per-device r_await/w_await against the device class (flash vs other), classified as saturation, a slow device at low load, or high await',
  run(f) {
    const skip = noDisks(f);
    if (skip) return skip;
    const groups = new Map<Verdict, Graded[]>();
    for (const [dev, ss] of byDevice(f)) {
      if (ss.every((d) => iops(d) === 0)) continue;
      const g = gradeDevice(ss);
      if (g.slow.length === 0) continue;
      groups.set(g.verdict, [...(groups.get(g.verdict) ?? []), { dev, ss, g }]);
    }
    const out: Finding[] = [];
    for (const [v, list] of groups) {
      const text = VERDICT_TEXT[v];
      const byWorst = [...list].sort((a, b) => Math.max(...b.g.slow.map((s) => s.w.ms)) - Math.max(...a.g.slow.map((s) => s.w.ms)));
      const top = byWorst[0]!;
      const evidence = byWorst.flatMap((x) => {
        const t = threshold(x.g.kid);
        const why = deviceClass(x.dev) === 'nvme' ? 'NVMe name' : `≥ ${numberOf('host.disk.hdd-max-iops')} IO/s at low await seen`;
        const cls = x.g.flash ? `flash (${why})` : `${deviceClass(x.dev)}, not known to be flash`;
        const worst = x.g.slow.reduce((a, b) => (b.w.ms > a.w.ms ? b : a));
        const limits = `${cls}: warning ${t.warning} ms, critical ${t.critical} ms`;
        return [row(worst.d), `${x.dev}: ${x.g.slow.length} of ${x.ss.length} interval(s) over the limit for its class — ${limits}`];
      });
      if (v === 'saturated') {
        const s = top.g.slow.find((y) => !top.g.low(y.d) && top.g.sat(y.d))!.d;
        const inFlight = (iops(s) * (mainAwait(s) || 0)) / 1000;
        const law = `${f1(iops(s))} IO/s × ${f1(mainAwait(s) / 1000)} s ≈ ${f1(inFlight)} requests in flight`;
        evidence.push(`Little's law on ${top.dev}: ${law} (aqu-sz ${f1(s.queueSize ?? 0)})`);
      }
      if (v === 'slow-at-low-load') {
        const lim = `${numberOf('host.disk.low-load-iops')} IO/s and ${numberOf('host.disk.low-load-mbps')} MB/s`;
        evidence.push(`low load: under ${lim}, far below what the device class serves`);
      }
      const more = byWorst
        .slice(1)
        .map((x) => x.dev)
        .join(', ');
      const title = latencyTitle(v, top) + (list.length > 1 ? ` (and ${list.length - 1} more device${list.length > 2 ? 's' : ''}: ${more})` : '');
      const sev: Severity = list.some((x) => x.g.slow.some((s) => s.sev === 'critical')) ? 'critical' : 'warning';
      out.push(finding(text.id, sev, title, evidence, text.recommendation, [...new Set([...list.map((x) => x.g.kid), ...text.kids])], f, text.confidence));
    }
    return out;
  },
};

const utilNotSaturation: HostRule = {
  id: 'host.disk.util-not-saturation',
  checks: '%util near 100 on a device that still answers quickly (parallel devices: NVMe, SSD, RAID, cloud volumes)',
  run(f) {
    const skip = noDisks(f);
    if (skip) return skip;
    const busy = threshold('host.disk.util-busy').warning!;
    const hits: DiskSample[] = [];
    for (const [, ss] of byDevice(f)) {
      const g = gradeDevice(ss);
      if (g.slow.length > 0) continue;
      // Only a device that still answers fast (under the flash warning) is plainly not saturated.
      const fast = threshold('host.disk.await.flash').warning!;
      const top = ss.filter((d) => (d.utilPct ?? 0) >= busy && iops(d) > 0 && mainAwait(d) < fast);
      if (top.length) hits.push(top.reduce((a, b) => ((b.utilPct ?? 0) > (a.utilPct ?? 0) ? b : a)));
    }
    if (hits.length === 0) return [];
    return [
      finding(
        'host.disk.util-not-saturation',
        'info',
        `%util ≥ ${busy} on ${hits.map((d) => d.device).join(', ')} is not saturation: ` +
          `requests still complete in ${hits.map((d) => `${f1(mainAwait(d))} ms`).join(', ')}`,
        hits.map(row),
        '%util only says that at least one request was in flight all the time; a device that serves many requests at once (NVMe, SSD, RAID, cloud ' +
          'volumes) can do more. Judge it by await and queue size against its class, and by IOPS/MB/s against what the device is rated for.',
        ['host.disk.util-parallel', 'host.disk.util-busy'],
        f,
      ),
    ];
  },
};

// ---------- CPU ----------

const allCpu = (f: HostFacts) =>
  f.cpu.length ? null : f.sinceBoot.length ? 'only since-boot CPU numbers in the paste' : 'no CPU shares (avg-cpu, vmstat us/sy/id, sar -u, mpstat)';
const cpuRow = (c: CpuSample) =>
  `${at(c)}: user ${f1(c.shares.user ?? 0)} %, system ${f1(c.shares.system ?? 0)} %, iowait ${f1(c.shares.iowait ?? 0)} %, ` +
  `steal ${f1(c.shares.steal ?? 0)} %, idle ${f1(c.shares.idle ?? 0)} %` +
  `${c.shares.soft ? `, soft ${f1(c.shares.soft)} %` : ''}${c.blocked ? `, b ${c.blocked}` : ''}`;

const cpuBusy: HostRule = {
  id: 'host.cpu.busy',
  checks: 'idle + iowait below the floor in more than the tolerated share of intervals (CPU-bound node)',
  run(f) {
    const skip = allCpu(f);
    if (skip) return skip;
    const floor = threshold('host.cpu.idle-floor');
    const graded = f.cpu.flatMap((c) => {
      const spare = (c.shares.idle ?? 100) + (c.shares.iowait ?? 0);
      const sev = grade(PACK, spare, 'host.cpu.idle-floor');
      return sev ? [{ c, spare, sev }] : [];
    });
    const share = graded.length / f.cpu.length;
    if (graded.length === 0 || share < numberOf('host.cpu.busy-share')) return [];
    const worst = graded.reduce((a, b) => (b.spare < a.spare ? b : a));
    return [
      finding(
        'host.cpu.busy',
        graded.some((g) => g.sev === 'critical') && share >= 0.5 ? 'critical' : 'warning',
        `CPU-bound: idle + iowait ≤ ${floor.warning} % in ${graded.length} of ${f.cpu.length} interval(s) (lowest ${f1(worst.spare)} %)`,
        graded.slice(0, 4).map((g) => cpuRow(g.c)),
        'The node has no spare CPU in these intervals: requests queue for CPU and latency follows. Look at what uses it (nodetool tpstats, ' +
          'compactionstats, sjk ttop per thread; GC in the logs). With hyper-threading the usable headroom ends earlier (DataStax counts idle+iowait ' +
          'under 50 % then). On ScyllaDB, reactor threads poll and look busy even when idle — read scylla_reactor_utilization instead.',
        ['host.cpu.idle-floor', 'host.cpu.busy-share', 'host.cpu.scylla-polling'],
        f,
      ),
    ];
  },
};

/**
 * sperf's `sysbottle` summary, figure for figure (pysper/sysbottle.py): the share of intervals that were CPU-bound
 * (user + system + nice + steal over 50 %) plus the share over 5 % iowait, and per device the share at a queue of
 * one or more. Information beside the graded rules, so an operator used to sperf reads the same numbers.
 */
const bottleneckTime: HostRule = {
  id: 'host.bottleneck-time',
  checks: "sperf's bottleneck time: intervals CPU-bound (us+sy+ni+st > 50 %) or over 5 % iowait, and time at queue depth ≥ 1 per device",
  run(f) {
    if (f.tool !== 'iostat') return 'sperf sysbottle reads iostat only';
    const skip = allCpu(f);
    if (skip) return skip;
    const cpuLimit = numberOf('host.cpu.bottleneck-busy');
    const ioLimit = threshold('host.cpu.iowait').warning!;
    const qMin = numberOf('host.disk.queue-min');
    const pct = (k: number, of: number) => `${((100 * k) / of).toFixed(2)} %`;
    const count = (cpu: CpuSample[], disks: DiskSample[]) => {
      const devs = new Map<string, { queued: number; of: number }>();
      for (const d of disks) {
        if (IGNORED.test(d.device)) continue;
        const e = devs.get(d.device) ?? { queued: 0, of: 0 };
        e.of++;
        if ((d.queueSize ?? 0) >= qMin) e.queued++;
        devs.set(d.device, e);
      }
      return {
        n: cpu.length,
        busy: cpu.filter((c) => (c.shares.user ?? 0) + (c.shares.system ?? 0) + (c.shares.nice ?? 0) + (c.shares.steal ?? 0) > cpuLimit).length,
        io: cpu.filter((c) => (c.shares.iowait ?? 0) > ioLimit).length,
        devs,
      };
    };
    const now = count(f.cpu, f.disks);
    const devLines = (c: ReturnType<typeof count>) => [...c.devs].map(([dev, e]) => `${dev} ${pct(e.queued, e.of)} (${e.queued} of ${e.of})`).join(', ');
    // sperf counts iostat's since-boot first report as an interval too: its figures are given beside, for parity.
    const withBoot = f.sinceBootCpu.length ? count([...f.sinceBootCpu, ...f.cpu], [...f.sinceBootDisks, ...f.disks]) : null;
    return [
      finding(
        'host.bottleneck-time',
        'info',
        `Bottleneck time ${pct(now.busy + now.io, now.n)} of ${now.n} interval(s): CPU-bound ${pct(now.busy, now.n)}, iowait over ${ioLimit} % ${pct(now.io, now.n)}`,
        [
          `CPU-bound (user + system + nice + steal > ${cpuLimit} %): ${now.busy} of ${now.n} interval(s); iowait > ${ioLimit} %: ${now.io} of ${now.n}`,
          ...(now.devs.size ? [`time at queue depth ≥ ${qMin}: ${devLines(now)}`] : []),
          ...(withBoot
            ? [
                `as sperf sysbottle counts it (the since-boot report too, ${withBoot.n} records): bottleneck ${pct(withBoot.busy + withBoot.io, withBoot.n)}, ` +
                  `CPU ${pct(withBoot.busy, withBoot.n)}, iowait ${pct(withBoot.io, withBoot.n)}${withBoot.devs.size ? `; queue depth ≥ ${qMin}: ${devLines(withBoot)}` : ''}`,
              ]
            : []),
          'The bottleneck time adds both counts as sperf sysbottle does: an interval that is both counts twice.',
        ],
        now.busy + now.io === 0
          ? 'Neither CPU nor iowait was over the line in these intervals: a slow node here is not short of CPU or waiting on its disks.'
          : 'Read the graded findings for which one: CPU (what uses it: tpstats, compactionstats, sjk ttop) or the devices (r_await/w_await and aqu-sz).',
        ['host.cpu.bottleneck-busy', 'host.cpu.iowait', 'host.disk.queue-min'],
        f,
      ),
    ];
  },
};

const steal: HostRule = {
  id: 'host.cpu.steal',
  checks: 'CPU time stolen by the hypervisor (%steal / st)',
  run(f) {
    const skip = allCpu(f);
    if (skip) return skip;
    const graded = f.cpu.flatMap((c) => {
      const sev = grade(PACK, c.shares.steal, 'host.cpu.steal');
      return sev ? [{ c, sev }] : [];
    });
    if (graded.length === 0) return [];
    const worst = graded.reduce((a, b) => ((b.c.shares.steal ?? 0) > (a.c.shares.steal ?? 0) ? b : a));
    return [
      finding(
        'host.cpu.steal',
        graded.some((g) => g.sev === 'critical') ? 'critical' : 'warning',
        `The hypervisor takes CPU from this VM: steal up to ${f1(worst.c.shares.steal ?? 0)} % (${graded.length} of ${f.cpu.length} interval(s))`,
        graded.slice(0, 4).map((g) => cpuRow(g.c)),
        'Stolen time is CPU the guest wanted and did not get: latency rises with no cause inside the node. Move to dedicated/larger instances or ' +
          'hosts (burstable instances throttle when their credits run out), or ask the provider about noisy neighbours; tuning the database will not ' +
          'recover it.',
        ['host.cpu.steal'],
        f,
      ),
    ];
  },
};

const iowait: HostRule = {
  id: 'host.cpu.iowait',
  checks: 'iowait, read as idle time with I/O outstanding and checked against device latency',
  run(f) {
    const skip = allCpu(f);
    if (skip) return skip;
    const high = f.cpu.filter((c) => grade(PACK, c.shares.iowait, 'host.cpu.iowait') !== null);
    if (high.length === 0) return [];
    const worst = high.reduce((a, b) => ((b.shares.iowait ?? 0) > (a.shares.iowait ?? 0) ? b : a));
    const slowDevs = [...byDevice(f)].filter(([, ss]) => gradeDevice(ss).slow.length > 0).map(([d]) => d);
    const devNote =
      f.disks.length === 0
        ? 'no device rows in this paste: take iostat -x 1 to see which device, if any, is slow'
        : slowDevs.length
          ? `slow device(s) in the same paste: ${slowDevs.join(', ')} (see their findings)`
          : "every device in the same paste answers within its class's await limit: the iowait is not a slow disk";
    return [
      finding(
        'host.cpu.iowait',
        'info',
        `iowait up to ${f1(worst.shares.iowait ?? 0)} % (${high.length} of ${f.cpu.length} interval(s)): ` +
          'idle CPU with I/O outstanding, not a disk verdict by itself',
        [...high.slice(0, 3).map(cpuRow), devNote],
        'iowait is idle time while some task waits for I/O; it rises when the CPU has nothing else to do and falls when it does, whatever the disk ' +
          'does. Judge the disks by r_await/w_await and aqu-sz per device (iostat -x), and tasks in D state (vmstat b).',
        ['host.cpu.iowait'],
        f,
        slowDevs.length ? 'high' : 'medium',
      ),
    ];
  },
};

const singleCore: HostRule = {
  id: 'host.cpu.single-core-hot',
  checks: 'one CPU saturated while the host is mostly idle (single-threaded bottleneck, IRQs on one core)',
  run(f) {
    if (f.perCore.length === 0) return 'no per-CPU rows (mpstat -P ALL, sar -P ALL)';
    const busyMin = threshold('host.cpu.single-core-busy').warning!;
    const out: Finding[] = [];
    const byLabel = new Map<string, CpuSample>();
    for (const c of f.cpu) byLabel.set(c.label, c);
    const hot = f.perCore.filter((c) => {
      const all = byLabel.get(c.label);
      return 100 - (c.shares.idle ?? 100) >= busyMin && all !== undefined && (all.shares.idle ?? 0) >= 50;
    });
    if (hot.length === 0) return [];
    const worst = hot.reduce((a, b) => ((b.shares.idle ?? 100) < (a.shares.idle ?? 100) ? b : a));
    const irq = (worst.shares.soft ?? 0) + (worst.shares.irq ?? 0);
    out.push(
      finding(
        'host.cpu.single-core-hot',
        'warning',
        `CPU ${worst.cpu} is ${f1(100 - (worst.shares.idle ?? 0))} % busy while the host is mostly idle` +
          `${irq >= 50 ? ` — ${f1(irq)} % of it interrupts/softirqs` : ''}`,
        [cpuRow(worst), `host average at the same time: ${cpuRow(byLabel.get(worst.label)!)}`, `${hot.length} hot CPU sample(s)`],
        irq >= 50
          ? 'Network or disk interrupts land on one core: spread them (irqbalance, RPS/RFS, more NIC queues; on ScyllaDB perftune.py assigns IRQ ' +
              'cores — add IRQ cores if they saturate).'
          : 'One thread is the bottleneck although the host has spare cores: find it (top -H, nodetool sjk ttop) — a single compaction or flush ' +
              'thread, a GC phase, or a client-side single connection.',
        ['host.cpu.single-core-busy'],
        f,
      ),
    );
    return out;
  },
};

const runQueue: HostRule = {
  id: 'host.cpu.run-queue',
  checks: 'runnable tasks (vmstat r, sar -q runq-sz) against the number of CPUs',
  run(f) {
    if (f.runQueue.length === 0) return 'no run-queue column (vmstat r, sar -q)';
    if (f.cpus === null) return 'the number of CPUs is unknown (no sysstat banner "(N CPU)" or per-CPU rows in the paste)';
    const cpus = f.cpus;
    const graded = f.runQueue.flatMap((q) => {
      const sev = grade(PACK, q.value / cpus, 'host.cpu.run-queue');
      return sev ? [{ q, sev }] : [];
    });
    if (graded.length === 0) return [];
    const worst = graded.reduce((a, b) => (b.q.value > a.q.value ? b : a));
    return [
      finding(
        'host.cpu.run-queue',
        graded.some((g) => g.sev === 'critical') ? 'critical' : 'warning',
        `Run queue ${worst.q.value} on ${cpus} CPUs (${f1(worst.q.value / cpus)} per CPU) in ${graded.length} of ${f.runQueue.length} sample(s)`,
        graded.slice(0, 4).map((g) => `${at(g.q)}: ${g.q.value} runnable`),
        'More tasks want CPU than there are CPUs: they wait their turn and every request pays it. Reduce concurrent work (compaction threads, ' +
          'concurrent_reads/writes) or add CPU.',
        ['host.cpu.run-queue'],
        f,
      ),
    ];
  },
};

// ---------- memory ----------

const sum = (xs: RateSample[]) => xs.reduce((a, x) => a + x.value, 0);

const swapping: HostRule = {
  id: 'host.memory.swapping',
  checks: 'pages swapped in or out during the capture (vmstat si/so, sar -W)',
  run(f) {
    if (f.swapInPerS.length === 0 && f.swapOutPerS.length === 0) {
      return f.sinceBoot.length && f.tool === 'vmstat' ? 'only the since-boot vmstat row' : 'no swap columns (vmstat si/so, sar -W)';
    }
    const min = threshold('host.memory.swap-activity').warning!;
    const active = [...f.swapInPerS, ...f.swapOutPerS].filter((s) => s.value >= min);
    if (active.length === 0) return [];
    const rows = [...new Set(active.map((s) => s.line))].length;
    return [
      finding(
        'host.memory.swapping',
        'warning',
        `The host is swapping: ${f1(sum(f.swapInPerS))} KiB/s in and ${f1(sum(f.swapOutPerS))} KiB/s out summed over ${rows} sample(s)`,
        active.slice(0, 4).map((s) => `${at(s)}: ${f1(s.value)} KiB/s ${f.swapInPerS.includes(s) ? 'swapped in' : 'swapped out'}`),
        'A database node should not swap: a swapped-out heap turns GC pauses into disk reads. Disable swap (swapoff -a, remove it from /etc/fstab) ' +
          'or find what is using the memory (heap plus off-heap plus page cache pressure from other processes).',
        ['host.memory.swap-activity', 'os.swap'],
        f,
      ),
    ];
  },
};

const majorFaults: HostRule = {
  id: 'host.memory.major-faults',
  checks: "major page faults per second (sar -B majflt/s) and sar's %vmeff artefact",
  run(f) {
    if (f.majorFaultsPerS.length === 0) return 'no paging section (sar -B)';
    const out: Finding[] = [];
    const high = f.majorFaultsPerS.filter((s) => grade(PACK, s.value, 'host.memory.major-faults') !== null);
    const bogus = f.vmeffPct.filter((s) => s.value > 100);
    const bogusText = bogus.map((s) => f1(s.value)).join(', ');
    const vmNote = bogus.length ? [`%vmeff above 100 (${bogusText}) is a counting artefact of recent kernels, not reclaim efficiency: ignored`] : [];
    if (high.length) {
      const worst = high.reduce((a, b) => (b.value > a.value ? b : a));
      out.push(
        finding(
          'host.memory.major-faults',
          'info',
          `${f1(worst.value)} major page faults/s (${high.length} of ${f.majorFaultsPerS.length} interval(s)): pages read from disk on access`,
          [...high.slice(0, 3).map((s) => `${at(s)}: ${f1(s.value)} majflt/s`), ...vmNote],
          'With memory-mapped SSTables (disk_access_mode mmap) each major fault is a data read that missed the page cache — normal for data larger ' +
            'than RAM; with swap on it can also be heap coming back from swap (see vmstat si). Compare with device reads in iostat before calling it ' +
            'a memory problem.',
          ['host.memory.major-faults', 'host.memory.vmeff-artefact'],
          f,
          'medium',
        ),
      );
    }
    return out;
  },
};

// ---------- I/O stall ----------

// host.vmstat.io-stall: under 1 % of the earlier rate, for two samples or more (the entry's statement)
const STALL_SHARE = 0.01;
const STALL_SAMPLES = 2;

const ioStall: HostRule = {
  id: 'host.io-stall',
  checks: 'block I/O that falls to nothing while tasks stay blocked on it (vmstat bi/bo with b)',
  run(f) {
    if (f.blockIo.length === 0) return f.tool === 'vmstat' ? 'no vmstat row with bi, bo and b' : 'no vmstat rows (bi/bo with b)';
    const minPeak = numberOf('host.vmstat.io-stall');
    const io = (s: BlockIoSample) => s.inKBps + s.outKBps;
    let peak: BlockIoSample | null = null;
    for (let i = 0; i < f.blockIo.length; i++) {
      const s = f.blockIo[i]!;
      if (peak && io(peak) >= minPeak && io(s) <= io(peak) * STALL_SHARE && s.blocked >= 1) {
        let j = i;
        while (j + 1 < f.blockIo.length && io(f.blockIo[j + 1]!) <= io(peak) * STALL_SHARE && f.blockIo[j + 1]!.blocked >= 1) j++;
        const run = f.blockIo.slice(i, j + 1);
        if (run.length >= STALL_SAMPLES) {
          const what = peak.outKBps >= peak.inKBps ? 'writes' : 'reads';
          const before = what === 'writes' ? peak.outKBps : peak.inKBps;
          const last = run.at(-1)!;
          const open = j === f.blockIo.length - 1;
          return [
            finding(
              'host.io-stall',
              'critical',
              `Block I/O stalled: ${what} fell from ${fmtNum(before, 0)} KiB/s (${fmtNum(before / 1024, 0)} MiB/s) to ${fmtNum(what === 'writes' ? last.outKBps : last.inKBps, 0)} ` +
                `while ${maxBlocked(run)} task(s) stayed blocked, for ${run.length} samples${open ? ' (still stalled at the end of the paste)' : ''}`,
              [
                `${at(peak)}: ${fmtNum(peak.inKBps, 0)} KiB/s in, ${fmtNum(peak.outKBps, 0)} KiB/s out, b ${peak.blocked}`,
                ...run.slice(0, 4).map((x) => `${at(x)}: ${fmtNum(x.inKBps, 0)} KiB/s in, ${fmtNum(x.outKBps, 0)} KiB/s out, b ${x.blocked}`),
              ],
              'Tasks are waiting on I/O the device is not completing: a stall under the database, not a quiet host. Look at the kernel log for ' +
                'the device (dmesg: timeouts, resets), at `iostat -x 1` during a stall (await and aqu-sz of the device), and at the mount options: ' +
                'online discard (`discard` in /etc/fstab) stalls writes on some SSD/NVMe firmware — remount without it and run fstrim on a timer. ' +
                "On cloud volumes, check the volume's IOPS/throughput credits or throttling.",
              ['host.vmstat.io-stall'],
              f,
            ),
          ];
        }
        i = j;
      }
      if (!peak || io(s) > io(peak)) peak = s;
    }
    return [];
  },
};

const maxBlocked = (xs: BlockIoSample[]) => xs.reduce((a, x) => Math.max(a, x.blocked), 0);

const RERUN: Record<HostFacts['tool'], string> = { vmstat: 'vmstat -w -t 1 30', mpstat: 'mpstat -P ALL 1 30', iostat: 'iostat -x -t 1 30', sar: 'sar -A 1 30' };

const sinceBootOnly: HostRule = {
  id: 'host.since-boot-only',
  checks: 'whether the paste has current numbers or only the since-boot averages',
  run(f) {
    const hasCurrent = f.cpu.length + f.disks.length + f.swapInPerS.length + f.majorFaultsPerS.length + f.runQueue.length > 0;
    if (hasCurrent || f.sinceBoot.length === 0) return [];
    return [
      finding(
        'host.since-boot-only',
        'info',
        `Only averages since boot in this ${f.tool} output: nothing here says what the host is doing now`,
        f.sinceBoot.slice(0, 3).map((s) => `${at(s)}`),
        `Run the tool with an interval during the slow period and paste several reports: ${RERUN[f.tool]}. ` +
          'The first report (since boot) is left out of the analysis.',
        [f.tool === 'vmstat' ? 'host.vmstat.first-line-since-boot' : 'host.iostat.first-report-since-boot'],
        f,
      ),
    ];
  },
};

export const HOST_RULES: HostRule[] = [
  sinceBootOnly,
  stuckQueue,
  deviceLatency,
  utilNotSaturation,
  cpuBusy,
  bottleneckTime,
  steal,
  iowait,
  singleCore,
  runQueue,
  swapping,
  majorFaults,
  ioStall,
];

export function runHostRules(f: HostFacts): KindRuleOutcome[] {
  return HOST_RULES.map((r) => {
    return outcomeOf(r.id, r.checks, r.run(f));
  });
}

export const HOST_KIND_RULES: KindRules = {
  run(kind, value) {
    if (kind === 'host.ttop') return runTtopRules(value as Ttop);
    if (kind === SCYLLA_SETUP_KIND) return scyllaSetupRules(value as ScyllaSetup);
    if (kind === INTERRUPTS_KIND) return interruptsRules(value as Interrupts);
    if (kind === SEASTAR_AIO_KIND) return seastarAioRules(value as SeastarAio);
    if (kind === ETHTOOL_STATS_KIND) return ethtoolRules(value as EthtoolStats);
    const f = hostFacts(kind, value);
    if (!f) return [skipped('host', `no host rules for kind ${kind}`, 'host tool output')];
    return runHostRules(f);
  },
};
