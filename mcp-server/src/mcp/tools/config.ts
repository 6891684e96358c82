import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { auditConfig, auditConfigInputSchema } from '../../ops/audit-config.js';
import { renderAuditConfig } from '../../render/audit-config.js';
import { DEFAULT_NODE_TIMEOUT_MS, DEFAULT_SWEEP_CONCURRENCY, takeSnapshot } from '../../ops/snapshot.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { checkedSchema, findingSchema } from './shared-schemas.js';
import { annotationsFor } from './annotations.js';

const GIB = 1024 ** 3;

export function registerConfigTools(server: McpServer): void {
  server.registerTool(
    'audit_config',
    {
      title: 'Audit cassandra.yaml and JVM options',
      description:
        'Reads a cassandra.yaml (3.11–5.0) and/or JVM options (jvm*.options, cassandra-env.sh, a java command line) — file paths on the machine the server runs on, or the text inline — and reports: ' +
        'the naming era and the 4.1 renames with units, a setting under both its old and new name (the node will not start), bare numbers where 4.1+ needs a unit, removed and deprecated keys for the version, ' +
        'risky values (unthrottled compaction, raised request timeouts, dynamic snitch off, legacy vnodes), heap unset/small/in the compressed-oops dead zone, heap vs RAM, GC choice by JDK, G1 pause target, -Xmn with G1, pre-touch, large pages and NUMA. ' +
        'A scylla.yaml is recognised and gets ScyllaDB checks (developer mode, Cassandra keys ScyllaDB ignores, timeouts) instead of the Cassandra ones. ' +
        '`kubectl get -o yaml` of a CassandraDatacenter, K8ssandraCluster or ScyllaCluster (k8sResources, or a file) gets Kubernetes checks per datacenter/rack — CPU limit vs request (CFS throttling), QoS class (Guaranteed for ScyllaDB CPU pinning), ' +
        'one pod per worker, storage class — and its embedded cassandra.yaml and JVM options go through the checks above with the container memory limit as RAM. ' +
        'Give version, jdk, hostRamGiB and cores for the checks that need them. With lab: true or hosts it also compares the yaml with system_views.settings of each node and the nodes with each other (drift). Read-only.',
      inputSchema: auditConfigInputSchema,
      outputSchema: {
        inputs: z.array(
          z.object({
            source: z.string(),
            kind: z.string().nullable(),
            ok: z.boolean(),
            reason: z.string().optional(),
            detail: z.string().optional(),
            warnings: z.array(z.string()),
          }),
        ),
        context: z.object({
          version: z.string().nullable(),
          jdk: z.number().nullable(),
          hostRamBytes: z.number().nullable(),
          cores: z.number().nullable(),
          jdkFrom: z.string().optional(),
        }),
        counts: z.object({ critical: z.number(), warning: z.number(), info: z.number() }),
        findings: z.array(findingSchema),
        checked: checkedSchema,
        drift: z.unknown().optional(),
        notes: z.array(z.string()).optional(),
      },
      annotations: annotationsFor('audit_config'),
    },
    async (args, extra) => {
      try {
        const live = args.lab || (args.hosts?.length ?? 0) > 0;
        const snapshot = live
          ? await takeSnapshot(
              {
                ...(args.hosts ? { hosts: args.hosts } : {}),
                lab: args.lab,
                ...(args.cqlPort ? { cqlPort: args.cqlPort } : {}),
                ...(args.localDataCenter ? { localDataCenter: args.localDataCenter } : {}),
                nodetool: false,
                concurrency: DEFAULT_SWEEP_CONCURRENCY,
                nodeTimeoutMs: DEFAULT_NODE_TIMEOUT_MS,
              },
              { onProgress: mcpProgress(extra), signal: extra.signal },
            )
          : undefined;
        const r = await auditConfig(
          {
            ...(args.files ? { files: args.files } : {}),
            ...(args.cassandraYaml !== undefined ? { cassandraYaml: args.cassandraYaml } : {}),
            ...(args.jvmOptions ? { jvmOptions: args.jvmOptions } : {}),
            ...(args.javaCommandLine !== undefined ? { javaCommandLine: args.javaCommandLine } : {}),
            ...(args.k8sResources !== undefined ? { k8sResources: args.k8sResources } : {}),
            ...(args.version ? { version: args.version } : {}),
            ...(args.jdk !== undefined ? { jdk: args.jdk } : {}),
            ...(args.hostRamGiB ? { hostRamBytes: Math.round(args.hostRamGiB * GIB) } : {}),
            ...(args.cores ? { cores: args.cores } : {}),
          },
          snapshot,
        );
        return toolResult(renderAuditConfig(r, { detail: args.detail }), r);
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
