import type { Finding } from '../core/findings.js';
import { KIND_MODULES } from '../core/kinds/registry.js';
import type { LogFacts } from '../core/parse/logs/types.js';
import type { NodetoolInfo } from '../core/parse/nodetool/info.js';
import type { NodetoolStatus } from '../core/parse/nodetool/status.js';
import type { NodetoolRing } from '../core/parse/nodetool/ring.js';
import type { NodetoolVersion } from '../core/parse/nodetool/version.js';
import type { InterpretPartReport, InterpretReport } from '../core/reports/interpret.js';
import { renderInfo, renderStatus, renderVersion } from './nodetool.js';

/** One or two lines saying what the parsed output holds. */
export function summariseParsed(kind: string, value: unknown): string {
  switch (kind) {
    case 'nodetool.status':
      return renderStatus(value as NodetoolStatus).split('\n')[0]!;
    case 'nodetool.info':
      return renderInfo(value as NodetoolInfo)
        .split('\n')
        .slice(0, 3)
        .join(' · ');
    case 'nodetool.version':
      return renderVersion(value as NodetoolVersion);
    case 'nodetool.ring': {
      const r = value as NodetoolRing;
      const states = new Map<string, number>();
      for (const n of r.nodes) states.set(`${n.status} ${n.state}`, (states.get(`${n.status} ${n.state}`) ?? 0) + 1);
      const dcs = r.datacenters.length ? `in ${r.datacenters.length} DC(s)` : '(no datacenter line)';
      return `${r.nodes.length} node(s) ${dcs}, ${r.entries.length} token row(s): ${[...states].map(([k, c]) => `${c} ${k}`).join(', ') || 'none'}`;
    }
    case 'logs': {
      const l = value as LogFacts;
      const busy = Object.values(l.events)
        .filter((e) => e.count > 0)
        .map((e) => `${e.kind} ${e.count}`);
      return `${l.source.kind} (${l.source.product}), ${l.lines.total} lines${l.time.firstTime ? ` from ${l.time.firstTime} to ${l.time.lastTime}` : ''}; events: ${busy.join(', ') || 'none'}${l.notes.length ? `. Note: ${l.notes.slice(0, 2).join('; ')}` : ''}`;
    }
    default: {
      const own = KIND_MODULES.find((m) => m.kind === kind)?.summary;
      if (own) return own(value);
      const v = value as Record<string, unknown>;
      const parts = Object.entries(v)
        .filter(([, x]) => Array.isArray(x) || typeof x === 'number')
        .slice(0, 4)
        .map(([k, x]) => `${k}: ${Array.isArray(x) ? `${x.length} item(s)` : String(x)}`);
      return `${kind}${parts.length ? ` (${parts.join(', ')})` : ''}`;
    }
  }
}

/** What each paste wrapper is called in a sentence ("read after stripping markdown quotes and …"). */
const WRAPPER_WORDS: Record<string, string> = {
  crlf: 'CRLF line ends',
  'code-fence': 'code fences',
  'md-quote': 'markdown quotes',
  backticks: 'inline-code backticks',
  indent: 'a common indentation',
  'sct-prefix': 'the SCT test-harness prefix',
  'harness-prefix': 'the test-harness prefix',
  syslog: 'syslog prefixes',
  journald: 'journald prefixes',
  'kubectl-prefix': 'kubectl --prefix pod names',
  kibana: 'Kibana timestamp columns',
  'grep-prefix': 'grep file/line prefixes',
  'line-gutter': 'a line-number gutter',
  'diff-added': "a diff's '+' marks",
  'md-bold': 'markdown bold (**…**) around each line',
};

export function describeCleaning(applied: readonly string[]): string {
  const words = [...new Set(applied.map((a) => WRAPPER_WORDS[a] ?? a))];
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

export function renderFinding(f: Finding): string {
  const where = [f.node, f.table].filter(Boolean).join(' ');
  return [
    `- **${f.severity.toUpperCase()}** ${f.title}${where ? ` — ${where}` : ''}`,
    ...f.evidence.slice(0, 4).map((e) => `  - ${e}`),
    ...(f.evidence.length > 4 ? [`  - … ${f.evidence.length - 4} more`] : []),
    `  - Fix: ${f.recommendation}`,
    ...(f.knowledgeIds.length ? [`  - Knowledge: ${f.knowledgeIds.join(', ')}`] : []),
  ].join('\n');
}

export function renderChecked(checked: InterpretReport['checked']): string {
  return checked
    .map((c) => (c.checked ? `✓ ${c.rule}: ${c.checks}${c.findings ? ` — ${c.findings} finding(s)` : ''}` : `– ${c.rule}: not checked (${c.skippedBecause})`))
    .join('\n');
}

export function renderInterpret(r: InterpretReport): string {
  if (!r.ok) return `${r.summary}\nSupported: ${(r.supported ?? []).join(', ')}`;
  if (r.parts && r.parts.length > 1) return renderParts(r, r.parts);
  const head = `${r.kind}${r.version ? ` ${r.version}` : ''}: ${r.summary}`;
  const body = r.findings.length ? r.findings.map(renderFinding).join('\n') : 'No findings: nothing in this output crossed a threshold.';
  return `${head}\n\n${body}${renderNotesAndWarnings(r)}\n\nChecked:\n${renderChecked(r.checked)}`;
}

const MAX_LISTED = 12;

/**
 * A titled list, the first 12 items shown and the rest counted: the output's own notes (nodetool's "Note:" lines, a
 * negative size that is a counter bug) and what the parser could not read or had to assume — said, not hidden.
 */
function renderList(title: string, items: readonly string[] | undefined): string {
  if (!items?.length) return '';
  const shown = items.slice(0, MAX_LISTED).map((x) => `- ${x}`);
  const more = items.length > MAX_LISTED ? [`- … and ${items.length - MAX_LISTED} more (--json lists them all)`] : [];
  return `\n\n${title}:\n${[...shown, ...more].join('\n')}`;
}

/** Notes, then warnings, between the findings and the checks. */
const renderNotesAndWarnings = (r: { notes?: string[]; warnings: string[] }) =>
  `${renderList('Notes', r.notes)}${renderList('Read with warnings', r.warnings)}`;

/** A multi-output paste: one section per output, in paste order. */
function renderParts(r: InterpretReport, parts: InterpretPartReport[]): string {
  const sections = parts.map((p, i) => {
    const named = p.command ? `, \`${p.command.slice(0, 120)}\`` : p.heading ? `, "${p.heading.slice(0, 120)}"` : '';
    const where = `lines ${p.lines.from}–${p.lines.to}${named}`;
    if (!p.ok) return `## Part ${i + 1} (${where}): not recognised\n${p.summary}`;
    const body = p.findings.length ? p.findings.map(renderFinding).join('\n') : 'No findings: nothing in this output crossed a threshold.';
    return `## Part ${i + 1} (${where}): ${p.kind}${p.version ? ` ${p.version}` : ''}\n${p.summary}\n\n${body}${renderNotesAndWarnings(p)}\n\nChecked:\n${renderChecked(p.checked)}`;
  });
  return `${r.summary}\n\n${sections.join('\n\n')}`;
}
