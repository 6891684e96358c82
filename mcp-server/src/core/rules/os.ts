/**
 * audit_os: operating-system settings of a database host (swap, THP, zone reclaim, map count, AIO, the
 * database process's limits, CPU governor, clocksource, NUMA, heap vs RAM) from OsFacts read by
 * collect/storage/read-os.ts. Database-aware: Cassandra wants no swap and a large map count, ScyllaDB
 * swappiness 1 and a large fs.aio-max-nr. TCP keepalive and buffer sysctls follow DataStax's recommended
 * production settings; the listen backlogs follow ScyllaDB's perftune.py. PURE.
 */
import type { Finding } from '../findings.js';
import { numberOf, valueOf, type KnowledgeId } from '../knowledge/index.js';
import type { KindRuleOutcome } from './per-kind.js';
import { grade, outcome, PACK, skipped } from './rule.js';

export interface ProcessLimits {
  soft: number | 'unlimited' | null;
  hard: number | 'unlimited' | null;
}

export interface OsFacts {
  origin: string;
  product: 'cassandra' | 'scylla' | null;
  swapTotalKiB: number | null;
  swapDevices: string[];
  swappiness: number | null;
  thpEnabled: string | null;
  thpDefrag: string | null;
  zoneReclaimMode: number | null;
  maxMapCount: number | null;
  aioMaxNr: number | null;
  /** governor → number of CPUs using it; null when cpufreq is absent (common on VMs). */
  governors: Record<string, number> | null;
  clocksource: string | null;
  availableClocksources: string[];
  numaNodes: number | null;
  tcpKeepaliveTime: number | null;
  tcpKeepaliveIntvl: number | null;
  tcpKeepaliveProbes: number | null;
  /** net.core.rmem_max / wmem_max (bytes). */
  rmemMax: number | null;
  wmemMax: number | null;
  /** net.ipv4.tcp_rmem / tcp_wmem: min, default, max (bytes). */
  tcpRmem: [number, number, number] | null;
  tcpWmem: [number, number, number] | null;
  somaxconn: number | null;
  tcpMaxSynBacklog: number | null;
  /** From timedatectl (NTPSynchronized) or chronyc (Leap status Normal); null when neither could be read. */
  timeSynced: { synced: boolean; source: string } | null;
  cpus: number | null;
  memTotalKiB: number | null;
  process: { pid: number; command: string; heapBytes: number | null; limits: Record<string, ProcessLimits> } | null;
  unread: { what: string; why: string }[];
}

/** Facts with nothing read yet: every value null or empty, for a reader or an adapter to fill in. */
export function emptyOsFacts(origin: string, product: OsFacts['product'] = null): OsFacts {
  return {
    origin,
    product,
    swapTotalKiB: null,
    swapDevices: [],
    swappiness: null,
    thpEnabled: null,
    thpDefrag: null,
    zoneReclaimMode: null,
    maxMapCount: null,
    aioMaxNr: null,
    governors: null,
    clocksource: null,
    availableClocksources: [],
    numaNodes: null,
    tcpKeepaliveTime: null,
    tcpKeepaliveIntvl: null,
    tcpKeepaliveProbes: null,
    rmemMax: null,
    wmemMax: null,
    tcpRmem: null,
    tcpWmem: null,
    somaxconn: null,
    tcpMaxSynBacklog: null,
    timeSynced: null,
    cpus: null,
    memTotalKiB: null,
    process: null,
    unread: [],
  };
}

/** The bracketed choice in "always madvise [never]". */
export function selected(text: string | undefined): string | null {
  if (text === undefined) return null;
  const m = /\[([^\]]+)\]/.exec(text);
  return m ? m[1]! : text.trim() || null;
}

