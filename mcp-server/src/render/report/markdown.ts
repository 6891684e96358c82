/**
 * The incident report as one Markdown file to hand over (a ticket, a chat, a repository). Charts are inline SVG
 * images (data: URIs, nothing fetched); the numbers they draw are also in the window section as text, for viewers
 * that show no images. Every value is escaped: cluster data must not become markup.
 */
import type { Finding } from '../../core/findings.js';
import type { DiagnosisReport } from '../../core/reports/diagnosis.js';
import { escapeMarkdown as md } from './escape.js';
import { reportModel, type ReportModel } from './model.js';

const svgImage = (svg: string, alt: string) => `![${md(alt)}](data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')})`;

function finding(f: Finding, n: number): string[] {
  const where = [f.node, f.table]
    .filter((x): x is string => !!x)
    .map(md)
    .join(' · ');
  const out = [`### ${n}. ${f.severity.toUpperCase()}: ${md(f.title)}`, ''];
  out.push(`- Rule: \`${f.id.replace(/`/g, "'")}\`${where ? ` — ${where}` : ''} · confidence ${f.confidence}${f.when ? ` · ${md(f.when)}` : ''}`);
  if (f.sources?.length) out.push(`- Sources: ${f.sources.map(md).join(', ')}`);
  const evidence = f.evidence.filter((e) => !e.startsWith('→ '));
  if (evidence.length) out.push('- Evidence:', ...evidence.map((e) => `  - ${md(e)}`));
  for (const e of f.chain?.effects ?? []) out.push(`- Likely effect [${e.severity}]: ${md(e.title)}${e.evidence[0] ? ` — ${md(e.evidence[0])}` : ''}`);
  if (f.chain) out.push(`  - Why these follow from it: ${md(f.chain.reason)}`);
  out.push(`- Recommendation: ${md(f.recommendation)}`);
  if (f.knowledgeIds.length) out.push(`- Knowledge: ${f.knowledgeIds.map((k) => `\`${k.replace(/`/g, "'")}\``).join(', ')}`);
  return [...out, ''];
}

export function markdownFromModel(m: ReportModel): string {
  const out: string[] = [`# ${md(m.title)}`, '', '| | |', '|---|---|', ...m.summary.map(([k, v]) => `| ${md(k)} | ${md(v)} |`), ''];
  for (const w of m.warnings) out.push(`> ⚠ ${md(w)}`, '');
  out.push(`## Findings, worst first (${m.findings.length})`, '');
  if (!m.findings.length) out.push('No findings: every check that could run passed (see below for those that could not).', '');
  m.findings.forEach((f, i) => out.push(...finding(f, i + 1)));
  if (m.window) {
    // List markers of the window's text lines stay Markdown; what follows them is escaped.
    const lines = m.window.lines.map((l) => {
      const item = /^(\s*- )(.*)$/.exec(l);
      return item ? item[1]! + md(item[2]!) : md(l);
    });
    out.push('## The window', '', ...lines, '');
    for (const c of m.window.charts) out.push(`### ${md(c.title)}`, '', svgImage(c.svg, c.title), '', `_${md(c.caption)}_`, '');
  }
  if (m.periodCharts.length) {
    out.push('## Metrics of the incident period', '');
    for (const c of m.periodCharts) out.push(`### ${md(c.title)}`, '', svgImage(c.svg, c.title), '', `_${md(c.caption)}_`, '');
  }
  out.push('## What was checked', '');
  out.push(...m.checked.map((c) => `- ✓ \`${c.rule}\`: ${md(c.checks)}${c.findings ? ` — ${c.findings} finding(s)` : ''}`), '');
  out.push(`## Not checked (${m.notChecked.length})`, '');
  const notChecked = m.notChecked.map((c) => `- \`${c.rule}\`: ${md(c.checks)} — not checked: ${md(c.reason)}`);
  out.push(...(notChecked.length ? notChecked : ['Every rule could run.']), '');
  if (m.references.length) {
    out.push('## Knowledge cited', '');
    for (const r of m.references) {
      out.push(`- \`${r.id}\`: ${md(r.statement)}`);
      for (const s of r.sources) out.push(`  - ${md(s.title)}${s.url ? `: ${md(s.url)}` : ''}`);
    }
    out.push('');
  }
  out.push('## Raw outputs', '', md(m.raw), '', `_Written by ${md(m.generatedBy)}._`, '');
  return out.join('\n');
}

export function renderReportMarkdown(r: DiagnosisReport, generatedBy: string): string {
  return markdownFromModel(reportModel(r, generatedBy));
}
