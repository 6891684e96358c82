/**
 * ScyllaDB host tuning (audit_os with product scylla, and interpret of pasted host outputs): the AIO need from the
 * shard count, shards vs CPUs and --overprovisioned, cpuset.conf vs perftune.yaml masks, IRQ affinity drift,
 * perftune's NIC switch, descriptor limits, disk/RAM ratio, io_properties set-up and developer mode. The checks
 * scylla-doctor runs on a node, named in knowledge/README.md "ScyllaDB host checks vs scylla-doctor". PURE.
 */
import type { Finding } from '../findings.js';
import { knowledge, numberOf } from '../knowledge/index.js';
import {
  cpuListText,
  deviceOfIrq,
  parseScyllaArgs,
  splitArgs,
  ENA_ALLOWANCES,
  type EthtoolStats,
  type Interrupts,
  type ScyllaArgs,
  type ScyllaSetup,
  type SeastarAio,
} from '../parse/host/scylla-setup.js';
import type { PerftuneYaml } from '../parse/host/perftune-object.js';
import type { KindRuleOutcome } from './per-kind.js';
import { grade, outcome, PACK, skipped } from './rule.js';

export interface ScyllaHostFacts {
  origin: string;
  onlineCpus: number[] | null;
  memTotalKiB: number | null;
  aioMaxNr: number | null;
  aioNr: number | null;
  nrOpen: number | null;
  fileMax: number | null;
  /** The running scylla process: its options and open-files limit. */
  process: { pid: number; args: ScyllaArgs; nofileSoft: number | 'unlimited' | null; nofileHard: number | 'unlimited' | null } | null;
  /** /etc/scylla.d/*.conf and /etc/default|sysconfig/scylla-server, merged; null when none could be read. */
  env: Record<string, string> | null;
  perftune: PerftuneYaml | null;
  /** Whether /etc/scylla.d/perftune.yaml and io_properties.yaml exist; null when /etc/scylla.d was not listed. */
  perftunePresent: boolean | null;
  ioPropertiesPresent: boolean | null;
  interrupts: Interrupts | null;
  /** IRQ number → CPUs of /proc/irq/N/smp_affinity_list. */
  affinity: Record<string, number[]>;
  /** Size of the filesystem holding the data directory (bytes), and which directory was measured. */
  dataFsBytes: number | null;
  dataDir: string | null;
  unread: { what: string; why: string }[];
}

export function emptyScyllaHostFacts(origin: string): ScyllaHostFacts {
  return {
    origin,
    onlineCpus: null,
    memTotalKiB: null,
    aioMaxNr: null,
    aioNr: null,
    nrOpen: null,
    fileMax: null,
    process: null,
    env: null,
    perftune: null,
    perftunePresent: null,
    ioPropertiesPresent: null,
    interrupts: null,
    affinity: {},
    dataFsBytes: null,
    dataDir: null,
    unread: [],
  };
}

const rule = (id: string, checks: string, findings: Finding[]): KindRuleOutcome => outcome(`scylla-host:${id}`, findings, checks);
const skip = (id: string, checks: string, because: string): KindRuleOutcome => skipped(`scylla-host:${id}`, because, checks);
const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/** The options scylla runs with: its command line when known, else what cpuset.conf and the server file say. */
function configuredArgs(f: ScyllaHostFacts): ScyllaArgs | null {
  if (!f.env) return null;
  const words = ['SCYLLA_ARGS', 'SEASTAR_IO', 'DEV_MODE', 'CPUSET', 'MEM_CONF'].flatMap((k) => (f.env![k] ? splitArgs(f.env![k]) : []));
  return words.length ? parseScyllaArgs(words) : null;
}

/** CPUs scylla may use: --cpuset, else every online CPU. */
function availableCpus(f: ScyllaHostFacts, a: ScyllaArgs | null): { cpus: number[]; from: string } | null {
  if (a?.cpuset) return { cpus: a.cpuset, from: `--cpuset ${a.cpusetText}` };
  if (f.onlineCpus) return { cpus: f.onlineCpus, from: `/sys/devices/system/cpu/online ${cpuListText(f.onlineCpus)}` };
  return null;
}

/** Seastar's need (reactor.cc): minimum reserve + 1027 per shard, full reserve + (1026 + networking) per shard. */
export function aioNeed(shards: number, networkPerShard: number, reserve: number): { minimum: number; full: number } {
  return { minimum: reserve + (1024 + 2 + 1) * shards, full: reserve + (1024 + 2 + networkPerShard) * shards };
}

