/**
 * What an incident report says, whatever its format: the summary, the findings worst first, the knowledge they
 * cite, what was checked and what could not be, the window (text and charts) and where the raw outputs are.
 * Values stay raw strings here; each format escapes them its own way (cluster data is untrusted).
 */
import type { Finding } from '../../core/findings.js';
import { hasKnowledge, knowledge } from '../../core/knowledge/index.js';
import type { DiagnosisReport } from '../../core/reports/diagnosis.js';
import { renderWindow } from '../diagnosis.js';
import { windowCharts, type WindowChart } from './window-charts.js';
import { describePolicy } from '../../core/rules/policy.js';

export interface ReportReference {
  id: string;
  statement: string;
  sources: { title: string; url: string | null }[];
}

export interface ReportModel {
  title: string;
  summary: [label: string, value: string][];
  warnings: string[];
  findings: Finding[];
  references: ReportReference[];
  checked: { rule: string; checks: string; findings: number }[];
  notChecked: { rule: string; checks: string; reason: string }[];
  window: { lines: string[]; charts: WindowChart[] } | null;
  /** --since with a Prometheus and --report: the period's metrics that moved the harmful way. */
  periodCharts: WindowChart[];
  /** Where the raw outputs are, or why there are none. */
  raw: string;
  generatedBy: string;
}

function references(findings: Finding[]): ReportReference[] {
  const ids = [...new Set(findings.flatMap((f) => [...f.knowledgeIds, ...(f.chain?.effects ?? []).flatMap((e) => e.knowledgeIds)]))].sort();
  return ids.map((id) => {
    if (!hasKnowledge(id)) return { id, statement: '(not in this version of the knowledge base)', sources: [] };
    const e = knowledge(id);
    return { id, statement: e.statement, sources: e.sources.map((s) => ({ title: s.title, url: s.url ?? s.ref ?? null })) };
  });
}

function rawLocation(r: DiagnosisReport): string {
  if (r.bundleDir) return `Raw outputs (a bundle, re-diagnose with \`cql-tuner diagnose --bundle DIR\`): ${r.bundleDir}`;
  if (r.bundleError) return `Raw outputs were not saved [${r.bundleError.code}]: ${r.bundleError.message} (fix: ${r.bundleError.fix})`;
  return 'Raw outputs were not saved: run diagnose with --save DIR to keep them as a bundle next to this report.';
}

/** `generatedBy` names the tool and version; the caller passes it so this stays free of package lookups. */
export function reportModel(r: DiagnosisReport, generatedBy: string): ReportModel {
  const nodes = r.nodes.map((n) => `${n.address}${n.datacenter ? ` (${n.datacenter})` : ''}${n.status === 'complete' ? '' : ` — ${n.status}`}`);
  const w = r.window;
  const since = r.since;
  const span = w ? `${w.seconds.toFixed(1)} s between two sweeps (asked ${w.requestedSeconds} s)${w.startedAt ? `, from ${w.startedAt}` : ''}` : null;
  const summary: [string, string][] = [
    ['Cluster', r.clusterName ? `${r.clusterName} — ${r.origin}` : r.origin],
    ['Nodes', `${r.nodes.length}: ${nodes.join(', ')}`],
    ['Versions', r.versions.join(', ') || 'unknown (no node reported its version)'],
    ['Collected', `${r.collectedAt} (sweep took ${(r.durationMs / 1000).toFixed(1)} s)`],
    ['Window', span ?? 'none: one instant sweep (a saved bundle, or --window 0), so no rates and no charts'],
    ...(since ? [['Incident period', `from ${since.from} (${since.seconds} s): logs ${since.logs}; metrics ${since.metrics}`] as [string, string]] : []),
    ['Findings', `${r.counts.critical} critical, ${r.counts.warning} warning, ${r.counts.info} info`],
    // A report quieted by the operator's own policy says so where a reader looks first.
    ...(r.policy
      ? [
          [
            'Rule policy',
            describePolicy(r.policy)
              .map((l) => l.trim().replace(/^- /, ''))
              .join('; '),
          ] as [string, string],
        ]
      : []),
  ];
  const first = r.findings[0];
  return {
    title: `cql-tuner diagnosis: ${first ? first.title : 'no findings'}`,
    summary,
    warnings: r.warnings ?? [],
    // Worst first; within a severity the order correlation chose (causes before their symptoms) is kept.
    findings: [...r.findings].sort((a, b) => rank(a) - rank(b)),
    references: references(r.findings),
    checked: r.checked.filter((c) => c.checked).map((c) => ({ rule: c.rule, checks: c.checks, findings: c.findings })),
    notChecked: r.checked.filter((c) => !c.checked).map((c) => ({ rule: c.rule, checks: c.checks, reason: c.skippedBecause ?? 'no reason given' })),
    window: w ? { lines: renderWindow(w), charts: windowCharts(w, r.collectedAt) } : null,
    periodCharts: since?.charts ?? [],
    raw: rawLocation(r),
    generatedBy,
  };
}

const rank = (f: Finding) => ({ critical: 0, warning: 1, info: 2 })[f.severity];
