import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { checkedSchema, findingSchema } from './shared-schemas.js';
import { TOOL_TARGET_FORMS as TARGET_FORMS } from '../../collect/target-spec.js';
import { inspectStorage, renderStorageReport } from '../../ops/storage.js';
import { planMkfsOnHost, renderPlanMkfs } from '../../ops/plan-mkfs.js';
import { planQueueDepth, QueueDepthError } from '../../core/planners/queue-depth.js';
import { OpError } from '../../ops/errors.js';
import { auditOs, renderAuditOs } from '../../ops/audit-os.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

// A recorded tree is a plain absolute directory path: no "..", no control characters, nothing that could
// turn the prefix into another path than the one written.
const rootPrefix = z
  .string()
  .max(4096)
  .refine((r) => r.startsWith('/') && !/(^|\/)\.\.(\/|$)/.test(r) && !/[\u0000-\u001f\u007f]/.test(r), 'root must be an absolute directory path without ".." or control characters')
  .optional();

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
      title: 'Inspect a database host\'s storage',
      description:
        'Reads a host\'s block devices (sysfs: logical/physical sector, min/optimal I/O, read-ahead, scheduler, rotational, nr_requests, write cache, discard), ' +
        'md RAID arrays (level, chunk, members), mounts and options, XFS geometry (xfs_info) and partition alignment, resolves the data/commitlog/hints ' +
        'directories (from cassandra.yaml/scylla.yaml or given paths) to mount → device → md members → disks, and reports database-aware findings: ' +
        'XFS blocks below the physical sector, read-ahead on Cassandra data devices (not ScyllaDB: direct I/O), NVMe scheduler and 512 B LBA format, ' +
        'rotational=1 on virtual disks, XFS stripe vs RAID chunk, ScyllaDB XFS/RAID0, online discard, commit log sharing the data disk. ' +
        `Read-only (find/grep/cat/lsblk/xfs_info). Works over ${TARGET_FORMS}. What cannot be read (no root, missing tool) is listed, never fatal.`,
      inputSchema: {
        target: z.string().max(1000).default('local').describe(`Where to look: ${TARGET_FORMS}`),
        product: z.enum(['cassandra', 'scylla']).optional().describe('Database on the host (read-ahead matters for Cassandra only; XFS/RAID0 checks for ScyllaDB)'),
        config: z.string().max(4096).optional().describe('Path of cassandra.yaml or scylla.yaml on the target (default: the packaged location for the product)'),
        dirs: z.array(z.string().max(4096)).max(64).optional().describe('Explicit directories: "/path" (data) or "role=/path", role data|commitlog|hints|saved_caches'),
        root: rootPrefix.describe('Read a recorded host tree under this prefix instead of "/" (testing, saved captures)'),
        timeoutMs: z.number().int().min(1000).max(300_000).default(20_000).describe('Per-command timeout'),
      },
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
      inputSchema: {
        target: z.string().max(1000).default('local').describe(`Host with the disks: ${TARGET_FORMS}`),
        product: z.enum(['cassandra', 'scylla']),
        devices: z.array(z.string().max(256)).min(1).max(64).describe('Disk names or paths (nvme0n1, /dev/sdb), or one existing md array (md0)'),
        raidLevel: z.enum(['raid0', 'raid1', 'raid10', 'raid5', 'raid6']).optional().describe('Array level when several disks (default raid0)'),
        chunkKiB: z.number().int().min(4).max(65536).optional().describe('md chunk in KiB (default the ScyllaDB reference, 1024)'),
        mdDevice: z.string().max(64).optional().describe('Array device to create (default /dev/md0)'),
        label: z.string().max(12).optional(),
        sectorSize: z.number().int().refine((n) => [512, 4096, 8192, 16384, 65536].includes(n), 'a sector size such as 512 or 4096').optional().describe('Physical sector to assume when the device cannot be read'),
        dryRun: z.boolean().default(true).describe('Run mkfs.xfs -N when the device exists and is unused'),
        root: rootPrefix.describe('Recorded host tree prefix (testing)'),
        timeoutMs: z.number().int().min(1000).max(300_000).default(20_000),
      },
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
      title: 'Requests in flight needed for a disk rate (Little\'s law)',
      description:
        'Little\'s law for block I/O: from device bandwidth (with request size) or IOPS, and latency per request, the number of requests that ' +
        'must be in flight to sustain that rate, with what it means for Cassandra\'s concurrent_reads/writes and ScyllaDB\'s io_properties. ' +
        'Units are literal: GB/kB are powers of 1000, GiB/KiB powers of 1024 (14.5 GB/s of 128 kB at 1 ms ≈ 113; of 128 KiB ≈ 111). Pure calculation.',
      inputSchema: {
        bandwidth: z.union([z.string().max(64), z.number().positive()]).optional().describe('e.g. "14.5 GB/s", "3200 MiB/s", or bytes per second'),
        iops: z.number().positive().optional(),
        requestSize: z.union([z.string().max(64), z.number().positive()]).optional().describe('e.g. "128 KiB", "4k", or bytes'),
        latencyMs: z.number().positive().max(100_000).describe('device latency per request in ms (e.g. 1, or 0.1 for 100 µs)'),
      },
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
    async (args) => {
      try {
        const p = planQueueDepth(args);
        return toolResult(`${p.inFlight} requests in flight (${p.formula})\n${p.notes.map((n) => `- ${n}`).join('\n')}`, p);
      } catch (e) {
        return toolError(e instanceof QueueDepthError ? new OpError(e.code, e.message, e.fix) : e);
      }
    },
  );

  server.registerTool(
    'audit_os',
    {
      title: 'Audit a database host\'s OS settings',
      description:
        'Reads a host\'s OS settings (read-only) and checks them against the knowledge base, database-aware: swap (Cassandra: off; ScyllaDB: ' +
        'swappiness 1), transparent huge page defrag, vm.zone_reclaim_mode, vm.max_map_count, fs.aio-max-nr (ScyllaDB), the running database ' +
        'process\'s limits from /proc/PID/limits (nofile, nproc, memlock, as), TCP keepalive, socket buffer ceilings (Cassandra) and listen backlogs (ScyllaDB), ' +
        'CPU governor, clocksource, NUMA nodes, and the JVM heap against RAM. With product scylla also the ScyllaDB set-up: fs.aio-max-nr against ' +
        'the per-shard AIO need, --smp/--cpuset/--overprovisioned against the CPUs, cpuset.conf vs perftune.yaml masks, NIC/NVMe IRQ affinity drift, ' +
        'SET_NIC_AND_DISKS, open-files limits vs fs.nr_open, disk/RAM ratio, io_properties set-up and developer mode. ' +
        `Works over ${TARGET_FORMS}; what cannot be read is listed, never fatal.`,
      inputSchema: {
        target: z.string().max(1000).default('local').describe(`Where to look: ${TARGET_FORMS}`),
        product: z.enum(['cassandra', 'scylla']).optional(),
        pid: z.number().int().positive().optional().describe('PID of the database process (default: found with pgrep)'),
        root: rootPrefix.describe('Recorded host tree prefix (testing)'),
        timeoutMs: z.number().int().min(1000).max(300_000).default(20_000),
      },
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
