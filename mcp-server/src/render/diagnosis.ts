import { printableKey } from '../core/rules/hot-partition.js';
import { describePolicy } from '../core/rules/policy.js';
import type { Finding } from '../core/findings.js';
import type { DiagnosisReport, DiagnosisWindow } from '../core/reports/diagnosis.js';
import { renderChecked } from './interpret.js';

const r1 = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(1));

/** One finding: title, the sources that agree, evidence (capped unless detail), the chain it leads, fix, knowledge. */
function renderDiagnosisFinding(f: Finding, detail: boolean): string {
  const where = [f.node, f.table].filter(Boolean).join(' ');
  const cap = detail ? Infinity : 5;
  const effects = f.chain?.effects ?? [];
  // Effects are shown as their own lines below, not again among the evidence.
  const evidence = f.evidence.filter((e) => !e.startsWith('→ '));
  return [
    `- **${f.severity.toUpperCase()}** ${f.title}${where ? ` — ${where}` : ''}`,
    ...(f.sources && f.sources.length > 1 ? [`  - ${f.sources.length} sources agree: ${f.sources.join(', ')}`] : []),
    ...evidence.slice(0, cap).map((e) => `  - ${e}`),
    ...(evidence.length > cap ? [`  - … ${evidence.length - cap} more`] : []),
    ...effects.map((e) => `  - → likely effect [${e.severity}] ${e.title}${e.evidence[0] ? `: ${e.evidence[0]}` : ''}`),
    `  - Fix: ${f.recommendation}`,
    ...(f.knowledgeIds.length ? [`  - Knowledge: ${f.knowledgeIds.join(', ')}`] : []),
  ].join('\n');
}

/** The window: per-node rates and per-host iostat/CPU lines, compact. */
export function renderWindow(w: DiagnosisWindow): string[] {
  const out = [`Window: ${w.seconds.toFixed(1)} s between two sweeps (asked ${w.requestedSeconds} s)`];
  for (const n of w.nodes) {
    const ops = [
      n.coordinatorReadsPerS !== null || n.coordinatorWritesPerS !== null
        ? `coordinator ${r1(n.coordinatorReadsPerS ?? 0)} reads/s + ${r1(n.coordinatorWritesPerS ?? 0)} writes/s`
        : null,
      n.localReadsPerS !== null || n.localWritesPerS !== null ? `local ${r1(n.localReadsPerS ?? 0)} reads/s + ${r1(n.localWritesPerS ?? 0)} writes/s` : null,
      n.droppedPerS !== null ? `dropped ${r1(n.droppedPerS)}/s` : null,
      n.blockedPerS !== null ? `blocked ${r1(n.blockedPerS)}/s` : null,
      n.gcMsPerS !== null ? `GC ${r1(n.gcMsPerS)} ms/s (max pause ${n.gcMaxPauseMs ?? '?'} ms)` : null,
      n.compactedBytesPerS !== null ? `compacted ${r1(n.compactedBytesPerS / 1024 / 1024)} MiB/s` : null,
    ].filter(Boolean);
    out.push(`- ${n.node}: ${ops.join(' · ') || 'no counters read twice'}`);
    const top = n.tables.slice(0, 3).map((t) => `${t.table} ${r1(t.readsPerS ?? 0)} r/s ${r1(t.writesPerS ?? 0)} w/s`);
    if (top.length) out.push(`  - busiest tables: ${top.join('; ')}`);
  }
  for (const h of w.hosts) {
    const who = `${h.target} (${h.nodes.join(', ')})`;
    if (!h.window) {
      out.push(`- host ${who}: not sampled: ${h.error}`);
      continue;
    }
    const c = h.window.cpu;
    const cpu = c
      ? `CPU user ${r1(c.userPct)} % sys ${r1(c.systemPct)} % iowait ${r1(c.iowaitPct)} % steal ${r1(c.stealPct)} % idle ${r1(c.idlePct)} %`
      : 'CPU not read';
    const vm = `major faults ${r1(h.window.majorFaultsPerS ?? 0)}/s, swap in/out ${r1(h.window.swapInPagesPerS ?? 0)}/${r1(h.window.swapOutPagesPerS ?? 0)} pages/s`;
    const load = h.window.load ? `, load ${h.window.load.one}` : '';
    out.push(`- host ${who}: ${cpu}; ${vm}${load}`);
    const busy = h.window.disks
      .filter((d) => d.iops > 0)
      .sort((a, b) => b.utilPct - a.utilPct)
      .slice(0, 4);
    for (const d of busy) {
      out.push(
        `  - ${d.device}: ${r1(d.iops)} IOPS, ${r1(d.mbPerS)} MB/s, ${r1(d.avgRequestKB)} kB/request, await r ${r1(d.rAwaitMs)} w ${r1(d.wAwaitMs)} ms, ` +
          `aqu-sz ${d.aquSz.toFixed(2)} (Little's law ${d.littlesLawQueue.toFixed(2)}), util ${r1(d.utilPct)} %`,
      );
    }
    for (const n of h.window.notes) out.push(`  - note: ${n}`);
  }
  out.push(...renderProfileLoad(w.profileload));
  out.push(`- latency: ${w.latency}`);
  for (const n of w.notes) out.push(`- note: ${n}`);
  return out;
}

