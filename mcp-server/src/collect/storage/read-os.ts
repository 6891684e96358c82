/**
 * Reads the OS settings audit_os checks, through any Target with a root prefix (like read-host.ts):
 * /proc/meminfo, /proc/swaps, /proc/sys/vm/*, /proc/sys/fs/aio-max-nr, THP, cpufreq governors,
 * clocksource, NUMA nodes, and the database process's /proc/PID/limits and cmdline (found with pgrep
 * on a live host; on a recorded tree from <root>/.commands/pgrep….txt). Never throws for a missing file.
 */
import { emptyOsFacts, heapFromCmdline, parseProcLimits, parseTriple, selected, type OsFacts } from '../../core/rules/os.js';
import type { Target } from '../target.js';
import { HostFiles } from './read-host.js';

export interface ReadOsOptions {
  root?: string;
  product?: 'cassandra' | 'scylla' | null;
  /** PID of the database process when known; otherwise found with pgrep. */
  pid?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const VALUES = [
  '/proc/sys/vm/swappiness',
  '/proc/sys/vm/zone_reclaim_mode',
  '/proc/sys/vm/max_map_count',
  '/proc/sys/fs/aio-max-nr',
  '/sys/kernel/mm/transparent_hugepage/enabled',
  '/sys/kernel/mm/transparent_hugepage/defrag',
  '/sys/devices/system/clocksource/clocksource0/current_clocksource',
  '/sys/devices/system/clocksource/clocksource0/available_clocksource',
  '/sys/devices/system/cpu/online',
  '/proc/sys/net/ipv4/tcp_keepalive_time',
  '/proc/sys/net/ipv4/tcp_keepalive_intvl',
  '/proc/sys/net/ipv4/tcp_keepalive_probes',
  '/proc/sys/net/core/rmem_max',
  '/proc/sys/net/core/wmem_max',
  '/proc/sys/net/ipv4/tcp_rmem',
  '/proc/sys/net/ipv4/tcp_wmem',
  '/proc/sys/net/core/somaxconn',
  '/proc/sys/net/ipv4/tcp_max_syn_backlog',
];

/** "0-3,8-11" → 8. */
function countCpus(list: string | undefined): number | null {
  if (!list) return null;
  let n = 0;
  for (const part of list.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return null;
    n += m[2] ? Number(m[2]) - Number(m[1]) + 1 : 1;
  }
  return n;
}

export async function readOs(target: Target, opts: ReadOsOptions = {}): Promise<OsFacts> {
  const io = new HostFiles(target, opts.root ?? '/', opts.timeoutMs ?? 20_000, opts.signal);
  const facts = emptyOsFacts(`host ${target.describe()}${io.recorded ? ` (recorded tree ${io.root})` : ''}`, opts.product ?? null);
  const v = await io.values(VALUES);
  if (v.error) facts.unread.push({ what: '/proc/sys and /sys values', why: v.error });
  const num = (p: string) => (v.values[p] !== undefined && /^\s*\d+\s*$/.test(v.values[p]) ? Number(v.values[p]) : null);
  facts.swappiness = num('/proc/sys/vm/swappiness');
  facts.zoneReclaimMode = num('/proc/sys/vm/zone_reclaim_mode');
  facts.maxMapCount = num('/proc/sys/vm/max_map_count');
  facts.aioMaxNr = num('/proc/sys/fs/aio-max-nr');
  facts.thpEnabled = selected(v.values['/sys/kernel/mm/transparent_hugepage/enabled']);
  facts.thpDefrag = selected(v.values['/sys/kernel/mm/transparent_hugepage/defrag']);
  facts.clocksource = v.values['/sys/devices/system/clocksource/clocksource0/current_clocksource']?.trim() ?? null;
  facts.availableClocksources = (v.values['/sys/devices/system/clocksource/clocksource0/available_clocksource'] ?? '')
    .trim()
    .split(/\s+/)
    .filter((x) => x !== '');
  facts.cpus = countCpus(v.values['/sys/devices/system/cpu/online']);
  facts.tcpKeepaliveTime = num('/proc/sys/net/ipv4/tcp_keepalive_time');
  facts.tcpKeepaliveIntvl = num('/proc/sys/net/ipv4/tcp_keepalive_intvl');
  facts.tcpKeepaliveProbes = num('/proc/sys/net/ipv4/tcp_keepalive_probes');
  facts.rmemMax = num('/proc/sys/net/core/rmem_max');
  facts.wmemMax = num('/proc/sys/net/core/wmem_max');
  facts.tcpRmem = parseTriple(v.values['/proc/sys/net/ipv4/tcp_rmem']);
  facts.tcpWmem = parseTriple(v.values['/proc/sys/net/ipv4/tcp_wmem']);
  facts.somaxconn = num('/proc/sys/net/core/somaxconn');
  facts.tcpMaxSynBacklog = num('/proc/sys/net/ipv4/tcp_max_syn_backlog');
  for (const p of VALUES) if (v.values[p] === undefined && !/zone_reclaim|aio/.test(p)) facts.unread.push({ what: p, why: 'not readable or absent' });

  const mem = await io.cat('/proc/meminfo');
  if (mem.ok) {
    const kb = (k: string) => {
      const m = new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(mem.text);
      return m ? Number(m[1]) : null;
    };
    facts.memTotalKiB = kb('MemTotal');
    facts.swapTotalKiB = kb('SwapTotal');
  } else facts.unread.push({ what: '/proc/meminfo', why: mem.why });
  const swaps = await io.cat('/proc/swaps');
  if (swaps.ok)
    facts.swapDevices = swaps.text
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s+/)[0]!)
      .filter((x) => x !== '');

  const cpuTree = await io.walk('/sys/devices/system/cpu', 1);
  const cpus = cpuTree.ok ? cpuTree.paths.filter((p) => /\/cpu\d+$/.test(p)) : [];
  if (cpus.length > 0) {
    const g = await io.values(cpus.map((c) => `${c}/cpufreq/scaling_governor`));
    const counts: Record<string, number> = {};
    for (const val of Object.values(g.values)) counts[val.trim()] = (counts[val.trim()] ?? 0) + 1;
    facts.governors = Object.keys(counts).length > 0 ? counts : null;
  }
  const nodes = await io.walk('/sys/devices/system/node', 1);
  if (nodes.ok) facts.numaNodes = nodes.paths.filter((p) => /\/node\d+$/.test(p)).length || null;
  else facts.unread.push({ what: '/sys/devices/system/node', why: nodes.why });

  const td = await io.tool(['timedatectl', 'show', '-p', 'NTPSynchronized', '--value']);
  if (td.ok && /^(yes|no)\s*$/.test(td.text.trim()))
    facts.timeSynced = { synced: td.text.trim() === 'yes', source: `timedatectl NTPSynchronized=${td.text.trim()}` };
  else {
    const ch = await io.tool(['chronyc', 'tracking']);
    const leap = ch.ok ? /^Leap status\s*:\s*(.+)$/m.exec(ch.text) : null;
    if (leap) facts.timeSynced = { synced: /Normal/i.test(leap[1]!), source: `chronyc tracking Leap status: ${leap[1]!.trim()}` };
    else
      facts.unread.push({
        what: 'clock synchronisation',
        why: `timedatectl: ${td.ok ? 'unexpected output' : td.why}; chronyc: ${ch.ok ? 'no Leap status' : ch.why}`,
      });
  }

  // The database process: given, else pgrep for the Cassandra main class or the scylla binary.
  let pid = opts.pid ?? null;
  if (pid === null) {
    // "[o]rg…" matches the class name but not itself: over ssh/kubectl the remote shell's own command line
    // carries the pattern, and plain "org.apache…" found that shell instead of Cassandra.
    const argv = facts.product === 'scylla' ? ['pgrep', '-o', '-x', 'scylla'] : ['pgrep', '-o', '-f', '[o]rg.apache.cassandra.service.CassandraDaemon'];
    const r = await io.tool(argv);
    if (r.ok && /^\d+/.test(r.text.trim())) pid = Number(r.text.trim().split('\n')[0]);
    else facts.unread.push({ what: `${facts.product ?? 'cassandra'} process`, why: r.ok ? 'not running' : r.why.replace(/^exit code 1$/, 'not running') });
  }
  if (pid !== null) {
    const lim = await io.cat(`/proc/${pid}/limits`);
    const cmd = await io.cat(`/proc/${pid}/cmdline`);
    const argv = cmd.ok ? cmd.text.split('\0').filter((a) => a !== '') : [];
    if (lim.ok && opts.pid === undefined && argv.length > 0 && !argv.some((a) => /CassandraDaemon|scylla$/.test(a))) {
      facts.unread.push({ what: `${facts.product ?? 'cassandra'} process`, why: `pid ${pid} is not the database (${argv.slice(0, 3).join(' ')})` });
    } else if (lim.ok) {
      facts.process = { pid, command: argv[0]?.split('/').pop() ?? `pid ${pid}`, heapBytes: heapFromCmdline(argv), limits: parseProcLimits(lim.text) };
    } else facts.unread.push({ what: `/proc/${pid}/limits`, why: lim.why });
  }
  return facts;
}