function aio(f: ScyllaHostFacts): KindRuleOutcome {
  const checks = "fs.aio-max-nr against Seastar's per-shard AIO need (minus what aio-nr shows in use)";
  const a = f.process?.args ?? configuredArgs(f);
  const avail = availableCpus(f, a);
  const shards = a?.smp ?? avail?.cpus.length ?? null;
  if (f.aioMaxNr === null) return skip('aio', checks, '/proc/sys/fs/aio-max-nr not readable');
  if (shards === null) return skip('aio', checks, 'shard count unknown (no --smp, cpuset or /sys/devices/system/cpu/online)');
  const perShard = numberOf('scylla-host.aio-per-shard');
  const network = a?.maxNetworkingIocbs ?? perShard - 1026;
  // main.cc leaves 10 in reserve with io_uring available, else 1024: take the larger, which is never wrong.
  const reserve = a?.reserveIocbs ?? 1024;
  const need = aioNeed(shards, network, reserve);
  const used = f.aioNr ?? 0;
  const free = f.aioMaxNr - used;
  const running = f.process !== null;
  const evidence = [
    `${f.origin}: fs.aio-max-nr ${f.aioMaxNr}, fs.aio-nr ${f.aioNr ?? '?'} (free ${free})`,
    `${plural(shards, 'shard')} (${a?.smp !== null && a?.smp !== undefined ? `--smp ${a.smp}` : (avail?.from ?? '?')}) × (1024 storage + 2 preempt + ` +
      `${network} networking) + ${reserve} reserve = ${need.full}; minimum ${need.minimum}`,
  ];
  if (free >= need.full) return rule('aio', checks, []);
  // With scylla running, aio-nr already holds its own blocks: compare the ceiling with the need instead.
  if (running && f.aioMaxNr >= need.full) return rule('aio', checks, []);
  const belowMin = (running ? f.aioMaxNr : free) < need.minimum;
  return rule('aio', checks, [
    {
      id: 'scylla-host.aio-max-nr-below-need',
      severity: belowMin ? 'critical' : 'warning',
      title: belowMin
        ? `fs.aio-max-nr ${f.aioMaxNr} leaves less than the ${need.minimum} AIO blocks ${plural(shards, 'shard')} need: ScyllaDB will not start`
        : `fs.aio-max-nr ${f.aioMaxNr} is below the ${need.full} AIO blocks ${plural(shards, 'shard')} ask for: networking blocks get cut`,
      evidence,
      recommendation:
        `Set fs.aio-max-nr to at least ${used + need.full} (sysctl -w, persisted in /etc/sysctl.d/99-scylla-aio.conf; the packages ship ` +
        `30000000). ` +
        'The counter is kernel-wide: every ScyllaDB process or container on this host draws from it, so add their needs together.',
      knowledgeIds: ['scylla-host.aio-per-shard', 'os.aio-max-nr.scylla'],
      confidence: 'high',
    },
  ]);
}