/** /proc/PID/limits → name (lower-case, "max open files" → "nofile" …) → soft/hard. */
export function parseProcLimits(text: string): Record<string, ProcessLimits> {
  const names: Record<string, string> = {
    'max open files': 'nofile',
    'max processes': 'nproc',
    'max locked memory': 'memlock',
    'max address space': 'as',
    'max file size': 'fsize',
    'max core file size': 'core',
    'max stack size': 'stack',
  };
  const out: Record<string, ProcessLimits> = {};
  const val = (s: string): number | 'unlimited' | null => (s === 'unlimited' ? 'unlimited' : /^\d+$/.test(s) ? Number(s) : null);
  for (const line of text.split('\n')) {
    const m = /^(Max [a-z ]+?)\s{2,}(\S+)\s+(\S+)/.exec(line);
    if (!m) continue;
    const key = names[m[1]!.toLowerCase()];
    if (key) out[key] = { soft: val(m[2]!), hard: val(m[3]!) };
  }
  return out;
}

/** -Xmx from a java command line (bytes); null when absent. */
export function heapFromCmdline(argv: string[]): number | null {
  let heap: number | null = null;
  for (const a of argv) {
    const m = /^-Xmx(\d+)([kKmMgGtT]?)$/.exec(a);
    if (!m) continue;
    const f = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
    heap = Number(m[1]) * f;
  }
  return heap;
}

const isCassandra = (f: OsFacts) => f.product !== 'scylla';
const forProduct = (f: OsFacts) => (f.product === null ? ' (assuming Cassandra: product not given)' : '');

const rule = (id: string, checks: string, findings: Finding[]): KindRuleOutcome => outcome(`os:${id}`, findings, checks);
const skip = (id: string, checks: string, because: string): KindRuleOutcome => skipped(`os:${id}`, because, checks);

function swap(f: OsFacts): KindRuleOutcome {
  const checks = 'swap (Cassandra: off; ScyllaDB: swappiness 1)';
  if (f.swapTotalKiB === null && f.swappiness === null) return skip('swap', checks, 'neither /proc/meminfo nor vm.swappiness could be read');
  const findings: Finding[] = [];
  if (isCassandra(f) && (f.swapTotalKiB ?? 0) > 0) {
    findings.push({
      id: 'os.swap-enabled',
      severity: 'warning',
      title: `Swap is on (${Math.round(f.swapTotalKiB! / 1024)} MiB)${forProduct(f)}`,
      evidence: [
        `${f.origin}: /proc/meminfo SwapTotal ${f.swapTotalKiB} kB${f.swapDevices.length ? `; /proc/swaps ${f.swapDevices.join(', ')}` : ''}; vm.swappiness ${f.swappiness ?? '?'}`,
      ],
      recommendation:
        'A swapped-out heap turns GC into disk I/O. Remove the swap entries from /etc/fstab and turn swap off ' +
        '(swappiness=0 alone still swaps under pressure). ' +
        'On a loaded node `swapoff -a` first reads every swapped page back into RAM: check that SwapTotal−SwapFree fits in MemAvailable, ' +
        'and do it at a quiet hour or with the node drained (else it stalls the node or wakes the OOM killer).',
      knowledgeIds: ['os.swap'],
      confidence: 'high',
    });
  }
  if (f.product === 'scylla' && f.swappiness !== null && f.swappiness !== numberOf('os.swappiness.scylla')) {
    findings.push({
      id: 'os.swappiness',
      severity: 'info',
      title: `vm.swappiness is ${f.swappiness}; ScyllaDB's packages set ${numberOf('os.swappiness.scylla')}`,
      evidence: [`${f.origin}: /proc/sys/vm/swappiness ${f.swappiness}`],
      recommendation: 'Install /etc/sysctl.d/99-scylla-vm.conf (scylla_setup does) or set vm.swappiness=1.',
      knowledgeIds: ['os.swappiness.scylla'],
      confidence: 'high',
    });
  }
  return rule('swap', checks, findings);
}

