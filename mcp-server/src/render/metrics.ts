import { describeChange, formatValue, type MetricsAnalysis } from '../core/metrics/analyse.js';
import { worstFirst } from '../core/findings.js';
import { markdownTable } from './markdown-table.js';

interface MetricsView extends MetricsAnalysis {
  source: string;
  scrapeIntervalS: number;
  scrapeFailures?: { instance: string; failed: number; of: number; error: string }[];
}

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

/** The metrics window as text: findings first, then what changed when, then a summary per node (never raw points). */
export function renderMetrics(r: MetricsView): string {
  const w = r.window;
  const out: string[] = [
    `Metrics ${w.label}: ${iso(w.start)} to ${iso(w.end)} from ${r.source} (${r.exporters.join(', ')} exporter naming; scrape ${r.scrapeIntervalS} s, step ${w.step} s)`,
  ];
  const findings = worstFirst(r.findings);
  out.push('', findings.length ? `Findings (${findings.length}):` : 'No signal moved the wrong way in this window.');
  for (const f of findings) {
    out.push(`- [${f.severity}] ${f.title}`);
    for (const e of f.evidence) out.push(`    ${e}`);
    out.push(`    → ${f.recommendation}`);
  }
  if (r.changes.length) {
    out.push('', 'Changes, earliest first:');
    for (const c of r.changes.slice(0, 30)) out.push(`- ${describeChange(c)}${c.bad ? '' : ' (not the harmful direction)'}`);
    if (r.changes.length > 30) out.push(`- … ${r.changes.length - 30} more`);
  }
  for (const n of r.nodes) {
    out.push('', `${n.node}:`);
    out.push(
      markdownTable(
        ['signal', 'min', 'median', 'p99', 'max', 'gaps', 'change'],
        n.signals.map((s) => [
          `${s.title} (${s.exporter})`,
          formatValue(s.summary.min, s.unit),
          formatValue(s.summary.median, s.unit),
          formatValue(s.summary.p99, s.unit),
          formatValue(s.summary.max, s.unit),
          s.summary.gaps,
          s.change ? `${s.change.direction} at ${iso(s.change.start).slice(11)}` : '',
        ]),
      ),
    );
  }
  if (r.tables?.length) {
    out.push('', 'Per table (the tables that moved or are worst; the others are summarised, not listed):');
    for (const v of r.tables) {
      out.push(`- ${v.title} (${v.exporter}): ${v.series} series over ${v.tables} table(s)`);
      for (const t of v.top) {
        const c = t.change;
        const moved = c
          ? `${c.direction === 'up' ? 'rose' : 'fell'} ${formatValue(c.baseline, v.unit)} → ${formatValue(c.during, v.unit)} ` +
            `from ${iso(c.start).slice(11)}${c.end === null ? ' on' : ` to ${iso(c.end).slice(11)}`}; `
          : '';
        out.push(`    ${t.table} on ${t.node}: ${moved}median ${formatValue(t.summary.median, v.unit)}, p99 ${formatValue(t.summary.p99, v.unit)} (${t.why})`);
      }
      if (v.leftOut > 0) out.push(`    … ${v.leftOut} more series not listed`);
    }
  }
  for (const f of r.scrapeFailures ?? []) out.push('', `Scrape of ${f.instance} failed ${f.failed} of ${f.of} times: ${f.error}`);
  if (r.missing.length) out.push('', `Not measured: ${r.missing.map((m) => `${m.exporter} ${m.signal} (${m.reason})`).join('; ')}`);
  return out.join('\n');
}