function shards(f: ScyllaHostFacts): KindRuleOutcome {
  const checks = 'shards (--smp) against the CPUs given (--cpuset or online CPUs), --overprovisioned, cpuset.conf vs the running process';
  const run = f.process?.args ?? null;
  const conf = configuredArgs(f);
  const a = run ?? conf;
  if (a === null) return skip('shards', checks, 'neither the scylla command line nor /etc/scylla.d/cpuset.conf was read');
  const avail = availableCpus(f, a);
  const findings: Finding[] = [];
  const src = run ? `scylla pid ${f.process!.pid} command line` : 'CPUSET in /etc/scylla.d/cpuset.conf';
  if (a.smp !== null && avail && a.smp > avail.cpus.length) {
    findings.push({
      id: 'scylla-host.smp-exceeds-cpus',
      severity: 'critical',
      title: `--smp ${a.smp} asks for more shards than the ${avail.cpus.length} CPUs given (${avail.from}): Seastar refuses to start`,
      evidence: [`${f.origin}: ${src}: --smp ${a.smp}${a.cpusetText ? ` --cpuset ${a.cpusetText}` : ''}; ${avail.from}`],
      recommendation:
        `Run scylla_cpuset_setup with --smp at most ${avail.cpus.length} (or a wider --cpuset); Seastar stops with "insufficient processing ` + `units".`,
      knowledgeIds: ['scylla-host.smp-vs-cpus'],
      confidence: 'high',
    });
  } else if (a.smp !== null && avail && a.smp < avail.cpus.length && !a.overprovisioned) {
    findings.push({
      id: 'scylla-host.smp-below-cpus',
      severity: 'info',
      title: `--smp ${a.smp} leaves ${avail.cpus.length - a.smp} of the ${avail.cpus.length} CPUs given without a shard`,
      evidence: [`${f.origin}: ${src}: --smp ${a.smp}; ${avail.from}`],
      recommendation:
        'If the CPUs are not meant for IRQs or other services, drop --smp (one shard per CPU) or narrow --cpuset to the CPUs ScyllaDB should ' + 'own.',
      knowledgeIds: ['scylla-host.smp-vs-cpus', 'scylla.shard-per-core'],
      confidence: 'medium',
    });
  }
  if (a.overprovisioned && avail && f.onlineCpus && (a.smp ?? avail.cpus.length) >= f.onlineCpus.length - 1 && f.onlineCpus.length >= 4) {
    findings.push({
      id: 'scylla-host.overprovisioned-dedicated',
      severity: 'info',
      title: `--overprovisioned on a host whose ${f.onlineCpus.length} CPUs all run shards`,
      evidence: [`${f.origin}: ${src}: --overprovisioned${a.smp !== null ? ` --smp ${a.smp}` : ''}; online CPUs ${cpuListText(f.onlineCpus)}`],
      recommendation:
        'On a dedicated host drop --overprovisioned (it turns off pinning, busy polling and huge pages); keep it where other processes share ' + 'the CPUs.',
      knowledgeIds: ['scylla-host.overprovisioned-dedicated', 'scylla.overprovisioned'],
      confidence: 'medium',
    });
  }
  if (run && conf && (conf.smp !== null || conf.cpuset !== null)) {
    const diff: string[] = [];
    if (conf.smp !== null && conf.smp !== run.smp) diff.push(`--smp ${conf.smp} in cpuset.conf, ${run.smp ?? 'none'} running`);
    if (conf.cpuset !== null && cpuListText(conf.cpuset) !== cpuListText(run.cpuset ?? [])) {
      diff.push(`--cpuset ${conf.cpusetText} in cpuset.conf, ${run.cpusetText ?? 'none'} running`);
    }
    if (diff.length) {
      findings.push({
        id: 'scylla-host.cpuset-conf-drift',
        severity: 'warning',
        title: `The running scylla differs from /etc/scylla.d/cpuset.conf: ${diff.join('; ')}`,
        evidence: [`${f.origin}: CPUSET="${f.env?.['CPUSET'] ?? ''}"; pid ${f.process!.pid}`],
        recommendation:
          'cpuset.conf was changed after the last start (or scylla was started by hand). Restart through the service at a quiet time, and let ' +
          'scylla_prepare regenerate perftune.yaml.',
        knowledgeIds: ['scylla-host.smp-vs-cpus', 'scylla-host.cpuset-perftune-masks'],
        confidence: 'high',
      });
    }
  }
  return rule('shards', checks, findings);
}

function masks(f: ScyllaHostFacts): KindRuleOutcome {
  const checks = 'cpuset.conf CPUs inside perftune.yaml cpu_mask and outside irq_cpu_mask';
  const p = f.perftune;
  const a = f.process?.args ?? configuredArgs(f);
  if (!p) return skip('cpuset-masks', checks, f.perftunePresent === false ? 'no /etc/scylla.d/perftune.yaml (perftune not used)' : 'perftune.yaml not read');
  if (!a?.cpuset) return skip('cpuset-masks', checks, 'no --cpuset (scylla uses every CPU; nothing to compare)');
  const outside = p.cpuMask ? a.cpuset.filter((c) => !p.cpuMask!.includes(c)) : [];
  const onIrq = p.irqCpuMask ? a.cpuset.filter((c) => p.irqCpuMask!.includes(c)) : [];
  const all = f.onlineCpus && p.irqCpuMask && f.onlineCpus.every((c) => p.irqCpuMask!.includes(c));
  const bad: string[] = [];
  if (outside.length)
    bad.push(`CPU ${cpuListText(outside)} of --cpuset ${a.cpusetText} ${outside.length === 1 ? 'is' : 'are'} outside cpu_mask ` + `${p.cpuMaskText}`);
  // irq_cpu_mask equal to every CPU is perftune's "all CPUs do IRQs" (MQ) layout: shards share by design.
  if (onIrq.length && !all)
    bad.push(
      `CPU ${cpuListText(onIrq)} of --cpuset ${a.cpusetText} also ${onIrq.length === 1 ? 'takes' : 'take'} IRQs ` + `(irq_cpu_mask ${p.irqCpuMaskText})`,
    );
  return rule(
    'cpuset-masks',
    checks,
    bad.length === 0
      ? []
      : [
          {
            id: 'scylla-host.cpuset-perftune-mismatch',
            severity: 'warning',
            title: `cpuset.conf and perftune.yaml disagree: ${bad.join('; ')}`,
            evidence: [
              `${f.origin}: CPUSET --cpuset ${a.cpusetText}; perftune.yaml cpu_mask ${p.cpuMaskText ?? '?'} irq_cpu_mask ${p.irqCpuMaskText ?? '(none)'}`,
            ],
            recommendation:
              'One of the two files was edited by hand. Re-run scylla_cpuset_setup (it deletes perftune.yaml) and restart so scylla_prepare writes a ' +
              'perftune.yaml that matches.',
            knowledgeIds: ['scylla-host.cpuset-perftune-masks'],
            confidence: 'high',
          },
        ],
  );
}