/** The window's partition sample: per node the most frequent keys it saw, so a report shows what a hot key finding read. */
function renderProfileLoad(p: DiagnosisWindow['profileload']): string[] {
  if (!p) return [];
  if (p.durationMs === null) return [`- partition sample: not taken: ${p.note ?? 'the window was too short'}`];
  const out = [`- partition sample: nodetool profileload for ${r1(p.durationMs / 1000)} s on each node`];
  for (const n of p.nodes) {
    if (n.error || !n.samplers) {
      out.push(`  - ${n.node}: no sample: ${n.error ?? 'nothing printed'}`);
      continue;
    }
    const parts = (['reads', 'writes'] as const).flatMap((s) => {
      const rows = (n.samplers![s] ?? []).slice(0, 3);
      return rows.length ? [`${s}: ${rows.map((r) => `${r.table} ${printableKey(r.partition)} ×${r.count}`).join(', ')}`] : [];
    });
    out.push(`  - ${n.node}: ${parts.join('; ') || 'no user-table partition sampled'}`);
  }
  if (p.note) out.push(`  - note: ${p.note}`);
  return out;
}

/**
 * A diagnosis as the assistant reads it: worst first, each finding with its evidence and fix. Compact by
 * default (info findings folded, evidence capped) so a 3-node cluster fits in about 1,500 words.
 */
export function renderDiagnosis(r: DiagnosisReport, opts: { detail?: boolean } = {}): string {
  const out: string[] = [];
  const state = r.nodes.map((n) => `${n.address}${n.status === 'complete' ? '' : ` (${n.status})`}`).join(', ');
  out.push(
    `Diagnosis of ${r.origin}: ${r.nodes.length} node(s) [${state}], version(s) ${r.versions.join(', ') || 'unknown'}, collected ${r.collectedAt} in ${(r.durationMs / 1000).toFixed(1)} s`,
  );
  out.push(
    `Findings: ${r.counts.critical} critical, ${r.counts.warning} warning, ${r.counts.info} info${r.bundleDir ? ` · raw outputs in ${r.bundleDir}` : ''}`,
  );
  if (r.bundleError)
    out.push(`⚠ raw outputs not saved [${r.bundleError.code}]: ${r.bundleError.message} (fix: ${r.bundleError.fix}); the diagnosis is complete`);
  for (const w of r.warnings ?? []) out.push(`⚠ ${w}`);
  const shown = opts.detail ? r.findings : r.findings.filter((f) => f.severity !== 'info');
  const folded = r.findings.length - shown.length;
  out.push('');
  if (!r.findings.length) out.push('No findings: every check below passed.');
  const limit = opts.detail ? Infinity : 25;
  out.push(...shown.slice(0, limit).map((f) => renderDiagnosisFinding(f, opts.detail === true)));
  if (shown.length > limit) out.push(`… ${shown.length - limit} more findings (detail: true for all)`);
  if (folded)
    out.push(
      `(${folded} info finding(s) not shown: ${[...new Set(r.findings.filter((f) => f.severity === 'info').map((f) => f.id))].join(', ')}; detail: true shows them)`,
    );
  if (r.since) out.push(`Period since ${r.since.from}: logs ${r.since.logs}; metrics: ${r.since.metrics}`);
  if (r.policy) out.push('', ...describePolicy(r.policy));
  if (r.window) out.push('', ...renderWindow(r.window));
  out.push('', 'Checked:', renderChecked(r.checked));
  return out.join('\n');
}
