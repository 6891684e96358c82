/**
 * What audit_os returns, as data: ops/audit-os.ts fills it, render/audit-os.ts prints it. Types only, in core so the
 * renderer depends down.
 */
import type { Finding } from '../findings.js';
import type { OsFacts } from '../rules/os.js';
import type { ScyllaHostFacts } from '../rules/scylla-host.js';

export interface AuditOsReport {
  target: string;
  summary: string;
  facts: OsFacts;
  /** ScyllaDB host set-up (perftune, cpuset, IRQs, AIO need, descriptors, disk/RAM); only with product scylla. */
  scyllaHost?: ScyllaHostFacts;
  findings: Finding[];
  checked: { rule: string; checks: string; checked: boolean; skippedBecause?: string; findings: number }[];
}
