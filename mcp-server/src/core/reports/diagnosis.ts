/**
 * What a diagnosis returns, as data: the shape ops/diagnose.ts builds and render/ prints. Types only, kept in core so
 * the renderers depend down (on core), never up on the operations that fill them.
 */
import type { NodeWindowRates } from '../diagnosis/counter-rates.js';
import type { HostWindow } from '../diagnosis/host-window.js';
import type { Finding } from '../findings.js';
import type { RulesResult } from '../rules/index.js';
import type { PolicyEffect } from '../rules/policy.js';
import type { ProfileSample } from '../rules/hot-partition.js';

export interface DiagnosisReport {
  origin: string;
  /** As nodetool describecluster names it (absent when it was not read). */
  clusterName?: string;
  collectedAt: string;
  durationMs: number;
  nodes: { address: string; datacenter: string | null; releaseVersion: string | null; status: 'complete' | 'partial' | 'unreachable' }[];
  versions: string[];
  counts: { critical: number; warning: number; info: number };
  findings: Finding[];
  checked: RulesResult['outcomes'];
  bundleDir?: string;
  /** save was asked but the bundle could not be written; the diagnosis itself is complete. */
  bundleError?: { code: string; message: string; fix: string };
  /** About credentials (withheld from hosts not allowed them, or sent without TLS) and inputs that could not be read. */
  warnings?: string[];
  /** Rates over the window between two sweeps, and the hosts' disk/CPU figures; absent for an instant diagnosis. */
  window?: DiagnosisWindow;
  /** What the operator's rule policy (CQL_TUNER_RULES / --rules) switched off or changed. */
  policy?: PolicyEffect;
  /** --since: the incident period the logs (and the metrics, with a Prometheus) were restricted to. */
  since?: DiagnosisSince;
}

export interface DiagnosisSince {
  /** ISO time the period starts. */
  from: string;
  seconds: number;
  /** What the period restricted: logs always; metrics when a Prometheus answered. */
  logs: 'restricted to the period' | 'no log read';
  metrics: string;
  /**
   * With --report only (never a tool result): SVG charts of the period's metrics that moved the harmful way, one
   * line per node with the change marked, for the hand-over report.
   */
  charts?: { title: string; caption: string; svg: string }[];
}

export interface HostWindowResult {
  target: string;
  nodes: string[];
  window?: HostWindow;
  error?: string;
}

export interface DiagnosisWindow {
  /** Asked for. */
  requestedSeconds: number;
  /** Between the starts of the two sweeps (the first sweep may take longer than the window asked for). */
  seconds: number;
  /** How long the first sweep took: a window cannot be shorter than one sweep. */
  firstSweepSeconds: number;
  nodes: NodeWindowRates[];
  hosts: HostWindowResult[];
  /** Why window latency is or is not given. */
  latency: string;
  notes: string[];
  /** Wall-clock ends of the window (ISO 8601), so reports can put it on a time axis; absent in older results. */
  startedAt?: string;
  endedAt?: string;
  /** Per node, the worst user-table p99 the last sweep read (the nodes' recent figures, not a window histogram). */
  nodeLatency?: NodeRecentLatency[];
  /** The hot-partition sample taken during the wait (nodetool profileload per node); absent when not attempted. */
  profileload?: WindowProfileLoad;
}

export interface WindowProfileLoad {
  /** How long each node sampled (ms); null when the window was too short (`note` says why). */
  durationMs: number | null;
  nodes: ProfileSample[];
  note?: string;
}

export interface NodeRecentLatency {
  node: string;
  readP99Ms: number | null;
  readTable: string | null;
  writeP99Ms: number | null;
  writeTable: string | null;
  /** "coordinator" (requests this node coordinated, 4.1+) or "local" (replica reads and writes). */
  scope: 'coordinator' | 'local' | null;
}