interface DeviceIrqs {
  device: string;
  kind: 'nic' | 'nvme';
  irqs: { irq: string; name: string; counts: number[] }[];
}

function deviceIrqs(i: Interrupts): DeviceIrqs[] {
  const by = new Map<string, DeviceIrqs>();
  for (const l of i.lines) {
    const d = deviceOfIrq(l.name);
    if (!d) continue;
    const e = by.get(d.device) ?? { device: d.device, kind: d.kind, irqs: [] };
    e.irqs.push({ irq: l.irq, name: l.name, counts: l.counts });
    by.set(d.device, e);
  }
  return [...by.values()];
}

/** Interrupt counts alone (a paste, or a host without readable affinity): a multi-queue device served by one CPU. */
function concentrated(origin: string, i: Interrupts, irqCpus: number[] | null = null): Finding[] {
  if (i.cpus < 2) return [];
  const out: Finding[] = [];
  for (const d of deviceIrqs(i)) {
    if (d.irqs.length < 2) continue;
    const perCpu = new Array<number>(i.cpus).fill(0);
    for (const q of d.irqs)
      q.counts.forEach((c, cpu) => {
        if (cpu < perCpu.length) perCpu[cpu] = perCpu[cpu]! + c;
      });
    const total = perCpu.reduce((s, c) => s + c, 0);
    const busy = perCpu.map((c, cpu) => [cpu, c] as const).filter(([, c]) => c > 0);
    if (total === 0 || busy.length !== 1) continue;
    const [cpu] = busy[0]!;
    // perftune.py on a small machine binds every NIC queue to its one IRQ CPU: that is the tuning, not drift.
    if (d.kind === 'nic' && irqCpus?.length === 1 && irqCpus[0] === cpu) continue;
    out.push({
      id: 'scylla-host.irqs-on-one-cpu',
      severity: 'warning',
      title: `All ${d.irqs.length} ${d.kind === 'nvme' ? 'NVMe' : 'NIC'} queues of ${d.device} interrupt CPU${cpu} only (of ${i.cpus})`,
      evidence: [
        `${origin}: /proc/interrupts ` +
          `${d.irqs
            .slice(0, 4)
            .map((q) => `${q.irq}: ${q.name} CPU${cpu}=${q.counts[cpu]}`)
            .join(', ')}${d.irqs.length > 4 ? ', …' : ''}; every other CPU 0`,
      ],
      recommendation:
        d.kind === 'nvme'
          ? 'One CPU takes every completion and starves. Let the kernel spread NVMe queues (managed IRQs, no irqbalance pinning) or run perftune.py --tune ' +
            'disks; check irqbalance is not banned from them.'
          : 'Run perftune.py (SET_NIC_AND_DISKS=yes, or scylla_setup) so the NIC queues go to the IRQ CPUs, and keep irqbalance from moving them back.',
      knowledgeIds: ['scylla-host.irq-affinity'],
      confidence: 'high',
    });
  }
  return out;
}

function irqs(f: ScyllaHostFacts): KindRuleOutcome {
  const checks = 'NIC and NVMe IRQ affinity (/proc/interrupts, /proc/irq/*/smp_affinity_list) against the IRQ and shard CPUs';
  if (!f.interrupts) return skip('irq-affinity', checks, '/proc/interrupts not read');
  const p = f.perftune;
  const findings = concentrated(f.origin, f.interrupts, p?.irqCpuMask ?? null);
  const a = f.process?.args ?? configuredArgs(f);
  const irqCpus = p?.irqCpuMask ?? null;
  const shardCpus = a?.cpuset ?? (p?.cpuMask && irqCpus ? p.cpuMask.filter((c) => !irqCpus.includes(c)) : null);
  const tuned = p ? new Set(p.nics) : null;
  if (irqCpus && shardCpus && shardCpus.length && Object.keys(f.affinity).length) {
    const stray: string[] = [];
    for (const d of deviceIrqs(f.interrupts)) {
      if (d.kind !== 'nic' || (tuned && tuned.size && !tuned.has(d.device))) continue;
      for (const q of d.irqs) {
        const aff = f.affinity[q.irq];
        if (aff && aff.some((c) => !irqCpus.includes(c))) stray.push(`${q.irq} (${q.name}) → CPU ${cpuListText(aff)}`);
      }
    }
    if (stray.length) {
      findings.push({
        id: 'scylla-host.irq-affinity-drift',
        severity: 'warning',
        title: `${plural(stray.length, 'NIC IRQ')} reach CPUs outside irq_cpu_mask ${p!.irqCpuMaskText}`,
        evidence: [`${f.origin}: /proc/irq/*/smp_affinity_list ${stray.slice(0, 5).join('; ')}${stray.length > 5 ? '; …' : ''}`],
        recommendation:
          "perftune.py's IRQ binding was undone (irqbalance, a driver reload, a NIC added). Restart scylla-server (scylla_prepare re-runs " +
          'perftune) or run perftune.py --options-file /etc/scylla.d/perftune.yaml.',
        knowledgeIds: ['scylla-host.irq-affinity', 'scylla-host.cpuset-perftune-masks'],
        confidence: 'high',
      });
    }
  }
  return rule('irq-affinity', checks, findings);
}

