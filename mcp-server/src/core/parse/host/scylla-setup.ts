import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { parseHexMask, type PerftuneYaml } from './perftune-object.js';

// Kept importable from here: the readers of /proc/irq masks used it from this module first. The YAML readers
// (perftune.yaml, the setup files kind) live in scylla-setup-files.ts, so the ScyllaDB host rules, which the logs
// verb loads through the kind registry, do not load the YAML parser.
export { parseHexMask };

/**
 * ScyllaDB host setup as text: CPU lists and masks, /etc/scylla.d/*.conf and /etc/default/scylla-server
 * (KEY=VALUE), perftune.yaml, the scylla command line, /proc/interrupts and Seastar's AIO start-up messages.
 * Two pasteable kinds: `host.scylla-setup` (the config files, `cat /etc/scylla.d/*`) and `host.interrupts`,
 * plus `host.seastar-aio` (the AIO lines of a start-up log). Every parser here is total. PURE.
 */
export const SCYLLA_SETUP_KIND = 'host.scylla-setup';
export const INTERRUPTS_KIND = 'host.interrupts';
export const SEASTAR_AIO_KIND = 'host.seastar-aio';

const MAX_CPU = 8191;

/** cpuset(7) list "0-3,8-11" → [0,1,2,3,8,…,11]; null when it is not one. */
export function parseCpuList(text: string | undefined | null): number[] | null {
  const s = (text ?? '').trim();
  if (s === '') return null;
  const out = new Set<number>();
  for (const part of s.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return null;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a || b > MAX_CPU) return null;
    for (let c = a; c <= b; c++) out.add(c);
  }
  return [...out].sort((x, y) => x - y);
}

/** [0,1,2,3,8] → "0-3,8". */
export function cpuListText(cpus: readonly number[]): string {
  const s = [...new Set(cpus)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < s.length; i++) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j]! + 1) j++;
    parts.push(j > i ? `${s[i]}-${s[j]}` : String(s[i]));
    i = j;
  }
  return parts.join(',');
}

/** Shell-style KEY=VALUE lines (sysconfig, /etc/scylla.d/*.conf); comments and other lines ignored, quotes removed. */
export function parseSysconfig(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const m = /^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)=(.*)$/.exec(raw);
    if (!m) continue;
    let v = m[2]!.trim();
    const q = /^"(.*)"$|^'(.*)'$/.exec(v);
    if (q) v = q[1] ?? q[2] ?? '';
    else v = v.replace(/\s+#.*$/, '');
    out[m[1]!] = v;
  }
  return out;
}

/** Whitespace split that keeps "quoted words" together (enough for SCYLLA_ARGS and CPUSET). */
export function splitArgs(s: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

export interface ScyllaArgs {
  smp: number | null;
  cpuset: number[] | null;
  cpusetText: string | null;
  overprovisioned: boolean | null;
  developerMode: boolean | null;
  ioPropertiesFile: string | null;
  /** --max-io-requests / --num-io-queues: the pre-io_properties way of describing the disk. */
  legacyIo: boolean;
  maxNetworkingIocbs: number | null;
  reserveIocbs: number | null;
}

const truthy = (v: string | undefined): boolean => v === undefined || /^(1|true|yes|on)$/i.test(v);

/** The options of a scylla command line (argv or a SCYLLA_ARGS/CPUSET string split with splitArgs). */
export function parseScyllaArgs(argv: readonly string[]): ScyllaArgs {
  const a: ScyllaArgs = {
    smp: null,
    cpuset: null,
    cpusetText: null,
    overprovisioned: null,
    developerMode: null,
    ioPropertiesFile: null,
    legacyIo: false,
    maxNetworkingIocbs: null,
    reserveIocbs: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/.exec(argv[i]!);
    if (!m) continue;
    const name = m[1]!;
    // A value is "=x" or the next word when it is not an option itself.
    const next = argv[i + 1];
    const value = (): string | undefined => {
      if (m[2] !== undefined) return m[2];
      if (next !== undefined && !next.startsWith('--')) {
        i++;
        return next;
      }
      return undefined;
    };
    const num = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : null);
    // A flag ("--overprovisioned") may be followed by an explicit 0/1: take that word only when it is one.
    const flagValue = (): string | undefined => {
      if (m[2] !== undefined) return m[2];
      if (next !== undefined && /^(0|1|true|false)$/.test(next)) {
        i++;
        return next;
      }
      return undefined;
    };
    if (name === 'smp') a.smp = num(value());
    else if (name === 'cpuset') {
      const v = value() ?? null;
      a.cpusetText = v;
      a.cpuset = parseCpuList(v);
    } else if (name === 'overprovisioned') a.overprovisioned = truthy(flagValue());
    else if (name === 'developer-mode') a.developerMode = truthy(flagValue());
    else if (name === 'io-properties-file') a.ioPropertiesFile = value() ?? null;
    else if (name === 'max-io-requests' || name === 'num-io-queues') {
      value();
      a.legacyIo = true;
    } else if (name === 'max-networking-io-control-blocks') a.maxNetworkingIocbs = num(value());
    else if (name === 'reserve-io-control-blocks') a.reserveIocbs = num(value());
  }
  return a;
}

