/**
 * What audit_config returns, as data: ops/audit-config.ts fills it, render/audit-config.ts prints it. Types only, in
 * core so the renderer depends down.
 */
import type { DriftReport } from '../config/drift.js';
import type { Finding } from '../findings.js';

/** k8s-resource: `kubectl get -o yaml` of a CassandraDatacenter, K8ssandraCluster or ScyllaCluster (ops/k8s-audit.ts). */
export type ConfigInputKind = 'cassandra-yaml' | 'jvm-options' | 'k8s-resource';

export interface AuditInputSummary {
  source: string;
  kind: ConfigInputKind | null;
  ok: boolean;
  reason?: string;
  /** cassandra.yaml: the naming era; JVM options: the format. */
  detail?: string;
  warnings: string[];
}

export interface AuditConfigReport {
  inputs: AuditInputSummary[];
  context: { version: string | null; jdk: number | null; hostRamBytes: number | null; cores: number | null; jdkFrom?: string };
  counts: { critical: number; warning: number; info: number };
  findings: Finding[];
  checked: { rule: string; checks: string; checked: boolean; skippedBecause?: string; findings: number }[];
  drift?: DriftReport;
  /** What reading the inputs decided on the user's behalf (e.g. JDK-specific option files skipped). */
  notes?: string[];
}