function perftuneConfig(f: ScyllaHostFacts): KindRuleOutcome {
  const checks = 'perftune set-up: SET_NIC_AND_DISKS vs perftune.yaml, old mode-based perftune.yaml, tuned NICs present';
  const p = f.perftune;
  const setNic = f.env?.['SET_NIC_AND_DISKS'];
  if (!p && setNic === undefined) return skip('perftune', checks, 'neither perftune.yaml nor /etc/default/scylla-server was read');
  const findings: Finding[] = [];
  const netTuned = p?.tune.includes('net') ?? false;
  if (p && netTuned && setNic !== undefined && !/^yes$/i.test(setNic)) {
    const other = ['SET_CLOCKSOURCE', 'DISABLE_WRITEBACK_CACHE'].filter((k) => /^yes$/i.test(f.env?.[k] ?? ''));
    findings.push({
      id: 'scylla-host.perftune-net-despite-switch',
      severity: other.length ? 'warning' : 'info',
      title: `perftune.yaml tunes the NIC (tune: net, nic ${p.nics.join(', ') || '?'}) while SET_NIC_AND_DISKS=${setNic}`,
      evidence: [
        `${f.origin}: SET_NIC_AND_DISKS=${setNic}${other.length ? `, ${other.map((k) => `${k}=yes`).join(', ')}` : ''}; perftune.yaml tune ` +
          `${p.tune.join(', ')}`,
      ],
      recommendation: other.length
        ? `scylla_prepare runs perftune with this file because ${other.join(' and ')} is on, so the NIC is tuned anyway. Remove "net" from tune: in ` +
          `perftune.yaml, or set SET_NIC_AND_DISKS=yes if the tuning is wanted.`
        : 'The switch and the file disagree; the file is applied whenever any perftune option is turned on. Make them say the same thing.',
      knowledgeIds: ['scylla-host.perftune-net-switch'],
      confidence: 'high',
    });
  }
  if (p && p.mode !== null && p.irqCpuMaskText === null) {
    findings.push({
      id: 'scylla-host.perftune-mode-layout',
      severity: 'info',
      title: `perftune.yaml uses the old "mode: ${p.mode}" layout instead of irq_cpu_mask`,
      evidence: [`${f.origin}: perftune.yaml mode ${p.mode}, cpu_mask ${p.cpuMaskText ?? '?'}`],
      recommendation:
        'Delete /etc/scylla.d/perftune.yaml and restart scylla-server: scylla_prepare writes one with irq_cpu_mask, which uses more IRQ cores ' +
        'on large machines.',
      knowledgeIds: ['scylla-host.perftune-net-switch'],
      confidence: 'medium',
    });
  }
  if (p && netTuned && f.interrupts) {
    const seen = new Set(deviceIrqs(f.interrupts).map((d) => d.device));
    const names = new Set(f.interrupts.lines.map((l) => l.name));
    // virtio NICs show as virtioN queues, not by interface name: only judge names the host shows at all.
    const namedNics = seen.size > 0 && [...seen].some((s) => !s.startsWith('virtio'));
    const missing = namedNics ? p.nics.filter((n) => !seen.has(n) && ![...names].some((x) => x.startsWith(`${n}-`))) : [];
    if (missing.length) {
      findings.push({
        id: 'scylla-host.perftune-nic-missing',
        severity: 'warning',
        title: `perftune.yaml tunes ${missing.join(', ')}, which has no interrupts on this host`,
        evidence: [`${f.origin}: perftune.yaml nic ${p.nics.join(', ')}; NIC queues in /proc/interrupts: ${[...seen].join(', ') || 'none'}`],
        recommendation:
          'The interface was renamed or the file came from another machine: set IFNAME in /etc/default/scylla-server, delete perftune.yaml ' +
          'and restart so it is generated for this host.',
        knowledgeIds: ['scylla-host.perftune-net-switch', 'scylla-host.irq-affinity'],
        confidence: 'medium',
      });
    }
  }
  return rule('perftune', checks, findings);
}

