/**
 * Reads the block I/O caps a cgroup puts on each Cassandra process of one host, through any Target (local, ssh,
 * kubectl, docker): pgrep for the daemons, then /proc/PID/{cgroup,cmdline,mountinfo} and the throttle files of the
 * process's cgroups (core/parse/host/io-throttle.ts). Every command is an argv of fixed tools (pgrep, grep, cat);
 * what the host says only ever becomes a path under /proc/<digits> or /sys/fs/cgroup (checked plain), never an
 * option. Read-only. Never throws: a host that cannot be read gives the reason.
 */
import {
  cmdlineDirs,
  effectiveLimits,
  isUnder,
  parseCmdline,
  parseProcCgroup,
  parseThrottleGrep,
  throttleFiles,
  type IoLimit,
} from '../core/parse/host/io-throttle.js';
import { cpuThrottleFiles, cpuThrottleFrom, type CpuThrottle } from '../core/parse/host/cpu-throttle.js';
import { mountFor, parseMountinfo } from '../core/parse/storage/host.js';
import type { NodeIoThrottle } from '../core/rules/io-throttle.js';
import type { RunResult, Target } from './target.js';

const DAEMON = 'org.apache.cassandra.service.CassandraDaemon';
const MAX_PIDS = 32;

export interface IoThrottleRead {
  target: string;
  nodes: NodeIoThrottle[];
  error?: string;
}

function why(r: RunResult): string {
  if (r.spawnError) return /ENOENT/.test(r.spawnError) ? `${r.argv[0]} is not installed on the host` : r.spawnError;
  if (r.timedOut) return `${r.argv[0]} timed out`;
  if (r.cancelled) return 'cancelled';
  return (r.stderr.trim().split('\n')[0] ?? '').slice(0, 200) || `exit code ${String(r.exitCode)}`;
}

/** "file:content" lines of `grep -a -s -H ''`, grouped by file (the longest matching name wins). */
function byFile(text: string, files: readonly string[]): Record<string, string> {
  const sorted = [...files].sort((a, b) => b.length - a.length);
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const f = sorted.find((x) => line.startsWith(`${x}:`));
    if (f !== undefined) out[f] = (out[f] === undefined ? '' : `${out[f]}\n`) + line.slice(f.length + 1);
  }
  return out;
}

/**
 * `nodes`: each node on this host with its data directories (from its settings). A node is matched to a daemon
 * whose command line names a directory holding its data (-Dcassandra.storagedir), or, with one node and one
 * daemon on the host, to that daemon.
 */
export async function readIoThrottle(
  target: Target,
  nodes: { node: string; dataDirs: string[] }[],
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<IoThrottleRead> {
  const run = (argv: string[]) =>
    target.run(argv, { timeoutMs: opts.timeoutMs ?? 15_000, maxBytes: 4 * 1024 * 1024, ...(opts.signal ? { signal: opts.signal } : {}) });
  const desc = target.describe();
  try {
    const pg = await run(['pgrep', '-f', DAEMON]);
    // pgrep exits 1 when nothing matches: no daemon here is an answer, not a failure.
    if (pg.exitCode !== 0 && pg.exitCode !== 1) return { target: desc, nodes: [], error: `${desc}: pgrep: ${why(pg)}` };
    const pids = pg.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^\d{1,9}$/.test(l))
      .slice(0, MAX_PIDS);
    if (pids.length === 0) return { target: desc, nodes: [], error: `${desc}: no Cassandra daemon process found (pgrep -f ${DAEMON})` };
    const procFiles = pids.flatMap((p) => [`/proc/${p}/cgroup`, `/proc/${p}/cmdline`]);
    const pr = await run(['grep', '-a', '-s', '-H', '', ...procFiles]);
    const proc = byFile(pr.stdout, procFiles);
    const daemons = pids
      .filter((p) => proc[`/proc/${p}/cgroup`] !== undefined)
      .map((p) => ({ pid: p, dirs: cmdlineDirs(parseCmdline(proc[`/proc/${p}/cmdline`] ?? '')), cgroups: parseProcCgroup(proc[`/proc/${p}/cgroup`]!) }));
    const out: NodeIoThrottle[] = [];
    for (const n of nodes) {
      const d =
        daemons.find((x) => x.dirs.some((dir) => n.dataDirs.some((p) => isUnder(p, dir)))) ??
        (daemons.length === 1 && nodes.length === 1 ? daemons[0] : undefined);
      if (!d) {
        out.push({
          node: n.node,
          pid: null,
          dataDirs: n.dataDirs.map((path) => ({ path, majMin: null })),
          limits: [],
          error: 'no daemon process on the host matched this node',
        });
        continue;
      }
      const mi = await run(['cat', `/proc/${d.pid}/mountinfo`]);
      const mounts = mi.exitCode === 0 ? parseMountinfo(mi.stdout) : [];
      const files = throttleFiles(d.cgroups);
      const cpuFiles = cpuThrottleFiles(d.cgroups);
      let limits: IoLimit[] = [];
      let cpu: CpuThrottle | undefined;
      let error: string | undefined;
      if (files.length) {
        // grep exits 2 when some files are missing (a v1 host has no io.max): the others are still printed.
        const tr = await run(['grep', '-s', '-H', '', ...files]);
        if (tr.spawnError || tr.timedOut || tr.cancelled) error = why(tr);
        limits = effectiveLimits(parseThrottleGrep(tr.stdout, files));
      }
      if (cpuFiles.length) {
        const cr = await run(['grep', '-s', '-H', '', ...cpuFiles]);
        if (!cr.spawnError && !cr.timedOut && !cr.cancelled) cpu = cpuThrottleFrom(cr.stdout, d.cgroups);
      }
      out.push({
        node: n.node,
        pid: Number(d.pid),
        dataDirs: n.dataDirs.map((path) => ({ path, majMin: mountFor(mounts, path)?.majMin ?? null })),
        limits,
        ...(cpu ? { cpu } : {}),
        ...(mi.exitCode !== 0 ? { error: `/proc/${d.pid}/mountinfo: ${why(mi)}` } : error ? { error } : {}),
      });
    }
    return { target: desc, nodes: out };
  } catch (e) {
    return { target: desc, nodes: [], error: `${desc}: ${e instanceof Error ? e.message : String(e)}` };
  }
}