export interface ScyllaSetup {
  /** KEY=VALUE settings found (CPUSET, SEASTAR_IO, DEV_MODE, MEM_CONF, SET_NIC_AND_DISKS, IFNAME, SCYLLA_ARGS …). */
  env: Record<string, string>;
  perftune: PerftuneYaml | null;
}

export interface IrqLine {
  irq: string;
  counts: number[];
  /** The controller columns ("PCI-MSI-edge", "xen-pirq-msi-x"). */
  chip: string;
  /** The last word: the device queue ("nvme0q3", "eth0-TxRx-2"). */
  name: string;
}

export interface Interrupts {
  /** CPUs named by the header line; null when the paste has no header (then the widest row's count). */
  headerCpus: number | null;
  cpus: number;
  lines: IrqLine[];
}

const IRQ_ROW = /^\s*([0-9A-Za-z]+):((?:\s+\d+)+)(?:\s+(.*))?$/;

function parseInterruptsText(text: string): Parsed<Interrupts> {
  let headerCpus: number | null = null;
  const lines: IrqLine[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '').replace(/^\s*(?:\[stdout\]|>)\s?/, '');
    if (/^\s*CPU0(?:\s+CPU\d+)*\s*$/.test(line)) {
      headerCpus = line.trim().split(/\s+/).length;
      continue;
    }
    const m = IRQ_ROW.exec(line);
    if (!m) continue;
    const counts = m[2]!.trim().split(/\s+/).map(Number);
    const rest = (m[3] ?? '').trim();
    const words = rest === '' ? [] : rest.split(/\s+/);
    lines.push({ irq: m[1]!, counts, chip: words.slice(0, -1).join(' '), name: words.at(-1) ?? '' });
  }
  const numbered = lines.filter((l) => /^\d+$/.test(l.irq));
  if (numbered.length === 0) return unrecognized(INTERRUPTS_KIND, 'no /proc/interrupts rows ("  46:   10176431   0 …   PCI-MSI-edge   nvme0q1") found');
  const cpus = headerCpus ?? Math.max(...numbered.map((l) => l.counts.length));
  return parsedOk(INTERRUPTS_KIND, { headerCpus, cpus, lines }, headerCpus === null ? ['no "CPU0 CPU1 …" header: CPU count taken from the widest row'] : []);
}

/** `cat /proc/interrupts`, whole or grepped (`| grep eth`), with or without its CPU header. */
export const parseInterrupts = total(INTERRUPTS_KIND, parseInterruptsText);

/** The device an IRQ serves, for NIC and NVMe queues; null for anything else (timers, IPIs, admin queues). */
export function deviceOfIrq(name: string): { device: string; kind: 'nic' | 'nvme'; queue: number } | null {
  const nvme = /^(nvme\d+)q(\d+)$/.exec(name);
  if (nvme) return Number(nvme[2]) === 0 ? null : { device: nvme[1]!, kind: 'nvme', queue: Number(nvme[2]) };
  const nic = /^((?:eth|ens|enp|eno|enx|em|bond|ib)[0-9a-z.]*)-(?:TxRx|Tx-Rx|rx|tx|txrx|rx-tx|fp)-(\d+)$/i.exec(name);
  if (nic) return { device: nic[1]!, kind: 'nic', queue: Number(nic[2]) };
  const virtio = /^(virtio\d+)-(?:input|output)\.(\d+)$/.exec(name);
  if (virtio) return { device: virtio[1]!, kind: 'nic', queue: Number(virtio[2]) };
  const mlx = /^(mlx\d+_comp)(\d+)(?:@.*)?$/.exec(name);
  if (mlx) return { device: mlx[1]!, kind: 'nic', queue: Number(mlx[2]) };
  return null;
}

export interface SeastarAio {
  /** "Set /proc/sys/fs/aio-max-nr to at least MIN (minimum) or REC (recommended …)": the node did not start. */
  minimum: number | null;
  recommended: number | null;
  /** "For optimal network performance, set … to at least N": started with fewer networking blocks. */
  optimal: number | null;
  /** Older Seastar: "available:A requested:R" and "adjusted from X to Y". */
  available: number | null;
  requested: number | null;
  adjustedFrom: number | null;
  adjustedTo: number | null;
  /** Older still: "Could not setup Async I/O" (no numbers). */
  setupFailed: boolean;
  /** "Your system does not have enough AIO capacity for optimal network performance": started, networking reduced. */
  capacityWarning: boolean;
  /** The usage table's "all N cpus" and its per-cpu network row, when shown. */
  shards: number | null;
  networkPerShard: number | null;
  /** aio-max-nr - aio-nr = M - U = A. */
  aioMaxNr: number | null;
  aioNr: number | null;
  evidence: string[];
}