function nofile(f: ScyllaHostFacts): KindRuleOutcome {
  const checks = "open-files limit of scylla against the unit's LimitNOFILE and fs.nr_open / fs.file-max";
  if (!f.process) return skip('nofile', checks, 'no running scylla process read');
  const { nofileSoft: soft, nofileHard: hard } = f.process;
  if (soft === null) return skip('nofile', checks, `/proc/${f.process.pid}/limits has no "Max open files"`);
  const want = numberOf('scylla-host.nofile');
  const bad: string[] = [];
  if (soft !== 'unlimited' && soft < want) bad.push(`soft limit ${soft} < ${want}`);
  const hardN = hard === 'unlimited' ? Infinity : hard;
  if (f.nrOpen !== null && hardN !== null && hardN > f.nrOpen) bad.push(`hard limit ${hard} above fs.nr_open ${f.nrOpen}`);
  if (f.fileMax !== null && soft !== 'unlimited' && f.fileMax < soft) bad.push(`fs.file-max ${f.fileMax} below the process limit ${soft}`);
  return rule(
    'nofile',
    checks,
    bad.length === 0
      ? []
      : [
          {
            id: 'scylla-host.nofile-low',
            severity: soft !== 'unlimited' && soft < 10_000 ? 'critical' : 'warning',
            title: `scylla (pid ${f.process.pid}) open files: ${bad.join('; ')}`,
            evidence: [
              `${f.origin}: /proc/${f.process.pid}/limits Max open files ${soft} ${hard ?? '?'}; fs.nr_open ${f.nrOpen ?? '?'}, fs.file-max ` +
                `${f.fileMax ?? '?'}`,
            ],
            recommendation:
              `Start scylla through its unit (LimitNOFILE=${want}) or give the container --ulimit nofile=${want}:${want}; install ` +
              `99-scylla-filemax.conf (fs.nr_open, fs.file-max). The running process keeps its limit until restarted.`,
            knowledgeIds: ['scylla-host.nofile'],
            confidence: 'high',
          },
        ],
  );
}

function diskRam(f: ScyllaHostFacts): KindRuleOutcome {
  const checks = 'data filesystem size against RAM (ScyllaDB: up to 100:1, 30:1 rule of thumb)';
  if (f.dataFsBytes === null) return skip('disk-ram', checks, 'data directory size not read (df)');
  if (f.memTotalKiB === null || f.memTotalKiB === 0) return skip('disk-ram', checks, 'MemTotal not read');
  const ratio = f.dataFsBytes / (f.memTotalKiB * 1024);
  const sev = grade(PACK, ratio, 'scylla-host.disk-ram-ratio');
  const limit = knowledge('scylla-host.disk-ram-ratio').thresholds?.warning ?? 100;
  return rule(
    'disk-ram',
    checks,
    sev === null
      ? []
      : [
          {
            id: 'scylla-host.disk-ram-ratio',
            severity: sev,
            title:
              `${(f.dataFsBytes / 1024 ** 4).toFixed(1)} TiB of data disk for ${(f.memTotalKiB / 1024 ** 2).toFixed(1)} GiB RAM is ${Math.round(ratio)}:1 ` +
              `(ScyllaDB: up to ${limit}:1, 30:1 as a rule)`,
            evidence: [`${f.origin}: df ${f.dataDir ?? '?'} ${f.dataFsBytes} B; /proc/meminfo MemTotal ${f.memTotalKiB} kB`],
            recommendation: 'Once the disk fills, cache, filters and indexes outgrow memory and reads go to disk: add RAM, or more nodes with less disk each.',
            knowledgeIds: ['scylla-host.disk-ram-ratio'],
            confidence: 'medium',
          },
        ],
  );
}

