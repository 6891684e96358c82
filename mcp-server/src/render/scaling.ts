import type { ScalingPlan } from '../core/planners/scaling.js';
import { markdownTable } from './markdown-table.js';

const f = (n: number | null | undefined, d = 1) => (n === null || n === undefined ? '—' : Number.isInteger(n) ? String(n) : n.toFixed(d));

/** Compact Markdown: the formula and its reading first, then the steps, cleanup, tablets, disk, assumptions. */
export function renderScaling(p: ScalingPlan): string {
  const lines = [
    `## Scale-out ${p.fromNodes} → ${p.targetNodes} nodes (${p.targetReason})`,
    `Model: ${p.formula} (kb:scaling.bootstrap.exponent). ${p.ratioReading}`,
    `T0: ${p.t0.detail}.`,
    '',
    markdownTable(
      ['step', 'nodes', 'data/node GiB (d_k)', 'd_k/d0', 'minutes', 'cumulative', 'peak disk %'],
      p.vnodes.steps.map((s) => [
        s.step,
        `${s.fromNodes}→${s.toNodes}`,
        f(s.dataPerNodeGiB),
        f(s.ratio, 3),
        f(s.minutes),
        f(s.cumulativeMinutes),
        f(s.peakDiskUsedPct),
      ]),
    ),
    '',
    `vNodes (serial): bootstrap ${f(p.vnodes.bootstrapMinutes)} min + cleanup ${f(p.vnodes.cleanupMinutes)} min = ${f(p.vnodes.totalMinutes)} min (kb:scaling.vnodes.serial-bootstrap).`,
  ];
  if (p.tablets) lines.push(`Tablets (parallel): ${p.tablets.minutes === null ? 'n/a' : `${f(p.tablets.minutes)} min`} — ${p.tablets.detail}`);
  const d = p.disk;
  lines.push(
    d.diskGiB === null
      ? 'Disk: not checked (no disk size).'
      : `Disk (${d.diskGiB} GiB/node): ${f(d.startPct)} % now, peak ${f(d.peakPct)} % during, ${f(d.endPct)} % after; limit ${d.limitPct} % (${d.limitSource}) → ${d.verdict}.`,
  );
  if (p.warnings.length) lines.push('', ...p.warnings.map((w) => `⚠ ${w}`));
  lines.push('', 'Assumptions:', ...p.assumptions.map((a) => `- ${a}`));
  return lines.join('\n');
}
