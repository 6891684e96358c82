/**
 * The incident report as one self-contained HTML file: inline CSS and SVG, no script, nothing fetched (a
 * Content-Security-Policy of default-src 'none' says so to the browser too). Every value is HTML-escaped; the
 * charts come from the SVG chart code, which escapes its own labels.
 */
import type { Finding } from '../../core/findings.js';
import type { DiagnosisReport } from '../../core/reports/diagnosis.js';
import { escapeHtml as h } from './escape.js';
import { reportModel, type ReportModel } from './model.js';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d1d1f;max-width:960px;margin:24px auto;padding:0 16px}
h1{font-size:22px;margin:0 0 12px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
h3{font-size:15px;margin:16px 0 6px}table.summary td{padding:2px 12px 2px 0;vertical-align:top}table.summary td:first-child{color:#555}
.sev{display:inline-block;font-size:11px;font-weight:700;padding:1px 6px;border-radius:3px;color:#fff;margin-right:6px}
.critical{background:#b00020}.warning{background:#b26a00}.info{background:#476d9e}
.finding{border:1px solid #e3e3e3;border-left:4px solid #999;border-radius:4px;padding:8px 12px;margin:10px 0}
.finding.f-critical{border-left-color:#b00020}.finding.f-warning{border-left-color:#b26a00}.finding.f-info{border-left-color:#476d9e}
.meta{color:#555;font-size:12px}code{font-size:12px;background:#f4f4f4;padding:0 3px;border-radius:2px}
.warn{background:#fff4e0;border:1px solid #f0c36d;padding:6px 10px;border-radius:4px}
figure{margin:12px 0}figcaption{color:#555;font-size:12px}svg{max-width:100%;height:auto}
ul{padding-left:20px}li{margin:2px 0}.window li{font-family:ui-monospace,monospace;font-size:12px;list-style:none}
`;

const NO_FINDINGS = 'No findings: every check that could run passed (see below for those that could not).';
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

function finding(f: Finding, n: number): string {
  const where = [f.node, f.table]
    .filter((x): x is string => !!x)
    .map(h)
    .join(' · ');
  const evidence = f.evidence.filter((e) => !e.startsWith('→ '));
  const meta = [`rule <code>${h(f.id)}</code>`, ...(where ? [where] : []), `confidence ${h(f.confidence)}`, ...(f.when ? [h(f.when)] : [])].join(' · ');
  const effects = (f.chain?.effects ?? []).map((e) => {
    const first = e.evidence[0] ? ` — ${h(e.evidence[0])}` : '';
    return `<li>likely effect <span class="sev ${h(e.severity)}">${h(e.severity.toUpperCase())}</span>${h(e.title)}${first}</li>`;
  });
  return [
    `<section class="finding f-${h(f.severity)}">`,
    `<h3>${n}. <span class="sev ${h(f.severity)}">${h(f.severity.toUpperCase())}</span><span class="title">${h(f.title)}</span></h3>`,
    `<div class="meta">${meta}</div>`,
    ...(f.sources?.length ? [`<div class="meta">sources: ${f.sources.map(h).join(', ')}</div>`] : []),
    ...(evidence.length ? ['<ul class="evidence">', ...evidence.map((e) => `<li>${h(e)}</li>`), '</ul>'] : []),
    ...(effects.length ? ['<ul class="effects">', ...effects, ...(f.chain ? [`<li class="meta">${h(f.chain.reason)}</li>`] : []), '</ul>'] : []),
    `<p><strong>Recommendation:</strong> ${h(f.recommendation)}</p>`,
    ...(f.knowledgeIds.length ? [`<div class="meta">knowledge: ${f.knowledgeIds.map((k) => `<code>${h(k)}</code>`).join(', ')}</div>`] : []),
    '</section>',
  ].join('\n');
}

export function htmlFromModel(m: ReportModel): string {
  const out: string[] = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(m.title)}</title>`,
    `<style>${CSS}</style>`,
    '</head><body>',
    `<h1>${h(m.title)}</h1>`,
    '<table class="summary">',
    ...m.summary.map(([k, v]) => `<tr><td>${h(k)}</td><td>${h(v)}</td></tr>`),
    '</table>',
    ...m.warnings.map((w) => `<p class="warn">⚠ ${h(w)}</p>`),
    `<h2>Findings, worst first (${m.findings.length})</h2>`,
    ...(m.findings.length ? m.findings.map((f, i) => finding(f, i + 1)) : [`<p>${NO_FINDINGS}</p>`]),
  ];
  if (m.window) {
    // The text lines keep their indent (sub-items of a node or host).
    const lines = m.window.lines.map((l) => `<li>${h(l).replace(/^( +)/, (s) => '&nbsp;'.repeat(s.length))}</li>`);
    out.push('<h2>The window</h2>', '<ul class="window">', ...lines, '</ul>');
    for (const c of m.window.charts) out.push(`<figure>${c.svg}<figcaption>${h(c.caption)}</figcaption></figure>`);
  }
  if (m.periodCharts.length) {
    out.push('<h2>Metrics of the incident period</h2>');
    for (const c of m.periodCharts) out.push(`<h3>${h(c.title)}</h3>`, `<figure>${c.svg}<figcaption>${h(c.caption)}</figcaption></figure>`);
  }
  out.push(
    '<h2>What was checked</h2>',
    '<ul>',
    ...m.checked.map((c) => `<li>✓ <code>${h(c.rule)}</code>: ${h(c.checks)}${c.findings ? ` — ${c.findings} finding(s)` : ''}</li>`),
    '</ul>',
    `<h2>Not checked (${m.notChecked.length})</h2>`,
    ...(m.notChecked.length
      ? ['<ul>', ...m.notChecked.map((c) => `<li><code>${h(c.rule)}</code>: ${h(c.checks)} — not checked: ${h(c.reason)}</li>`), '</ul>']
      : ['<p>Every rule could run.</p>']),
  );
  if (m.references.length) {
    out.push('<h2>Knowledge cited</h2>', '<ul>');
    for (const r of m.references) {
      const src = r.sources.map((s) => `<li>${h(s.title)}${s.url ? `: <span class="meta">${h(s.url)}</span>` : ''}</li>`);
      out.push(`<li><code>${h(r.id)}</code>: ${h(r.statement)}${src.length ? `<ul>${src.join('')}</ul>` : ''}</li>`);
    }
    out.push('</ul>');
  }
  out.push('<h2>Raw outputs</h2>', `<p>${h(m.raw)}</p>`, `<p class="meta">Written by ${h(m.generatedBy)}.</p>`, '</body></html>', '');
  return out.join('\n');
}

export function renderReportHtml(r: DiagnosisReport, generatedBy: string): string {
  return htmlFromModel(reportModel(r, generatedBy));
}