function memory(f: OsFacts): KindRuleOutcome[] {
  const out: KindRuleOutcome[] = [];
  const thp = 'transparent huge page defrag';
  if (f.thpDefrag === null) out.push(skip('thp', thp, '/sys/kernel/mm/transparent_hugepage/defrag not readable'));
  else {
    const want = String(valueOf('os.thp-defrag'));
    out.push(
      rule(
        'thp',
        thp,
        isCassandra(f) && f.thpDefrag !== want && f.thpDefrag !== 'madvise'
          ? [
              {
                id: 'os.thp-defrag',
                severity: 'warning',
                title: `Transparent huge page defrag is "${f.thpDefrag}"${forProduct(f)}`,
                evidence: [`${f.origin}: /sys/kernel/mm/transparent_hugepage/defrag [${f.thpDefrag}], enabled [${f.thpEnabled ?? '?'}]`],
                recommendation: `Synchronous compaction into huge pages stalls allocations (khugepaged at 100 % CPU). echo ${want} > /sys/kernel/mm/transparent_hugepage/defrag, persisted in a unit or kernel parameter.`,
                knowledgeIds: ['os.thp-defrag'],
                confidence: 'high',
              },
            ]
          : [],
      ),
    );
  }
  const zr = 'vm.zone_reclaim_mode';
  if (f.zoneReclaimMode === null) out.push(skip('zone-reclaim', zr, '/proc/sys/vm/zone_reclaim_mode not readable'));
  else
    out.push(
      rule(
        'zone-reclaim',
        zr,
        f.zoneReclaimMode !== 0
          ? [
              {
                id: 'os.zone-reclaim',
                severity: 'warning',
                title: `vm.zone_reclaim_mode is ${f.zoneReclaimMode}`,
                evidence: [`${f.origin}: /proc/sys/vm/zone_reclaim_mode ${f.zoneReclaimMode}; NUMA nodes ${f.numaNodes ?? '?'}`],
                recommendation:
                  'The kernel frees local page cache instead of using memory on the other node, which shows up as stalls. sysctl -w vm.zone_reclaim_mode=0 and persist it.',
                knowledgeIds: ['os.zone-reclaim-mode'],
                confidence: 'high',
              },
            ]
          : [],
      ),
    );
  const mm = 'vm.max_map_count (Cassandra mmaps SSTables)';
  if (!isCassandra(f)) out.push(skip('max-map-count', mm, 'ScyllaDB does not memory-map SSTables'));
  else if (f.maxMapCount === null) out.push(skip('max-map-count', mm, '/proc/sys/vm/max_map_count not readable'));
  else {
    const want = numberOf('os.vm-max-map-count');
    out.push(
      rule(
        'max-map-count',
        mm,
        f.maxMapCount < want
          ? [
              {
                id: 'os.max-map-count-low',
                severity: 'warning',
                title: `vm.max_map_count ${f.maxMapCount} is below ${want}${forProduct(f)}`,
                evidence: [`${f.origin}: /proc/sys/vm/max_map_count ${f.maxMapCount}`],
                recommendation: `Many SSTables exhaust the map areas and mmap fails (the node crashes). sysctl -w vm.max_map_count=${want}, persisted in /etc/sysctl.d/.`,
                knowledgeIds: ['os.vm-max-map-count'],
                confidence: 'high',
              },
            ]
          : [],
      ),
    );
  }
  const aio = 'fs.aio-max-nr (ScyllaDB AIO)';
  if (f.product !== 'scylla') out.push(skip('aio-max-nr', aio, 'only ScyllaDB needs a raised fs.aio-max-nr'));
  else if (f.aioMaxNr === null) out.push(skip('aio-max-nr', aio, '/proc/sys/fs/aio-max-nr not readable'));
  else {
    const want = numberOf('os.aio-max-nr.scylla');
    out.push(
      rule(
        'aio-max-nr',
        aio,
        f.aioMaxNr < want
          ? [
              {
                id: 'os.aio-max-nr-low',
                severity: 'warning',
                title: `fs.aio-max-nr ${f.aioMaxNr} is below ScyllaDB's ${want}${f.cpus ? ` (${f.cpus} CPUs = shards)` : ''}`,
                evidence: [`${f.origin}: /proc/sys/fs/aio-max-nr ${f.aioMaxNr}`],
                recommendation: `Each shard reserves AIO contexts at start-up; too few and ScyllaDB fails with "Could not setup Async I/O". sysctl -w fs.aio-max-nr=${want} (the package ships 99-scylla-aio.conf).`,
                knowledgeIds: ['os.aio-max-nr.scylla'],
                confidence: 'high',
              },
            ]
          : [],
      ),
    );
  }
  return out;
}

