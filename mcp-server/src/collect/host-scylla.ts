/**
 * Reads what the ScyllaDB host checks need through any Target (local, ssh, kubectl, docker) with a root prefix
 * for recorded trees, like read-os.ts: the online CPUs, MemTotal, fs.aio-max-nr/aio-nr/nr_open/file-max,
 * /etc/scylla.d/*.conf and perftune.yaml, /etc/default|sysconfig/scylla-server, /proc/interrupts with each
 * NIC/NVMe IRQ's smp_affinity_list, the scylla process's command line and limits, and the data directory's
 * filesystem size (df). Paths are constants or IRQ numbers checked to be digits; nothing read becomes an
 * option. Never throws for a missing file: what could not be read is listed in `unread`.
 */
import { parseCpuList, parseInterrupts, parseScyllaArgs, parseSysconfig, deviceOfIrq } from '../core/parse/host/scylla-setup.js';
import { parsePerftuneYaml } from '../core/parse/host/scylla-setup-files.js';
import { parseProcLimits } from '../core/rules/os.js';
import { emptyScyllaHostFacts, type ScyllaHostFacts } from '../core/rules/scylla-host.js';
import type { Target } from './target.js';
import { HostFiles } from './storage/read-host.js';

export interface ReadScyllaHostOptions {
  root?: string;
  /** PID of scylla when known; otherwise found with pgrep. */
  pid?: number;
  /** The data directory to measure with df (default /var/lib/scylla, the packages' default). */
  dataDir?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const SYSCTLS = ['/sys/devices/system/cpu/online', '/proc/sys/fs/aio-max-nr', '/proc/sys/fs/aio-nr', '/proc/sys/fs/nr_open', '/proc/sys/fs/file-max'];
const SERVER_FILES = ['/etc/default/scylla-server', '/etc/sysconfig/scylla-server'];
const DEFAULT_DATA_DIR = '/var/lib/scylla';

export async function readScyllaHost(target: Target, opts: ReadScyllaHostOptions = {}): Promise<ScyllaHostFacts> {
  const io = new HostFiles(target, opts.root ?? '/', opts.timeoutMs ?? 20_000, opts.signal);
  const f = emptyScyllaHostFacts(`host ${target.describe()}${io.recorded ? ` (recorded tree ${io.root})` : ''}`);
  const v = await io.values(SYSCTLS);
  if (v.error) f.unread.push({ what: '/proc/sys/fs and CPU values', why: v.error });
  const num = (p: string) => (v.values[p] !== undefined && /^\s*\d+\s*$/.test(v.values[p]) ? Number(v.values[p]) : null);
  f.onlineCpus = parseCpuList(v.values['/sys/devices/system/cpu/online']);
  f.aioMaxNr = num('/proc/sys/fs/aio-max-nr');
  f.aioNr = num('/proc/sys/fs/aio-nr');
  f.nrOpen = num('/proc/sys/fs/nr_open');
  f.fileMax = num('/proc/sys/fs/file-max');
  for (const p of SYSCTLS) if (v.values[p] === undefined) f.unread.push({ what: p, why: 'not readable or absent' });

  const mem = await io.cat('/proc/meminfo');
  if (mem.ok) {
    const m = /^MemTotal:\s+(\d+) kB/m.exec(mem.text);
    f.memTotalKiB = m ? Number(m[1]) : null;
  } else f.unread.push({ what: '/proc/meminfo', why: mem.why });

  // /etc/scylla.d: every *.conf is KEY=VALUE; perftune.yaml and io_properties.yaml are looked for by name.
  const dir = await io.walk('/etc/scylla.d', 1);
  if (dir.ok) {
    const names = dir.paths.map((p) => p.split('/').pop()!);
    f.perftunePresent = names.includes('perftune.yaml');
    f.ioPropertiesPresent = names.includes('io_properties.yaml');
    const env: Record<string, string> = {};
    for (const p of dir.paths.filter((x) => /\/[\w.-]+\.conf$/.test(x)).sort()) {
      const r = await io.cat(p);
      if (r.ok) Object.assign(env, parseSysconfig(r.text));
      else f.unread.push({ what: p, why: r.why });
    }
    f.env = env;
    if (f.perftunePresent) {
      const r = await io.cat('/etc/scylla.d/perftune.yaml');
      if (r.ok) f.perftune = parsePerftuneYaml(r.text);
      else f.unread.push({ what: '/etc/scylla.d/perftune.yaml', why: r.why });
    }
  } else f.unread.push({ what: '/etc/scylla.d', why: dir.why });
  for (const p of SERVER_FILES) {
    const r = await io.cat(p);
    if (!r.ok) continue;
    f.env = { ...(f.env ?? {}), ...parseSysconfig(r.text) };
    break;
  }

  const intr = await io.cat('/proc/interrupts');
  if (intr.ok) {
    const p = parseInterrupts(intr.text);
    if (p.ok) {
      f.interrupts = p.value;
      // Only the device queues the rules judge; IRQ numbers are digits by construction, checked again here.
      const irqs = p.value.lines.filter((l) => /^\d+$/.test(l.irq) && deviceOfIrq(l.name) !== null).map((l) => l.irq);
      if (irqs.length) {
        const a = await io.values(irqs.map((n) => `/proc/irq/${n}/smp_affinity_list`));
        for (const n of irqs) {
          const cpus = parseCpuList(a.values[`/proc/irq/${n}/smp_affinity_list`]);
          if (cpus) f.affinity[n] = cpus;
        }
      }
    } else f.unread.push({ what: '/proc/interrupts', why: p.reason });
  } else f.unread.push({ what: '/proc/interrupts', why: intr.why });

  let pid = opts.pid ?? null;
  if (pid === null) {
    const r = await io.tool(['pgrep', '-o', '-x', 'scylla']);
    if (r.ok && /^\d+/.test(r.text.trim())) pid = Number(r.text.trim().split('\n')[0]);
    else f.unread.push({ what: 'scylla process', why: r.ok ? 'not running' : r.why.replace(/^exit code 1$/, 'not running') });
  }
  if (pid !== null) {
    const cmd = await io.cat(`/proc/${pid}/cmdline`);
    const lim = await io.cat(`/proc/${pid}/limits`);
    const argv = cmd.ok ? cmd.text.split('\0').filter((x) => x !== '') : [];
    if (!cmd.ok) f.unread.push({ what: `/proc/${pid}/cmdline`, why: cmd.why });
    else if (!/(^|\/)scylla$/.test(argv[0] ?? '')) f.unread.push({ what: 'scylla process', why: `pid ${pid} is not scylla (${argv.slice(0, 2).join(' ')})` });
    else {
      const l = lim.ok ? parseProcLimits(lim.text)['nofile'] : undefined;
      if (!lim.ok) f.unread.push({ what: `/proc/${pid}/limits`, why: lim.why });
      f.process = { pid, args: parseScyllaArgs(argv.slice(1)), nofileSoft: l?.soft ?? null, nofileHard: l?.hard ?? null };
    }
  }

  // The size of the filesystem under the data directory (df prints "Size Mounted-on" in bytes).
  // An absolute path only: a value starting with "-" would reach df as an option.
  const dataDir = opts.dataDir !== undefined && /^\/[^\0\n]*$/.test(opts.dataDir) ? opts.dataDir : DEFAULT_DATA_DIR;
  // On a recorded tree tool() reads .commands/<argv>.txt, so the argv names the path as the host sees it.
  const df = await io.tool(['df', '-B1', '--output=size,target', dataDir]);
  const row = df.ok ? /^\s*(\d+)\s+(\S+)\s*$/m.exec(df.text.split('\n').slice(1).join('\n')) : null;
  if (row) {
    f.dataFsBytes = Number(row[1]);
    f.dataDir = `${dataDir} (on ${row[2]})`;
  } else f.unread.push({ what: `df ${dataDir}`, why: df.ok ? 'unexpected output' : df.why });
  return f;
}