const AIO_MARK = /aio-max-nr|AIO slots|Async I\/O|AIO capacity|max-networking-io-control-blocks adjusted/i;

function parseAio(text: string): Parsed<SeastarAio> {
  const all = text.split('\n');
  const marked = all.filter((l) => AIO_MARK.test(l));
  if (marked.length === 0) return unrecognized(SEASTAR_AIO_KIND, 'no Seastar AIO message (aio-max-nr, AIO slots, Could not setup Async I/O) found');
  // A whole start-up log is for the log reader; this kind is for the few lines an operator pastes.
  if (all.filter((l) => l.trim() !== '').length > 80) return unrecognized(SEASTAR_AIO_KIND, 'a longer log: read it as logs');
  const n = (re: RegExp): number[] | null => {
    for (const l of all) {
      const m = re.exec(l);
      if (m) return m.slice(1).map(Number);
    }
    return null;
  };
  const minRec = n(/aio-max-nr to at least (\d+) \(minimum\) or (\d+) \(recommended/);
  const optimal = n(/For optimal network performance, set \/proc\/sys\/fs\/aio-max-nr to at least (\d+)/);
  const availReq = n(/available:\s*(\d+)\s+requested:\s*(\d+)/);
  const adjusted = n(/max-networking-io-control-blocks adjusted from (\d+) to (\d+)/);
  const shards = n(/purpose\s+per cpu\s+all (\d+) cpus?/);
  const network = n(/\bnetwork[ \t]+(\d+)[ \t]+\d+[ \t]*$/); // unanchored: a "^\S*.*?" prefix was quadratic on a long line
  const avail = n(/aio-max-nr - aio-nr = (\d+) - (\d+) =/);
  return parsedOk(SEASTAR_AIO_KIND, {
    minimum: minRec?.[0] ?? null,
    recommended: minRec?.[1] ?? null,
    optimal: optimal?.[0] ?? null,
    available: availReq?.[0] ?? null,
    requested: availReq?.[1] ?? null,
    adjustedFrom: adjusted?.[0] ?? null,
    adjustedTo: adjusted?.[1] ?? null,
    setupFailed: all.some((l) => /Could not setup Async I\/O/.test(l)),
    capacityWarning: all.some((l) => /not have enough AIO capacity/.test(l)),
    shards: shards?.[0] ?? null,
    networkPerShard: network?.[0] ?? null,
    aioMaxNr: avail?.[0] ?? null,
    aioNr: avail?.[1] ?? null,
    evidence: marked.map((l) => l.trim().slice(0, 300)).slice(0, 4),
  });
}

/** Seastar's start-up messages about fs.aio-max-nr, from any Seastar release since 2020. */
export const parseSeastarAio = total(SEASTAR_AIO_KIND, parseAio);

export const ETHTOOL_STATS_KIND = 'host.ethtool-stats';

/** The ENA "packets shaped" counters (ena_admin_eni_stats), by name. */
export const ENA_ALLOWANCES = [
  'bw_in_allowance_exceeded',
  'bw_out_allowance_exceeded',
  'pps_allowance_exceeded',
  'conntrack_allowance_exceeded',
  'linklocal_allowance_exceeded',
] as const;

export interface EthtoolStats {
  /** The interface when the paste shows the command ("ethtool -S ens34"). */
  nic: string | null;
  counters: Record<string, number>;
}

function parseEthtool(text: string): Parsed<EthtoolStats> {
  const counters: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Za-z][\w.\-[\]]*):\s+(\d+)\s*$/.exec(line);
    if (m) counters[m[1]!] = Number(m[2]);
  }
  if (!/^\s*NIC statistics:/m.test(text) || Object.keys(counters).length === 0) {
    return unrecognized(ETHTOOL_STATS_KIND, 'no `ethtool -S` output ("NIC statistics:" then "name: count" lines) found');
  }
  const nic = /ethtool\s+-S\s+([\w.-]+)/.exec(text)?.[1] ?? null;
  return parsedOk(ETHTOOL_STATS_KIND, { nic, counters });
}

/** `ethtool -S <nic>`: driver counters; the rules read ENA's allowance counters. */
export const parseEthtoolStats = total(ETHTOOL_STATS_KIND, parseEthtool);
