import { Command } from 'commander';
import { inspectStorage, renderStorageReport, targetOf } from '../../ops/storage.js';
import { planMkfsOnHost, renderPlanMkfs } from '../../ops/plan-mkfs.js';
import type { RaidLevel } from '../../core/planners/mkfs.js';
import { planQueueDepth, QueueDepthError } from '../../core/planners/queue-depth.js';
import { OpError } from '../../ops/errors.js';
import { auditOs, renderAuditOs } from '../../ops/audit-os.js';
import { TARGET_FORMS } from '../../collect/target-spec.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';

const collect = (v: string, prev: string[]) => [...prev, v];

export function storageCommand(): Command {
  return new Command('storage')
    .description('inspect a database host\'s disks, RAID, mounts and XFS geometry (read-only) and report storage findings')
    .option('--target <spec>', `where to look: ${TARGET_FORMS}`, 'local')
    .option('--product <name>', 'cassandra or scylla (read-ahead is checked for Cassandra only; XFS/RAID0 for ScyllaDB)')
    .option('--config <path>', 'cassandra.yaml / scylla.yaml on the target (default: the packaged location)')
    .option('--dir <role=path>', 'a directory to resolve: /path (data) or role=/path (data|commitlog|hints|saved_caches); repeatable', collect, [])
    .option('--root <prefix>', 'read a recorded host tree under this prefix instead of /')
    .option('--timeout-ms <ms>', 'per-command timeout', (v) => Number(v), 20_000)
    .option('--json', 'print the report as JSON')
    .action(async (o: { target: string; product?: string; config?: string; dir: string[]; root?: string; timeoutMs: number; json?: boolean }) => {
      const abort = abortOnSignal();
      try {
        if (o.product !== undefined && o.product !== 'cassandra' && o.product !== 'scylla') throw Object.assign(new Error(`unknown product "${o.product}"`), { code: 'BAD_PRODUCT', fix: 'Use --product cassandra or --product scylla.' });
        const r = await inspectStorage(
          {
            target: o.target,
            ...(o.product ? { product: o.product as 'cassandra' | 'scylla' } : {}),
            ...(o.config ? { config: o.config } : {}),
            ...(o.dir.length ? { dirs: o.dir } : {}),
            ...(o.root ? { root: o.root } : {}),
            timeoutMs: o.timeoutMs,
          },
          // --target is the user's own flag: it may name an ssh key or kube context.
          { signal: abort.signal, target: targetOf(o.target, 'trusted'), onProgress: (e) => (o.json ? undefined : process.stderr.write(`… ${e.message}\n`)) },
        );
        if (o.json) printJson(r);
        else printText(renderStorageReport(r));
        if (r.findings.some((f) => f.severity === 'critical')) process.exitCode = 1;
      } catch (e) {
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}

export function planMkfsCommand(): Command {
  return new Command('plan-mkfs')
    .description('plan mkfs.xfs (and mdadm) for database data disks, each flag explained; shows the mkfs.xfs -N dry run, never formats')
    .argument('<devices...>', 'disk names or paths (nvme0n1 /dev/sdb), or one existing md array (md0)')
    .requiredOption('--product <name>', 'cassandra or scylla')
    .option('--target <spec>', `host with the disks: ${TARGET_FORMS}`, 'local')
    .option('--raid-level <level>', 'raid0 | raid1 | raid10 | raid5 | raid6 when several disks (default raid0)')
    .option('--chunk-kib <n>', 'md chunk in KiB (default 1024)', (v) => Number(v))
    .option('--md-device <path>', 'array device to create (default /dev/md0)')
    .option('--label <text>', 'file-system label')
    .option('--sector-size <bytes>', 'physical sector to assume when the device cannot be read', (v) => Number(v))
    .option('--no-dry-run', 'do not run mkfs.xfs -N')
    .option('--root <prefix>', 'recorded host tree prefix (testing)')
    .option('--json', 'print the plan as JSON')
    .action(async (devices: string[], o: { product: string; target: string; raidLevel?: string; chunkKib?: number; mdDevice?: string; label?: string; sectorSize?: number; dryRun: boolean; root?: string; json?: boolean }) => {
      const abort = abortOnSignal();
      try {
        if (o.product !== 'cassandra' && o.product !== 'scylla') throw Object.assign(new Error(`unknown product "${o.product}"`), { code: 'BAD_PRODUCT', fix: 'Use --product cassandra or --product scylla.' });
        if (o.raidLevel !== undefined && !['raid0', 'raid1', 'raid10', 'raid5', 'raid6'].includes(o.raidLevel)) throw Object.assign(new Error(`unknown RAID level "${o.raidLevel}"`), { code: 'BAD_RAID_LEVEL', fix: 'Use raid0, raid1, raid10, raid5 or raid6.' });
        const r = await planMkfsOnHost(
          {
            product: o.product,
            devices,
            target: o.target,
            dryRun: o.dryRun,
            ...(o.raidLevel ? { raidLevel: o.raidLevel as RaidLevel } : {}),
            ...(o.chunkKib ? { chunkKiB: o.chunkKib } : {}),
            ...(o.mdDevice ? { mdDevice: o.mdDevice } : {}),
            ...(o.label ? { label: o.label } : {}),
            ...(o.sectorSize ? { sectorSize: o.sectorSize } : {}),
            ...(o.root ? { root: o.root } : {}),
          },
          { signal: abort.signal, target: targetOf(o.target, 'trusted') },
        );
        if (o.json) printJson(r);
        else printText(renderPlanMkfs(r));
      } catch (e) {
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}

export function planQueueDepthCommand(): Command {
  return new Command('plan-queue-depth')
    .description("requests in flight needed for a disk rate (Little's law); GB/kB = 1000-based, GiB/KiB = 1024-based")
    .option('--bandwidth <rate>', 'e.g. "14.5 GB/s" or "3200 MiB/s"')
    .option('--iops <n>', 'requests per second', (v) => Number(v))
    .option('--request-size <size>', 'e.g. "128 KiB" or 4k')
    .requiredOption('--latency-ms <ms>', 'device latency per request', (v) => Number(v))
    .option('--json', 'print the result as JSON')
    .action((o: { bandwidth?: string; iops?: number; requestSize?: string; latencyMs: number; json?: boolean }) => {
      try {
        const p = planQueueDepth({ latencyMs: o.latencyMs, ...(o.bandwidth ? { bandwidth: o.bandwidth } : {}), ...(o.iops ? { iops: o.iops } : {}), ...(o.requestSize ? { requestSize: o.requestSize } : {}) });
        if (o.json) printJson(p);
        else printText(`${p.inFlight} requests in flight (${p.formula})\n${p.notes.map((n) => `- ${n}`).join('\n')}`);
      } catch (e) {
        failWith(e instanceof QueueDepthError ? new OpError(e.code, e.message, e.fix) : e, o);
      }
    });
}

export function auditOsCommand(): Command {
  return new Command('audit-os')
    .description("audit a database host's OS settings (swap, THP, zone reclaim, map count, AIO, process limits, governor, clocksource, NUMA, heap vs RAM, time sync, TCP keepalive, buffers, backlogs)")
    .option('--target <spec>', `where to look: ${TARGET_FORMS}`, 'local')
    .option('--product <name>', 'cassandra or scylla')
    .option('--pid <n>', 'PID of the database process (default: found with pgrep)', (v) => Number(v))
    .option('--root <prefix>', 'recorded host tree prefix (testing)')
    .option('--json', 'print the report as JSON')
    .action(async (o: { target: string; product?: string; pid?: number; root?: string; json?: boolean }) => {
      const abort = abortOnSignal();
      try {
        if (o.product !== undefined && o.product !== 'cassandra' && o.product !== 'scylla') throw Object.assign(new Error(`unknown product "${o.product}"`), { code: 'BAD_PRODUCT', fix: 'Use --product cassandra or --product scylla.' });
        const r = await auditOs({ target: o.target, ...(o.product ? { product: o.product as 'cassandra' | 'scylla' } : {}), ...(o.pid ? { pid: o.pid } : {}), ...(o.root ? { root: o.root } : {}) }, { signal: abort.signal, target: targetOf(o.target, 'trusted') });
        if (o.json) printJson(r);
        else printText(renderAuditOs(r));
        if (r.findings.some((f) => f.severity === 'critical')) process.exitCode = 1;
      } catch (e) {
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}