function ioSetup(f: ScyllaHostFacts): KindRuleOutcome {
  const checks = 'scylla_io_setup done: SEASTAR_IO points at io_properties.yaml, which exists';
  const run = f.process?.args ?? null;
  const seastarIo = f.env?.['SEASTAR_IO'];
  // Judged only when the set-up directory (or io.conf's line) was seen: a command line alone may come from a container.
  if (seastarIo === undefined && f.ioPropertiesPresent === null) return skip('io-setup', checks, '/etc/scylla.d (io.conf, io_properties.yaml) not read');
  const a = run ?? (seastarIo !== undefined ? parseScyllaArgs(splitArgs(seastarIo)) : null);
  const dev = a?.developerMode || /^--developer-mode[= ]?(1|true)/.test(f.env?.['DEV_MODE'] ?? '');
  if (dev) return skip('io-setup', checks, 'developer mode: ScyllaDB skips the I/O set-up');
  let problem: string | null = null;
  const named = a?.ioPropertiesFile ?? null;
  if (named && f.ioPropertiesPresent === false && named.endsWith('/io_properties.yaml')) problem = `${named} is named but does not exist`;
  else if (a && !a.ioPropertiesFile && !a.legacyIo) problem = `no --io-properties-file${seastarIo !== undefined ? ` (SEASTAR_IO="${seastarIo}")` : ''}`;
  else if (a && !a.ioPropertiesFile && a.legacyIo) problem = 'the disk is described by --max-io-requests/--num-io-queues (pre-io_properties set-up)';
  else if (!a && f.ioPropertiesPresent === false) problem = 'no /etc/scylla.d/io_properties.yaml';
  return rule(
    'io-setup',
    checks,
    problem === null
      ? []
      : [
          {
            id: 'scylla-host.io-setup-missing',
            severity: 'warning',
            title: `I/O set-up not done: ${problem}`,
            evidence: [
              `${f.origin}: ${run ? `scylla pid ${f.process!.pid} command line` : '/etc/scylla.d/io.conf'}; io_properties.yaml ` +
                `${f.ioPropertiesPresent === null ? 'not checked' : f.ioPropertiesPresent ? 'present' : 'absent'}`,
            ],
            recommendation:
              'Run scylla_io_setup on the node (it measures the disks with iotune, writes io_properties.yaml and SEASTAR_IO in io.conf) and restart.',
            knowledgeIds: ['scylla-host.io-setup'],
            confidence: 'high',
          },
        ],
  );
}

function devMode(f: ScyllaHostFacts): KindRuleOutcome {
  const checks = 'developer mode from dev-mode.conf or the command line';
  const conf = f.env?.['DEV_MODE'];
  const run = f.process?.args.developerMode ?? null;
  if (conf === undefined && run === null) return skip('developer-mode', checks, 'neither dev-mode.conf nor a --developer-mode option was read');
  const on = run === true || (run === null && /^--developer-mode[= ]?(1|true)\b/.test(conf ?? ''));
  return rule(
    'developer-mode',
    checks,
    !on
      ? []
      : [
          {
            id: 'scylla-host.developer-mode',
            severity: 'warning',
            title:
              run === true
                ? 'ScyllaDB runs in developer mode (command line)'
                : `dev-mode.conf puts ScyllaDB in developer mode (DEV_MODE=${conf})${f.process ? ' from its next start' : ''}`,
            evidence: [`${f.origin}: ${run === true ? `scylla pid ${f.process!.pid} --developer-mode` : `/etc/scylla.d/dev-mode.conf DEV_MODE=${conf}`}`],
            recommendation: 'A production node must not skip its start-up checks: scylla_dev_mode_setup --developer-mode 0, then scylla_io_setup, and restart.',
            knowledgeIds: ['scylla-host.developer-mode-conf', 'config.scylla.developer-mode'],
            confidence: 'high',
          },
        ],
  );
}

export function scyllaHostRules(f: ScyllaHostFacts): KindRuleOutcome[] {
  return [aio(f), shards(f), masks(f), irqs(f), perftuneConfig(f), nofile(f), diskRam(f), ioSetup(f), devMode(f)];
}

/** A pasted `cat /etc/scylla.d/* /etc/default/scylla-server`: the checks that need only these files. */
export function scyllaSetupRules(s: ScyllaSetup): KindRuleOutcome[] {
  const f = { ...emptyScyllaHostFacts('pasted ScyllaDB set-up files'), env: s.env, perftune: s.perftune };
  return [shards(f), masks(f), perftuneConfig(f), devMode(f)].concat(f.env['SEASTAR_IO'] !== undefined ? [ioSetup(f)] : []);
}

/** A pasted /proc/interrupts: queues served by one CPU. */
export function interruptsRules(i: Interrupts): KindRuleOutcome[] {
  return [rule('irq-affinity', 'NIC and NVMe interrupts spread over CPUs (/proc/interrupts counts)', concentrated('pasted /proc/interrupts', i))];
}

