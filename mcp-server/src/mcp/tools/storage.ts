import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { checkedSchema, findingSchema } from './shared-schemas.js';
import { TOOL_TARGET_FORMS as TARGET_FORMS } from '../../collect/target-spec.js';
import { inspectStorage, inspectStorageInputSchema } from '../../ops/storage.js';
import { planMkfsInputSchema, planMkfsOnHost } from '../../ops/plan-mkfs.js';
import { planQueueDepthInputSchema, planQueueDepthOp } from '../../ops/plan-queue-depth.js';
import { auditOs, auditOsInputSchema } from '../../ops/audit-os.js';
import { renderAuditOs } from '../../render/audit-os.js';
import { renderPlanMkfs } from '../../render/plan-mkfs.js';
import { renderQueueDepth } from '../../render/queue-depth.js';
import { renderStorageReport } from '../../render/storage.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

const finding = findingSchema;
const record = z.record(z.string(), z.unknown());

export const inspectStorageOutput = {
  target: z.string(),
  origin: z.string(),
  product: z.enum(['cassandra', 'scylla']).nullable(),
  summary: z.string(),
  dirs: z.array(record),
  devices: z.array(record),
  md: z.array(record),
  mounts: z.array(record),
  xfs: z.array(record),
  findings: z.array(finding),
  checked: checkedSchema,
  unread: z.array(z.object({ what: z.string(), why: z.string() })),
  warnings: z.array(z.string()),
};

export function registerStorageTools(server: McpServer): void {
  server.registerTool(
    'inspect_storage',
    {
      title: "Inspect a database host's storage",
      description:
        "Reads a host's block devices (sysfs: logical/physical sector, min/optimal I/O, read-ahead, scheduler, rotational, nr_requests, write cache, discard), " +
        'md RAID arrays (level, chunk, members), mounts and options, XFS geometry (xfs_info) and partition alignment, resolves the data/commitlog/hints ' +
        'directories (from cassandra.yaml/scylla.yaml or given paths) to mount → device → md members → disks, and reports database-aware findings: ' +
        'XFS blocks below the physical sector, read-ahead on Cassandra data devices (not ScyllaDB: direct I/O), NVMe scheduler and 512 B LBA format, ' +
        'rotational=1 on virtual disks, XFS stripe vs RAID chunk, ScyllaDB XFS/RAID0, online discard, commit log sharing the data disk. ' +
        `Read-only (find/grep/cat/lsblk/xfs_info). Works over ${TARGET_FORMS}. What cannot be read (no root, missing tool) is listed, never fatal.`,
      inputSchema: inspectStorageInputSchema,
      outputSchema: inspectStorageOutput,
      annotations: annotationsFor('inspect_storage'),
    },
    async (args, extra) => {
      try {
        const r = await inspectStorage(args, { signal: extra.signal, onProgress: mcpProgress(extra) });
        return toolResult(renderStorageReport(r), r);
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'plan_mkfs',
    {
      title: 'Plan mkfs.xfs for database data (dry run only)',
      description:
        'From the disks that will hold the data (or an existing md array) and their sector sizes read from the host, returns the recommended ' +
        'mdadm (when several disks) and mkfs.xfs argv and mount options, each flag explained with the knowledge entry behind it: block and sector ' +
        'size from the physical sector, su/sw from the RAID chunk and data-disk count, noatime, fstrim instead of discard. When the device exists ' +
        'and is unused, shows what `mkfs.xfs -N` prints (a dry run: nothing is written). It NEVER formats: mkfs only ever runs with -N, and ' +
        'mounted or in-use devices are refused.',
      inputSchema: planMkfsInputSchema,
      outputSchema: {
        target: z.string(),
        plan: z.object({
          device: z.string(),
          mdadmArgv: z.array(z.string()).nullable(),
          mkfsArgv: z.array(z.string()),
          dryRunArgv: z.array(z.string()),
          flags: z.array(z.object({ flag: z.string(), why: z.string(), knowledgeIds: z.array(z.string()) })),
          mountOptions: z.array(z.object({ flag: z.string(), why: z.string(), knowledgeIds: z.array(z.string()) })),
          blockSize: z.number(),
          sectorSize: z.number(),
          stripe: z.object({ suKiB: z.number(), sw: z.number() }).nullable(),
          warnings: z.array(z.string()),
        }),
        devices: z.array(record),
        dryRun: record,
      },
      // Read-only: the only command it executes is mkfs.xfs -N (a dry run), after refusing mounted devices.
      annotations: annotationsFor('plan_mkfs'),
    },
    async (args, extra) => {
      try {
        const r = await planMkfsOnHost(args, { signal: extra.signal });
        return toolResult(renderPlanMkfs(r), r);
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'plan_queue_depth',
    {
      title: "Requests in flight needed for a disk rate (Little's law)",
      description:
        "Little's law for block I/O: from device bandwidth (with request size) or IOPS, and latency per request, the number of requests that " +
        "must be in flight to sustain that rate, with what it means for Cassandra's concurrent_reads/writes and ScyllaDB's io_properties. " +
        'Units are literal: GB/kB are powers of 1000, GiB/KiB powers of 1024 (14.5 GB/s of 128 kB at 1 ms ≈ 113; of 128 KiB ≈ 111). Pure calculation.',
      inputSchema: planQueueDepthInputSchema,
      outputSchema: {
        iops: z.number(),
        bytesPerSecond: z.number().nullable(),
        requestBytes: z.number().nullable(),
        latencyMs: z.number(),
        outstanding: z.number(),
        inFlight: z.number(),
        formula: z.string(),
        notes: z.array(z.string()),
      },
      annotations: annotationsFor('plan_queue_depth'),
    },
    (args) => {
      try {
        const p = planQueueDepthOp(args);
        return toolResult(renderQueueDepth(p), p);
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'audit_os',
    {
      title: "Audit a database host's OS settings",
      description:
        "Reads a host's OS settings (read-only) and checks them against the knowledge base, database-aware: swap (Cassandra: off; ScyllaDB: " +
        'swappiness 1), transparent huge page defrag, vm.zone_reclaim_mode, vm.max_map_count, fs.aio-max-nr (ScyllaDB), the running database ' +
        "process's limits from /proc/PID/limits (nofile, nproc, memlock, as), TCP keepalive, socket buffer ceilings (Cassandra) and listen backlogs (ScyllaDB), " +
        'CPU governor, clocksource, NUMA nodes, and the JVM heap against RAM. With product scylla also the ScyllaDB set-up: fs.aio-max-nr against ' +
        'the per-shard AIO need, --smp/--cpuset/--overprovisioned against the CPUs, cpuset.conf vs perftune.yaml masks, NIC/NVMe IRQ affinity drift, ' +
        'SET_NIC_AND_DISKS, open-files limits vs fs.nr_open, disk/RAM ratio, io_properties set-up and developer mode. ' +
        `Works over ${TARGET_FORMS}; what cannot be read is listed, never fatal.`,
      inputSchema: auditOsInputSchema,
      outputSchema: {
        target: z.string(),
        summary: z.string(),
        facts: record,
        scyllaHost: record.optional(),
        findings: z.array(finding),
        checked: checkedSchema,
      },
      annotations: annotationsFor('audit_os'),
    },
    async (args, extra) => {
      try {
        const r = await auditOs(args, { signal: extra.signal });
        return toolResult(renderAuditOs(r), r);
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
