/** Compact text for stress runs: started, status (latest interval), result with findings, comparison. */
import type { Finding } from '../core/findings.js';
import type { CompareResult, RunResult, StartedRun, StressStatus } from '../core/reports/stress.js';

const n0 = (v: number | null | undefined) => (v === null || v === undefined ? '?' : Math.round(v).toLocaleString('en-US'));
const n1 = (v: number | null | undefined) => (v === null || v === undefined ? '?' : Number.isInteger(v) ? String(v) : v.toFixed(1));

export function renderStarted(s: StartedRun): string {
  return [
    `Stress run ${s.id} started (${s.tool}, binary ${s.binary} from ${s.binaryFrom}).`,
    `Steps: ${s.steps.map((x) => x.name).join(' → ')}; planned ${s.plannedS !== null ? `${s.plannedS} s` : 'count-bound'}, cap ${s.capS} s.`,
    `Run folder: ${s.dir}`,
    `Poll with stress_status {"id": "${s.id}"}; stop with stress_cancel.`,
    ...s.warnings.map((w) => `Note: ${w}`),
  ].join('\n');
}

export function renderFindings(findings: Finding[], max = 8): string[] {
  return findings
    .slice(0, max)
    .map((f) => `- [${f.severity}] ${f.id}: ${f.title}${f.evidence[0] ? `\n    ${f.evidence.slice(0, 2).join('\n    ')}` : ''}\n    → ${f.recommendation}`);
}

export function renderResult(r: RunResult): string[] {
  const out: string[] = [];
  const f = r.facts;
  if (f) {
    out.push(
      `Result (${r.kind}): ${n0(f.opRate)} op/s, p50 ${n1(f.p50Ms)} ms, p99 ${n1(f.p99Ms)} ms, max ${n1(f.maxMs)} ms, errors ${n0(f.errors ?? 0)}, ${n1(f.durationS)} s, ${f.intervals.length} intervals.`,
    );
  }
  if (r.findings.length) out.push('Findings:', ...renderFindings(r.findings));
  else if (f) out.push('Findings: none.');
  if (r.serverDiff) out.push('Servers during the run:', ...r.serverDiff.explanation.map((e) => `- ${e}`));
  if (r.snapshotErrors.length) out.push(`Snapshots incomplete: ${r.snapshotErrors.join('; ')}`);
  if (r.charts.length) out.push(`Charts (SVG): ${r.charts.join(', ')}`);
  for (const w of r.warnings) out.push(`Note: ${w}`);
  return out;
}

export function renderStatus(s: StressStatus): string {
  const head = `Run ${s.id} (${s.tool}): ${s.state}${s.step ? `, step ${s.step}` : ''}, ${n1(s.elapsedS)} s elapsed${s.totalS !== null ? ` of ${s.totalS} s` : s.planned !== null ? `, ${n0(s.done)} of ${n0(s.planned)} ops` : ''} (cap ${s.capS} s).`;
  const l = s.latest;
  const lines = [head];
  if (l)
    lines.push(
      `Latest interval${l.timeS !== null ? ` at ${n1(l.timeS)} s` : ''}: ${n0(l.opRate)} op/s, p50 ${n1(l.p50Ms)} ms, p99 ${n1(l.p99Ms)} ms, errors ${n0(l.errors ?? 0)} (${s.intervals} intervals so far).`,
    );
  else if (s.state === 'running' || s.state === 'starting') lines.push('No interval reported yet.');
  if (s.error) lines.push(`Error: ${s.error}`);
  // The result repeats the run's warnings; while it runs, say them here.
  if (!s.result) for (const w of s.warnings) lines.push(`Note: ${w}`);
  if (s.result) lines.push(...renderResult(s.result));
  lines.push(`Folder: ${s.dir}`);
  return lines.join('\n');
}

export function renderCompare(c: CompareResult): string {
  return [
    `Compare B=${c.b} against A=${c.a} (bootstrap 95 % interval of the ratio of interval medians):`,
    ...c.comparison.summary.map((s) => `- ${s}`),
    ...c.comparison.warnings.map((w) => `Note: ${w}`),
    ...(c.charts.length
      ? [`Charts (SVG, A blue, B orange, PNG twins beside them): ${c.charts.join(', ')}`]
      : ['Charts: none (neither run has interval samples or percentiles).']),
    ...c.chartNotes.map((n) => `Chart note: ${n}`),
  ].join('\n');
}