/** Shards implied by Seastar's numbers: (recommended − minimum) = (networking − 1) × shards. */
function impliedShards(a: SeastarAio): number | null {
  if (a.shards !== null) return a.shards;
  if (a.minimum !== null && a.recommended !== null) {
    for (const net of [50000, 10000]) {
      const d = a.recommended - a.minimum;
      if (d > 0 && d % (net - 1) === 0) return d / (net - 1);
    }
  }
  if (a.requested !== null) for (const per of [51026, 11026]) if (a.requested % per === 0) return a.requested / per;
  return null;
}

/** Pasted Seastar AIO start-up messages: did the node start, and what fs.aio-max-nr it needs. */
export function seastarAioRules(a: SeastarAio): KindRuleOutcome[] {
  const checks = "Seastar's AIO start-up check (fs.aio-max-nr)";
  const failed = a.minimum !== null || a.setupFailed;
  const short = a.available !== null && a.requested !== null && a.available < a.requested;
  const reduced = !failed && (a.optimal !== null || a.adjustedTo !== null || a.capacityWarning || short);
  if (!failed && !reduced) return [rule('aio', checks, [])];
  const s = impliedShards(a);
  // The usage table gives shards and networking per shard: Seastar's own total plus what aio-nr already holds.
  const fromTable = s !== null && a.networkPerShard !== null ? (a.aioNr ?? 0) + aioNeed(s, a.networkPerShard, 0).full : null;
  const target = a.recommended ?? a.optimal ?? (a.requested !== null ? a.requested + (a.aioNr ?? 0) : fromTable);
  return [
    rule('aio', checks, [
      {
        id: 'scylla-host.aio-max-nr-below-need',
        severity: failed ? 'critical' : 'warning',
        title: failed
          ? `ScyllaDB could not start: fs.aio-max-nr is below Seastar's ` +
            `minimum${a.minimum !== null ? ` (${a.minimum})` : ''}${s !== null ? ` for ${plural(s, 'shard')}` : ''}`
          : `ScyllaDB started with fewer networking AIO blocks${a.adjustedTo !== null ? ` (${a.adjustedFrom} → ${a.adjustedTo} per shard)` : ''}: fs.aio-max-nr ` +
            `too low${s !== null ? ` for ${plural(s, 'shard')}` : ''}`,
        evidence: a.evidence,
        recommendation:
          `Set fs.aio-max-nr to at least ${target ?? 'the recommended value Seastar printed'} (sysctl -w fs.aio-max-nr=…, persisted in ` +
          `/etc/sysctl.d/; ` +
          'the packages ship 30000000). The limit is kernel-wide: several ScyllaDB containers on one host (or the Docker Desktop VM) add their needs, ' +
          `${s !== null ? `here ${plural(s, 'shard')} × 51026 + reserve per instance; ` : ''}--smp lowers it. Where the setting cannot be changed ` +
          '(Docker Desktop on macOS), start ScyllaDB with --reactor-backend=epoll instead of linux-aio, for development only.',
        knowledgeIds: ['scylla-host.aio-per-shard', 'os.aio-max-nr.scylla', 'scylla-host.reactor-backend-epoll'],
        confidence: 'high',
      },
    ]),
  ];
}

/** A pasted `ethtool -S`: packets the cloud instance's network allowances shaped (ENA counters, since driver load). */
export function ethtoolRules(e: EthtoolStats): KindRuleOutcome[] {
  const checks = 'ENA network allowances (ethtool -S *_allowance_exceeded)';
  const present = ENA_ALLOWANCES.filter((k) => e.counters[k] !== undefined);
  if (present.length === 0) return [skip('network-allowance', checks, "no ENA allowance counters in this driver's statistics (not an EC2 ENA interface)")];
  const hit = present.filter((k) => e.counters[k]! > 0);
  const nic = e.nic ?? 'the interface';
  const conntrack = hit.includes('conntrack_allowance_exceeded');
  return [
    rule(
      'network-allowance',
      checks,
      hit.length === 0
        ? []
        : [
            {
              id: 'host.nic-allowance-exceeded',
              severity: 'warning',
              title: `The EC2 instance shaped packets on ${nic}: ${hit.map((k) => `${k} ${e.counters[k]}`).join(', ')}`,
              evidence: [`ethtool -S ${nic}: ${present.map((k) => `${k}: ${e.counters[k]}`).join(', ')}`],
              recommendation:
                'The counters run since the driver loaded: read them twice a minute apart to see whether they grow now. If they do, the ' +
                `instance is at its ${conntrack ? 'connection-tracking' : 'bandwidth or packet-rate'} allowance: move to a larger or newer instance type ` +
                `${conntrack ? '(or cut connection churn) ' : ''}rather than tuning the database; ScyllaDB and Cassandra see it only as latency and timeouts.`,
              knowledgeIds: ['host.ena-allowance'],
              confidence: 'medium',
            },
          ],
    ),
  ];
}