function limits(f: OsFacts): KindRuleOutcome {
  const checks = "the database process's resource limits (/proc/PID/limits)";
  if (f.process === null) return skip('limits', checks, 'no Cassandra/ScyllaDB process found on the host (or /proc/PID not readable)');
  const l = f.process.limits;
  const bad: string[] = [];
  const ids: KnowledgeId[] = [];
  const atLeast = (key: string, id: KnowledgeId) => {
    const want = numberOf(id);
    const v = l[key]?.soft;
    if (v !== undefined && v !== null && v !== 'unlimited' && v < want) {
      bad.push(`${key} ${v} < ${want}`);
      ids.push(id);
    }
  };
  const unlimited = (key: string, id: KnowledgeId) => {
    const v = l[key]?.soft;
    if (v !== undefined && v !== null && v !== 'unlimited') {
      bad.push(`${key} ${v} (not unlimited)`);
      ids.push(id);
    }
  };
  atLeast('nofile', 'os.limits.nofile');
  atLeast('nproc', 'os.limits.nproc');
  if (f.product !== 'scylla') {
    unlimited('memlock', 'os.limits.memlock');
    unlimited('as', 'os.limits.as');
  }
  return rule(
    'limits',
    checks,
    bad.length === 0
      ? []
      : [
          {
            id: 'os.process-limits',
            severity: bad.some((b) => /^(nofile|nproc|as)/.test(b)) ? 'warning' : 'info',
            title: `${f.process.command} (pid ${f.process.pid}) runs with low limits: ${bad.join(', ')}`,
            evidence: [
              `${f.origin}: /proc/${f.process.pid}/limits soft values: ${Object.entries(l)
                .map(([k, v]) => `${k}=${v.soft}`)
                .join(' ')}`,
            ],
            recommendation:
              'Raise them for the service (systemd LimitNOFILE=/LimitNPROC=/LimitMEMLOCK=infinity/LimitAS=infinity, or /etc/security/limits.d for the user) and restart; the running process keeps the limits it started with.',
            knowledgeIds: [...new Set(ids)],
            confidence: 'high',
          },
        ],
  );
}

function cpuAndClock(f: OsFacts): KindRuleOutcome[] {
  const out: KindRuleOutcome[] = [];
  const gov = 'CPU frequency governor';
  if (f.governors === null) out.push(skip('governor', gov, 'no cpufreq in /sys/devices/system/cpu (typical of VMs: the hypervisor controls frequency)'));
  else {
    const want = String(valueOf('os.cpu-governor'));
    const other = Object.entries(f.governors).filter(([g]) => g !== want);
    out.push(
      rule(
        'governor',
        gov,
        other.length === 0
          ? []
          : [
              {
                id: 'os.cpu-governor',
                severity: 'info',
                title: `CPU governor ${other.map(([g, n]) => `${g} on ${n} CPU${n > 1 ? 's' : ''}`).join(', ')} (not ${want})`,
                evidence: [
                  `${f.origin}: /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor ${Object.entries(f.governors)
                    .map(([g, n]) => `${g}×${n}`)
                    .join(' ')}`,
                ],
                recommendation: `Frequency scaling adds latency to short requests. Set ${want} (cpupower frequency-set -g ${want}, or scylla_cpuscaling_setup on ScyllaDB).`,
                knowledgeIds: ['os.cpu-governor'],
                confidence: 'medium',
              },
            ],
      ),
    );
  }
  const cs = 'kernel clocksource';
  if (f.clocksource === null) out.push(skip('clocksource', cs, 'current_clocksource not readable'));
  else {
    const slow = f.clocksource === 'xen' || f.clocksource === 'hpet' || f.clocksource === 'acpi_pm';
    out.push(
      rule(
        'clocksource',
        cs,
        slow
          ? [
              {
                id: 'os.clocksource-slow',
                severity: 'warning',
                title: `Clocksource is ${f.clocksource}${f.availableClocksources.includes('tsc') ? ' although tsc is available' : ''}`,
                evidence: [`${f.origin}: current_clocksource ${f.clocksource}; available ${f.availableClocksources.join(' ') || '?'}`],
                recommendation: f.availableClocksources.includes('tsc')
                  ? 'Boot with clocksource=tsc tsc=reliable (or echo tsc > .../current_clocksource to try it live).'
                  : 'Check whether the instance type offers tsc; clock reads are on every request path.',
                knowledgeIds: ['os.clocksource'],
                confidence: 'high',
              },
            ]
          : [],
      ),
    );
  }
  const numa = 'NUMA layout';
  if (f.numaNodes === null) out.push(skip('numa', numa, '/sys/devices/system/node not readable'));
  else
    out.push(
      rule(
        'numa',
        numa,
        f.numaNodes > 1
          ? [
              {
                id: 'os.numa-multi-node',
                severity: 'info',
                title: `${f.numaNodes} NUMA nodes${f.cpus ? `, ${f.cpus} CPUs` : ''}${f.memTotalKiB ? `, ${Math.round(f.memTotalKiB / 1024 / 1024)} GiB` : ''}`,
                evidence: [`${f.origin}: /sys/devices/system/node/node0…node${f.numaNodes - 1}; zone_reclaim_mode ${f.zoneReclaimMode ?? '?'}`],
                recommendation:
                  f.product === 'scylla'
                    ? 'ScyllaDB pins shards per NUMA node itself; keep zone_reclaim_mode 0.'
                    : 'Keep zone_reclaim_mode 0 and let bin/cassandra interleave memory (numactl installed); on very large hosts consider one instance per socket (pinned with numactl --cpunodebind/--membind).',
                knowledgeIds: ['os.numa.multi-node', 'os.zone-reclaim-mode'],
                confidence: 'high',
              },
            ]
          : [],
      ),
    );
  return out;
}

