/**
 * audit_os / `cql-tuner audit-os`: the OS settings of a database host (read-only) against the knowledge
 * base: swap, THP, zone reclaim, map count, AIO, the process's limits, governor, clocksource, NUMA, heap,
 * TCP keepalive, socket buffers and listen backlogs.
 */
import { readOs } from '../collect/storage/read-os.js';
import { checkedRow } from '../core/rules/rule.js';
import { readScyllaHost } from '../collect/host-scylla.js';
import { scyllaHostRules } from '../core/rules/scylla-host.js';
import { worstFirst } from '../core/findings.js';
import { osRules } from '../core/rules/os.js';
import type { AuditOsReport } from '../core/reports/audit-os.js';
import { OpError } from './errors.js';
import type { Target } from '../collect/target.js';
import { targetOf } from './storage.js';
import { z } from 'zod';
import { TOOL_TARGET_FORMS } from '../collect/target-spec.js';
import { hostCommandTimeoutSchema, productSchema, rootPrefixSchema } from './input-schemas.js';

/** audit_os's input, registered by the MCP tool and checked by `cql-tuner audit-os`. */
export const auditOsInputSchema = z.object({
  target: z.string().max(1000).default('local').describe(`Where to look: ${TOOL_TARGET_FORMS}`),
  product: productSchema.optional(),
  pid: z.number().int().positive().optional().describe('PID of the database process (default: found with pgrep)'),
  root: rootPrefixSchema.describe('Recorded host tree prefix (testing)'),
  timeoutMs: hostCommandTimeoutSchema(),
});

export interface AuditOsSpec {
  target?: string;
  root?: string;
  product?: 'cassandra' | 'scylla';
  pid?: number;
  timeoutMs?: number;
}

/** `opts.target` overrides spec.target: the CLI builds it from its trusted --target flag. */
export async function auditOs(spec: AuditOsSpec, opts: { signal?: AbortSignal; target?: Target } = {}): Promise<AuditOsReport> {
  const target = opts.target ?? targetOf(spec.target);
  const facts = await readOs(target, {
    ...(spec.root ? { root: spec.root } : {}),
    product: spec.product ?? null,
    ...(spec.pid ? { pid: spec.pid } : {}),
    ...(spec.timeoutMs ? { timeoutMs: spec.timeoutMs } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (facts.memTotalKiB === null && facts.swappiness === null && facts.unread.some((u) => /not installed|timed out|connect/i.test(u.why))) {
    throw new OpError(
      'TARGET_UNREACHABLE',
      `could not read /proc on ${target.describe()}: ${facts.unread.map((u) => u.why)[0]}`,
      'Check that the target is reachable and is a Linux host.',
    );
  }
  const scyllaHost =
    facts.product === 'scylla'
      ? await readScyllaHost(target, {
          ...(spec.root ? { root: spec.root } : {}),
          ...(facts.process ? { pid: facts.process.pid } : {}),
          ...(spec.timeoutMs ? { timeoutMs: spec.timeoutMs } : {}),
          ...(opts.signal ? { signal: opts.signal } : {}),
        })
      : undefined;
  const outcomes = [...osRules(facts), ...(scyllaHost ? scyllaHostRules(scyllaHost) : [])];
  const findings = worstFirst(outcomes.flatMap((o) => o.findings));
  const w = findings.filter((f) => f.severity !== 'info').length;
  return {
    target: target.describe(),
    summary: `${target.describe()}: ${facts.cpus ?? '?'} CPUs, ${facts.memTotalKiB === null ? '?' : (facts.memTotalKiB / 1024 / 1024).toFixed(1)} GiB, ${facts.numaNodes ?? '?'} NUMA node(s)${facts.process ? `, ${facts.process.command} pid ${facts.process.pid}` : ', no database process found'}; ${findings.length} finding${findings.length === 1 ? '' : 's'} (${w} warning or worse)`,
    facts,
    ...(scyllaHost ? { scyllaHost } : {}),
    findings,
    checked: outcomes.map(checkedRow),
  };
}
