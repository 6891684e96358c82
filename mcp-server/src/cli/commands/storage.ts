import { resolve } from 'node:path';
import { Command } from 'commander';
import { inspectStorage, inspectStorageInputSchema, targetOf } from '../../ops/storage.js';
import { planMkfsInputSchema, planMkfsOnHost } from '../../ops/plan-mkfs.js';
import { planQueueDepthInputSchema, planQueueDepthOp } from '../../ops/plan-queue-depth.js';
import { auditOs, auditOsInputSchema } from '../../ops/audit-os.js';
import { renderAuditOs } from '../../render/audit-os.js';
import { renderPlanMkfs } from '../../render/plan-mkfs.js';
import { renderQueueDepth } from '../../render/queue-depth.js';
import { renderStorageReport } from '../../render/storage.js';
import { TARGET_FORMS } from '../../collect/target-spec.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { cliNumber, parseFlags } from '../validate-flags.js';

const collect = (v: string, prev: string[]) => [...prev, v];

/**
 * --root is the user's own flag: a relative prefix is taken from the working directory. The resolved path then
 * goes through the same check as the tool argument (absolute, no "..", no control characters).
 */
const rootFlag = (root: string | undefined) => (root === undefined ? undefined : resolve(root));

export function storageCommand(): Command {
  return new Command('storage')
    .description("inspect a database host's disks, RAID, mounts and XFS geometry (read-only) and report storage findings")
    .option('--target <spec>', `where to look: ${TARGET_FORMS}`, 'local')
    .option('--product <name>', 'cassandra or scylla (read-ahead is checked for Cassandra only; XFS/RAID0 for ScyllaDB)')
    .option('--config <path>', 'cassandra.yaml / scylla.yaml on the target (default: the packaged location)')
    .option('--dir <role=path>', 'a directory to resolve: /path (data) or role=/path (data|commitlog|hints|saved_caches); repeatable', collect, [])
    .option('--root <prefix>', 'read a recorded host tree under this prefix instead of /')
    .option('--timeout-ms <ms>', 'per-command timeout, 1000 to 300000', '20000')
    .option('--json', 'print the report as JSON')
    .action(async (o: { target: string; product?: string; config?: string; dir: string[]; root?: string; timeoutMs: string; json?: boolean }) => {
      const abort = abortOnSignal();
      try {
        const input = parseFlags(
          'storage',
          inspectStorageInputSchema,
          {
            target: o.target,
            product: o.product,
            config: o.config,
            dirs: o.dir.length ? o.dir : undefined,
            root: rootFlag(o.root),
            timeoutMs: cliNumber(o.timeoutMs),
          },
          { dirs: '--dir' },
        );
        const r = await inspectStorage(
          input,
          // --target is the user's own flag: it may name an ssh key or kube context.
          {
            signal: abort.signal,
            target: targetOf(input.target, 'trusted'),
            onProgress: (e) => (o.json ? undefined : process.stderr.write(`… ${e.message}\n`)),
          },
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

interface PlanMkfsFlags {
  product: string;
  target: string;
  raidLevel?: string;
  chunkKib?: string;
  mdDevice?: string;
  label?: string;
  sectorSize?: string;
  dryRun: boolean;
  root?: string;
  timeoutMs: string;
  json?: boolean;
}

export function planMkfsCommand(): Command {
  return new Command('plan-mkfs')
    .description('plan mkfs.xfs (and mdadm) for database data disks, each flag explained; shows the mkfs.xfs -N dry run, never formats')
    .argument('<devices...>', 'disk names or paths (nvme0n1 /dev/sdb), or one existing md array (md0)')
    .requiredOption('--product <name>', 'cassandra or scylla')
    .option('--target <spec>', `host with the disks: ${TARGET_FORMS}`, 'local')
    .option('--raid-level <level>', 'raid0 | raid1 | raid10 | raid5 | raid6 when several disks (default raid0)')
    .option('--chunk-kib <n>', 'md chunk in KiB, 4 to 65536 (default 1024)')
    .option('--md-device <path>', 'array device to create (default /dev/md0)')
    .option('--label <text>', 'file-system label (at most 12 characters)')
    .option('--sector-size <bytes>', 'physical sector to assume when the device cannot be read (512, 4096, …)')
    .option('--no-dry-run', 'do not run mkfs.xfs -N')
    .option('--root <prefix>', 'recorded host tree prefix (testing)')
    .option('--timeout-ms <ms>', 'per-command timeout, 1000 to 300000', '20000')
    .option('--json', 'print the plan as JSON')
    .action(async (devices: string[], o: PlanMkfsFlags) => {
      const abort = abortOnSignal();
      try {
        const input = parseFlags(
          'plan-mkfs',
          planMkfsInputSchema,
          {
            product: o.product,
            devices,
            target: o.target,
            dryRun: o.dryRun,
            raidLevel: o.raidLevel,
            chunkKiB: cliNumber(o.chunkKib),
            mdDevice: o.mdDevice,
            label: o.label,
            sectorSize: cliNumber(o.sectorSize),
            root: rootFlag(o.root),
            timeoutMs: cliNumber(o.timeoutMs),
          },
          { devices: '<devices>', chunkKiB: '--chunk-kib' },
        );
        const r = await planMkfsOnHost(input, { signal: abort.signal, target: targetOf(input.target, 'trusted') });
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
    .option('--iops <n>', 'requests per second')
    .option('--request-size <size>', 'e.g. "128 KiB" or 4k')
    .requiredOption('--latency-ms <ms>', 'device latency per request')
    .option('--json', 'print the result as JSON')
    .action((o: { bandwidth?: string; iops?: string; requestSize?: string; latencyMs: string; json?: boolean }) => {
      try {
        // Bandwidth and request size stay text ("14.5 GB/s", "4k"): the planner reads their units.
        const input = parseFlags('plan-queue-depth', planQueueDepthInputSchema, {
          bandwidth: o.bandwidth,
          iops: cliNumber(o.iops),
          requestSize: o.requestSize,
          latencyMs: cliNumber(o.latencyMs),
        });
        const p = planQueueDepthOp(input);
        if (o.json) printJson(p);
        else printText(renderQueueDepth(p));
      } catch (e) {
        failWith(e, o);
      }
    });
}

export function auditOsCommand(): Command {
  return new Command('audit-os')
    .description(
      "audit a database host's OS settings (swap, THP, zone reclaim, map count, AIO, process limits, governor, clocksource, NUMA, heap vs RAM, time sync, TCP keepalive, buffers, backlogs)",
    )
    .option('--target <spec>', `where to look: ${TARGET_FORMS}`, 'local')
    .option('--product <name>', 'cassandra or scylla')
    .option('--pid <n>', 'PID of the database process (default: found with pgrep)')
    .option('--root <prefix>', 'recorded host tree prefix (testing)')
    .option('--timeout-ms <ms>', 'per-command timeout, 1000 to 300000', '20000')
    .option('--json', 'print the report as JSON')
    .action(async (o: { target: string; product?: string; pid?: string; root?: string; timeoutMs: string; json?: boolean }) => {
      const abort = abortOnSignal();
      try {
        const input = parseFlags('audit-os', auditOsInputSchema, {
          target: o.target,
          product: o.product,
          pid: cliNumber(o.pid),
          root: rootFlag(o.root),
          timeoutMs: cliNumber(o.timeoutMs),
        });
        const r = await auditOs(input, { signal: abort.signal, target: targetOf(input.target, 'trusted') });
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