function heap(f: OsFacts): KindRuleOutcome {
  const checks = 'JVM heap against the host RAM';
  if (f.product === 'scylla') return skip('heap', checks, 'ScyllaDB has no JVM heap');
  if (f.process === null || f.process.heapBytes === null || f.memTotalKiB === null)
    return skip('heap', checks, f.process === null ? 'no Cassandra process found' : 'heap (-Xmx) or MemTotal not known');
  const ratio = f.process.heapBytes / (f.memTotalKiB * 1024);
  const sev = grade(PACK, ratio, 'config.jvm.heap-ram-ratio');
  return rule(
    'heap',
    checks,
    sev === null
      ? []
      : [
          {
            id: 'os.heap-vs-ram',
            severity: sev,
            title: `Heap ${(f.process.heapBytes / 1024 ** 3).toFixed(1)} GiB is ${(ratio * 100).toFixed(0)} % of the host's ${(f.memTotalKiB / 1024 / 1024).toFixed(1)} GiB`,
            evidence: [`${f.origin}: pid ${f.process.pid} -Xmx ${f.process.heapBytes} B; /proc/meminfo MemTotal ${f.memTotalKiB} kB`],
            recommendation: 'Off-heap structures and above all the page cache need the rest of the memory; keep the heap at or below about half of RAM.',
            knowledgeIds: ['config.jvm.heap-ram-ratio'],
            confidence: 'high',
          },
        ],
  );
}

