import type { NodetoolInfo } from '../core/parse/nodetool/info.js';
import type { NodetoolStatus } from '../core/parse/nodetool/status.js';
import type { NodetoolVersion } from '../core/parse/nodetool/version.js';
import { formatBytes } from '../core/units.js';
import type { NodetoolReport } from '../core/reports/nodetool.js';
import { markdownTable } from './markdown-table.js';

const pct = (n: number | null) => (n === null ? '?' : `${n.toFixed(1)}%`);
const size = (n: number | null) => (n === null ? '?' : formatBytes(n));

export function renderStatus(s: NodetoolStatus): string {
  const down = s.nodes.filter((n) => !n.up || n.state !== 'normal');
  const head = `${s.nodes.length} node(s) in ${s.datacenters.length || 1} DC(s): ${s.nodes.filter((n) => n.code === 'UN').length} UN${down.length ? `, ${down.map((n) => `${n.code} ${n.address}`).join(', ')}` : ''}`;
  const table = markdownTable(
    ['DC', 'State', 'Address', 'Load', 'Tokens', s.ownsEffective === false ? 'Owns' : 'Owns (eff.)', 'Rack'],
    s.nodes.map((n) => [
      n.datacenter,
      n.code,
      n.storagePort === undefined ? n.address : `${n.address}:${n.storagePort}`,
      size(n.loadBytes),
      n.tokens,
      pct(n.ownsPercent),
      n.rack,
    ]),
  );
  return `${head}\n\n${table}${s.notes.length ? `\n\n${s.notes.join('\n')}` : ''}`;
}

export function renderInfo(i: NodetoolInfo): string {
  const heap =
    i.heapUsedMb !== null && i.heapMaxMb
      ? `${i.heapUsedMb.toFixed(0)} / ${i.heapMaxMb.toFixed(0)} MB (${((100 * i.heapUsedMb) / i.heapMaxMb).toFixed(0)}%)`
      : '?';
  const kc = i.keyCache?.recentHitRate;
  return [
    `Host ID ${i.hostId ?? '?'} · DC ${i.datacenter ?? '?'} / rack ${i.rack ?? '?'}`,
    `Gossip ${i.gossipActive ? 'up' : 'DOWN'} · native transport ${i.nativeTransportActive ? 'up' : 'DOWN'} · uptime ${i.uptimeSeconds ?? '?'} s`,
    `Load ${size(i.loadBytes)} · heap ${heap} · off-heap ${i.offHeapMb ?? '?'} MB · exceptions ${i.exceptions ?? '?'}`,
    `Key cache hit rate ${kc === null || kc === undefined ? 'n/a (no requests)' : kc.toFixed(3)} · percent repaired ${i.percentRepaired ?? '?'}%`,
  ].join('\n');
}

export function renderVersion(v: NodetoolVersion): string {
  if (v.product === 'dse') return `DataStax Enterprise ${v.dse} (internal Cassandra build ${v.release}, not an Apache Cassandra release)`;
  return `Release ${v.release} (${v.product})`;
}

/** Compact text for the assistant: parsed facts when there is a parser, else a short excerpt of the output. */
export function renderNodetoolReport(r: NodetoolReport): string {
  const where = `nodetool ${r.subcommand} @ ${r.host}:${r.port} (${r.durationMs} ms, via ${r.nodetool.source})`;
  const notes = (r.warnings ?? []).map((w) => `\n⚠ ${w}`).join('');
  if (r.error) return `${where}: FAILED [${r.error.code}] ${r.error.message}\nFix: ${r.error.fix}${notes}`;
  let body: string;
  if (r.parsed?.ok && r.parsed.value !== undefined) {
    if (r.subcommand === 'status') body = renderStatus(r.parsed.value as NodetoolStatus);
    else if (r.subcommand === 'info') body = renderInfo(r.parsed.value as NodetoolInfo);
    else if (r.subcommand === 'version') body = renderVersion(r.parsed.value as NodetoolVersion);
    else body = r.output.excerpt;
  } else {
    body = `${r.parsed && !r.parsed.ok ? `(not parsed: ${r.parsed.reason})\n` : ''}${r.output.excerpt}`;
  }
  const warn = r.parsed?.warnings?.length ? `\nParser warnings: ${r.parsed.warnings.join('; ')}` : '';
  return `${where}\n${body}${warn}${notes}`;
}