/** "4096\t131072\t6291456" (/proc/sys/net/ipv4/tcp_rmem) → [4096, 131072, 6291456]; null otherwise. */
export function parseTriple(text: string | undefined): [number, number, number] | null {
  const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s*$/.exec(text ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

const MiB = 1024 * 1024;
const bytes = (n: number) => (n >= MiB && n % MiB === 0 ? `${n / MiB} MiB` : n >= 1024 ? `${(n / 1024).toFixed(0)} KiB` : `${n} B`);

function keepalive(f: OsFacts): KindRuleOutcome {
  const ka = 'TCP keepalive time/interval/probes (firewall idle timeouts)';
  if (f.tcpKeepaliveTime === null && f.tcpKeepaliveIntvl === null && f.tcpKeepaliveProbes === null) {
    return skip('tcp-keepalive', ka, '/proc/sys/net/ipv4/tcp_keepalive_* not readable');
  }
  const want = { time: numberOf('os.tcp-keepalive'), intvl: numberOf('os.tcp-keepalive-intvl'), probes: numberOf('os.tcp-keepalive-probes') };
  const off: string[] = [];
  const ids: KnowledgeId[] = [];
  if (f.tcpKeepaliveTime !== null && f.tcpKeepaliveTime > want.time) {
    off.push(`tcp_keepalive_time ${f.tcpKeepaliveTime} s > ${want.time} s`);
    ids.push('os.tcp-keepalive');
  }
  if (f.tcpKeepaliveIntvl !== null && f.tcpKeepaliveIntvl > want.intvl) {
    off.push(`tcp_keepalive_intvl ${f.tcpKeepaliveIntvl} s > ${want.intvl} s`);
    ids.push('os.tcp-keepalive-intvl');
  }
  if (f.tcpKeepaliveProbes !== null && f.tcpKeepaliveProbes > want.probes) {
    off.push(`tcp_keepalive_probes ${f.tcpKeepaliveProbes} > ${want.probes}`);
    ids.push('os.tcp-keepalive-probes');
  }
  // Time to declare a silent peer dead = idle time + probes × interval.
  const dead =
    f.tcpKeepaliveTime !== null && f.tcpKeepaliveIntvl !== null && f.tcpKeepaliveProbes !== null
      ? f.tcpKeepaliveTime + f.tcpKeepaliveIntvl * f.tcpKeepaliveProbes
      : null;
  return rule(
    'tcp-keepalive',
    ka,
    off.length === 0
      ? []
      : [
          {
            id: 'os.tcp-keepalive',
            severity: 'info',
            title: `TCP keepalive is looser than recommended: ${off.join(', ')}${dead !== null ? ` (a dead peer is noticed after ${dead} s instead of ${want.time + want.intvl * want.probes} s)` : ''}`,
            evidence: [
              `${f.origin}: /proc/sys/net/ipv4/tcp_keepalive_time ${f.tcpKeepaliveTime ?? '?'}, tcp_keepalive_intvl ${f.tcpKeepaliveIntvl ?? '?'}, tcp_keepalive_probes ${f.tcpKeepaliveProbes ?? '?'}`,
            ],
            recommendation: `If a firewall or NAT sits between nodes or clients, idle connections can be cut silently. sysctl -w net.ipv4.tcp_keepalive_time=${want.time} net.ipv4.tcp_keepalive_intvl=${want.intvl} net.ipv4.tcp_keepalive_probes=${want.probes}, persisted in /etc/sysctl.d/.`,
            knowledgeIds: ids,
            confidence: 'medium',
          },
        ],
  );
}

function tcpBuffers(f: OsFacts): KindRuleOutcome {
  const checks = 'socket buffer ceilings (net.core.rmem_max/wmem_max, net.ipv4.tcp_rmem/tcp_wmem max)';
  if (f.product === 'scylla') return skip('tcp-buffers', checks, "the 16 MiB buffer recommendation is DataStax's for Cassandra/DSE; ScyllaDB publishes none");
  if (f.rmemMax === null && f.wmemMax === null && f.tcpRmem === null && f.tcpWmem === null)
    return skip('tcp-buffers', checks, '/proc/sys/net/core/*mem_max and /proc/sys/net/ipv4/tcp_*mem not readable');
  const core = numberOf('os.net.core-buffer-max');
  const tcp = numberOf('os.net.tcp-buffer-max');
  const low: string[] = [];
  const ids = new Set<KnowledgeId>();
  const need = (name: string, v: number | null, want: number, id: KnowledgeId) => {
    if (v !== null && v < want) {
      low.push(`${name} ${v} (${bytes(v)}) < ${want}`);
      ids.add(id);
    }
  };
  need('net.core.rmem_max', f.rmemMax, core, 'os.net.core-buffer-max');
  need('net.core.wmem_max', f.wmemMax, core, 'os.net.core-buffer-max');
  need('net.ipv4.tcp_rmem max', f.tcpRmem?.[2] ?? null, tcp, 'os.net.tcp-buffer-max');
  need('net.ipv4.tcp_wmem max', f.tcpWmem?.[2] ?? null, tcp, 'os.net.tcp-buffer-max');
  return rule(
    'tcp-buffers',
    checks,
    low.length === 0
      ? []
      : [
          {
            id: 'os.tcp-buffers-small',
            severity: 'info',
            title: `Socket buffer ceilings below DataStax's 16 MiB${forProduct(f)}: ${low.join(', ')}`,
            evidence: [
              `${f.origin}: net.core.rmem_max ${f.rmemMax ?? '?'}, net.core.wmem_max ${f.wmemMax ?? '?'}, net.ipv4.tcp_rmem "${f.tcpRmem?.join(' ') ?? '?'}", net.ipv4.tcp_wmem "${f.tcpWmem?.join(' ') ?? '?'}"`,
            ],
            recommendation: `One connection can carry at most buffer ÷ round-trip time, which limits streaming, repair and cross-DC replication on fast or distant links. sysctl -w net.core.rmem_max=${core} net.core.wmem_max=${core} net.ipv4.tcp_rmem="4096 87380 ${tcp}" net.ipv4.tcp_wmem="4096 65536 ${tcp}", persisted in /etc/sysctl.d/.`,
            knowledgeIds: [...ids],
            confidence: 'medium',
          },
        ],
  );
}

function listenBacklog(f: OsFacts): KindRuleOutcome {
  const checks = 'listen and SYN backlogs (net.core.somaxconn, net.ipv4.tcp_max_syn_backlog)';
  if (f.product !== 'scylla') return skip('listen-backlog', checks, 'only ScyllaDB (perftune.py) gives a value; no Cassandra/DataStax source does');
  if (f.somaxconn === null && f.tcpMaxSynBacklog === null)
    return skip('listen-backlog', checks, '/proc/sys/net/core/somaxconn and /proc/sys/net/ipv4/tcp_max_syn_backlog not readable');
  const want = numberOf('os.net.listen-backlog.scylla');
  const low: [string, number][] = [];
  if (f.somaxconn !== null && f.somaxconn < want) low.push([`net.core.somaxconn`, f.somaxconn]);
  if (f.tcpMaxSynBacklog !== null && f.tcpMaxSynBacklog < want) low.push([`net.ipv4.tcp_max_syn_backlog`, f.tcpMaxSynBacklog]);
  return rule(
    'listen-backlog',
    checks,
    low.length === 0
      ? []
      : [
          {
            id: 'os.listen-backlog-low',
            severity: 'info',
            title: `${low.map(([k, v]) => `${k} ${v}`).join(', ')} below the ${want} that ScyllaDB's perftune.py sets`,
            evidence: [`${f.origin}: /proc/sys/net/core/somaxconn ${f.somaxconn ?? '?'}, /proc/sys/net/ipv4/tcp_max_syn_backlog ${f.tcpMaxSynBacklog ?? '?'}`],
            recommendation: `Bursts of reconnecting clients overflow a short accept queue and show up as connect timeouts. Run scylla_setup's network tuning (perftune.py) or sysctl -w net.core.somaxconn=${want} net.ipv4.tcp_max_syn_backlog=${want}, persisted in /etc/sysctl.d/.`,
            knowledgeIds: ['os.net.listen-backlog.scylla'],
            confidence: 'medium',
          },
        ],
  );
}

function network(f: OsFacts): KindRuleOutcome[] {
  const ts = 'clock synchronisation (NTP/chrony)';
  return [
    keepalive(f),
    tcpBuffers(f),
    listenBacklog(f),
    f.timeSynced === null
      ? skip('time-sync', ts, 'neither timedatectl nor chronyc answered (container without systemd, or not installed)')
      : rule(
          'time-sync',
          ts,
          f.timeSynced.synced
            ? []
            : [
                {
                  id: 'os.clock-unsynced',
                  severity: 'warning',
                  title: 'The system clock is not synchronised',
                  evidence: [`${f.origin}: ${f.timeSynced.source}`],
                  recommendation:
                    'Write timestamps decide which value wins: run chrony or systemd-timesyncd against the same NTP sources on every node and client host, and check `chronyc tracking`.',
                  knowledgeIds: ['os.time-sync'],
                  confidence: 'high',
                },
              ],
        ),
  ];
}

export function osRules(f: OsFacts): KindRuleOutcome[] {
  return [swap(f), ...memory(f), limits(f), ...cpuAndClock(f), ...network(f), heap(f)];
}
