import { pushTo } from '../arrays.js';
import { parseDurationMs } from '../parse/config/units.js';
import type { NodeEvidence } from '../diagnosis/evidence.js';
import { isSystemKeyspace, timestampMs, type ClusterFacts, type RepairRunFact, type TableOptionsFact } from '../facts/from-cluster.js';
import type { Finding } from '../findings.js';
import { knowledge, numberOf, type KnowledgeId } from '../knowledge/index.js';
import { tabletRepairState, type TabletRepairFact } from '../facts/scylla-tablets.js';
import { replicationFromMap } from '../planners/token-balance.js';
import { fmtNum, outcome, skipped, type Rule } from './rule.js';
import { incrementalRepairFindings } from './repair-incremental.js';

const DAY = 86_400_000;
const EVIDENCE_LINES = 15;

/** A duration setting as the node shows it: "3h", "10800000ms", "180m" (4.1+), or bare milliseconds (…_in_ms). */
export function durationSettingMs(v: string | null | undefined): number | null {
  return v === null || v === undefined ? null : parseDurationMs(v, 1);
}

/** The hint window this node runs with, else the documented default (and where it came from). */
export function hintWindowMs(n: NodeEvidence): { ms: number; from: string } {
  const s = n.facts.settings ?? {};
  for (const key of ['max_hint_window', 'max_hint_window_in_ms']) {
    const ms = durationSettingMs(s[key]);
    if (ms !== null && ms > 0) return { ms, from: `${key} = ${s[key]}` };
  }
  const unit = knowledge('hints.max-window.default').unit ?? 's';
  const v = numberOf('hints.max-window.default');
  const ms = durationSettingMs(`${v}${unit === 'h' ? 'h' : unit === 'ms' ? 'ms' : unit === 'min' ? 'm' : 's'}`) ?? v * 1000;
  return { ms, from: `default ${v} ${unit}` };
}

const days = (ms: number) => fmtNum(ms / DAY, 1);

function clusterFacts(input: { nodes: NodeEvidence[] }): ClusterFacts | null {
  const all = input.nodes.map((n) => n.facts.cluster).filter((c): c is ClusterFacts => !!c);
  if (!all.length) return null;
  // One node reads the cluster tables; merged in case a bundle split them.
  return all.reduce((acc, c) => ({ ...acc, ...Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) }), {} as ClusterFacts);
}

/**
 * Repair, hints and tombstone expiry: the last successful repair of each table against its gc_grace_seconds
 * (Cassandra parent_repair_history, ScyllaDB system.repair_history), ScyllaDB tombstone_gc modes that keep
 * tombstones until a repair that does not come, failed repair sessions, and hints per target node against
 * max_hint_window ("node X was down longer than the hint window: repair it").
 */
export const repairRule: Rule = {
  id: 'repair',
  checks:
    'last successful repair per table vs gc_grace_seconds, ScyllaDB tombstone_gc mode, failed repairs, pending hints per target vs max_hint_window, incremental repair state (tablestats percent repaired)',
  run(input) {
    const cluster = clusterFacts(input);
    const hintNodes = input.nodes.filter((n) => n.facts.pendingHints !== undefined);
    const tablestats = input.nodes.some((n) => n.nodetool.tablestats);
    if (!cluster?.repairs && !cluster?.tableOptions && !hintNodes.length && !tablestats) {
      return skipped('repair', 'no repair history, table options (gc_grace_seconds), pending hints or tablestats were read');
    }
    const findings: Finding[] = [];
    if (cluster?.repairs && cluster.tableOptions) findings.push(...tableRepairFindings(cluster));
    if (cluster?.repairs) findings.push(...failedRepairFindings(cluster.repairs));
    if (cluster?.tableOptions) findings.push(...tombstoneModeFindings(cluster));
    if (cluster) findings.push(...tabletStateFindings(cluster));
    findings.push(...hintFindings(hintNodes, cluster));
    findings.push(...incrementalRepairFindings(input.nodes));
    return outcome('repair', findings);
  },
};

/** Keyspaces whose data has more than one replica (repair has something to reconcile). */
function replicatedKeyspaces(c: ClusterFacts): Set<string> | null {
  if (!c.keyspaces) return null;
  const out = new Set<string>();
  for (const k of c.keyspaces) {
    const r = replicationFromMap(k.replication);
    const total = r.strategy === 'simple' ? r.rf : r.strategy === 'network' ? Object.values(r.perDc).reduce((a, b) => a + b, 0) : 0;
    if (total > 1) out.add(k.name);
  }
  return out;
}

type LastRepair = { ms: number; run: RepairRunFact };

/** The last successful run of each table: its own, or its keyspace's whole-keyspace run that did not leave it out. */
function lastRepairs(repairs: readonly RepairRunFact[]): (keyspace: string, table: string) => LastRepair | undefined {
  const own = new Map<string, LastRepair>();
  const wholeKeyspace = new Map<string, LastRepair[]>();
  for (const r of repairs) {
    const ms = r.ok ? timestampMs(r.finishedAt) : null;
    if (ms === null) continue;
    if (r.tables.length === 0) pushTo(wholeKeyspace, r.keyspace, { ms, run: r });
    for (const t of r.tables) if ((own.get(`${r.keyspace}.${t}`)?.ms ?? -Infinity) < ms) own.set(`${r.keyspace}.${t}`, { ms, run: r });
  }
  return (keyspace, table) => {
    let best = own.get(`${keyspace}.${table}`);
    for (const k of wholeKeyspace.get(keyspace) ?? []) if (!k.run.excludedTables?.includes(table) && (best?.ms ?? -Infinity) < k.ms) best = k;
    return best;
  };
}

const HISTORY_NAME: Record<RepairRunFact['source'], string> = {
  parent_repair_history: 'system_distributed.parent_repair_history',
  'scylla.repair_history': 'system.repair_history',
  'scylla.tablets': 'system.tablets (repair_time per tablet)',
  reaper: "Reaper's repair_run",
};

/** Where the history came from, and how many days it covers (null: as long as the cluster kept it). */
function historyScope(c: ClusterFacts): { names: string; days: number | null; knowledgeIds: KnowledgeId[] } {
  const kinds = [...new Set([...(c.repairSources ?? []), ...(c.repairs ?? []).map((r) => r.source)])];
  if (!kinds.length) kinds.push('parent_repair_history');
  const retention = (k: RepairRunFact['source']) =>
    k === 'parent_repair_history' ? numberOf('repair.history-ttl') : k === 'reaper' ? numberOf('repair.reaper-history-days') : null;
  const spans = kinds.map(retention);
  const days = spans.some((d) => d === null) ? null : Math.max(...(spans as number[]));
  const knowledgeIds: KnowledgeId[] = [];
  if (kinds.includes('parent_repair_history')) knowledgeIds.push('repair.history-ttl');
  if (kinds.includes('reaper')) knowledgeIds.push('repair.reaper-history-days');
  if (kinds.includes('scylla.tablets')) knowledgeIds.push('scylla.tablets.repair-time');
  return { names: kinds.map((k) => HISTORY_NAME[k]).join(' and '), days, knowledgeIds };
}

function tableRepairFindings(c: ClusterFacts): Finding[] {
  const repairs = c.repairs ?? [];
  const replicated = replicatedKeyspaces(c);
  const last = lastRepairs(repairs);
  const newest = repairs.map((r) => timestampMs(r.finishedAt)).filter((x): x is number => x !== null);
  const nowMs = timestampMs(c.nodeNow) ?? (newest.length ? newest.reduce((a, b) => Math.max(a, b)) : null);
  const nowFrom = c.nodeNow
    ? `node clock ${c.nodeNow}`
    : nowMs !== null
      ? `newest repair in the history (${new Date(nowMs).toISOString()}; no node clock read)`
      : null;
  const scope = historyScope(c);
  const historySrc = scope.names;
  const ttlDays = scope.days;

  const tabletNote = tabletNoteOf(c);
  const never = new Map<string, string[]>();
  const overdue = new Map<string, string[]>();
  const young: string[] = [];
  let partial = false;
  for (const t of c.tableOptions ?? []) {
    if (isSystemKeyspace(t.keyspace) || (replicated && !replicated.has(t.keyspace))) continue;
    // repair/disabled/immediate modes do not expire tombstones by gc_grace_seconds (see tombstoneModeFindings).
    if (t.tombstoneGcMode && t.tombstoneGcMode !== 'timeout') continue;
    const grace = t.gcGraceSeconds;
    if (grace === null || grace <= 0) continue;
    const best = last(t.keyspace, t.table);
    if (!best) {
      // A table younger than its gc_grace_seconds cannot be overdue yet: its tombstones have not become purgeable.
      const created = timestampMs(t.createdAt ?? null);
      if (created !== null && nowMs !== null && nowMs - created < grace * 1000) {
        young.push(`${t.keyspace}.${t.table}: created ${t.createdAt} (${days(nowMs - created)} d ago), gc_grace_seconds ${grace} (${days(grace * 1000)} d)`);
        continue;
      }
      // Without history rows past the TTL, "none recorded" is only overdue when gc_grace fits inside the history.
      if (ttlDays === null || grace <= ttlDays * 86_400)
        pushTo(
          never,
          t.keyspace,
          `${t.keyspace}.${t.table}: no successful repair in ${historySrc}; gc_grace_seconds ${grace} (${days(grace * 1000)} d)${tabletNote(t.keyspace, t.table)}`,
        );
      continue;
    }
    if (best.run.subrange || best.run.limitedTo) partial = true;
    if (nowMs === null) continue;
    const age = nowMs - best.ms;
    if (age > grace * 1000) {
      pushTo(
        overdue,
        t.keyspace,
        `${t.keyspace}.${t.table}: last successful repair ${days(age)} d ago (${new Date(best.ms).toISOString()}) > gc_grace_seconds ${grace} ` +
          `(${days(grace * 1000)} d)${best.run.subrange ? ', subrange/-pr' : ''}${best.run.limitedTo ? `, only ${best.run.limitedTo}` : ''}`,
      );
    }
  }
  const findings: Finding[] = [];
  const capped = (lines: string[]) =>
    lines.length > EVIDENCE_LINES ? [...lines.slice(0, EVIDENCE_LINES), `… ${lines.length - EVIDENCE_LINES} more table(s)`] : lines;
  const tail = [
    `history: ${repairs.length} repair run(s) read from ${historySrc}${c.repairRowsRead !== undefined ? ` (${c.repairRowsRead} row(s))` : ''}`,
    ...(c.reaperNote ? [c.reaperNote] : []),
    ...(nowFrom ? [`now: ${nowFrom}`] : []),
  ];
  // A Reaper run of the keyspace that has not ended (RUNNING or PAUSED): a repair under way, or one stuck for days.
  const unfinished = (ks: string) =>
    repairs
      .filter((r) => r.source === 'reaper' && r.keyspace === ks && (r.state === 'RUNNING' || r.state === 'PAUSED'))
      .slice(0, 3)
      .map((r) => `Reaper run of ${ks} ${r.state}${r.startedAt ? ` since ${r.startedAt}` : ''}, not finished [Reaper repair_run]`);
  for (const [ks, lines] of never) {
    findings.push({
      id: 'repair.never-repaired',
      severity: 'warning',
      title: `${lines.length} table(s) of ${ks} have no successful repair recorded${ttlDays !== null ? ` in the last ${ttlDays} days` : ''}`,
      evidence: [...capped(lines), ...unfinished(ks), ...tail],
      recommendation:
        `Run a full repair of ${ks} (\`nodetool repair -full ${ks}\` on each node in turn, or schedule it with Reaper / ScyllaDB Manager) and ` +
        `keep repairs within gc_grace_seconds; otherwise deleted data can come back.`,
      knowledgeIds: ['repair.within-gc-grace', ...(ttlDays !== null ? scope.knowledgeIds : []), 'datamodel.gc-grace-seconds.default'],
      confidence: 'medium',
    });
  }
  if (young.length) {
    findings.push({
      id: 'repair.not-yet-due',
      severity: 'info',
      title: `${young.length} replicated table(s) have no repair recorded but are younger than their gc_grace_seconds`,
      evidence: [...capped(young), ...tail],
      recommendation:
        'Schedule repairs (Reaper / ScyllaDB Manager, or `nodetool repair -full` per node) so that each table is repaired within gc_grace_seconds of its creation.',
      knowledgeIds: ['repair.within-gc-grace', 'datamodel.gc-grace-seconds.default'],
      confidence: 'high',
    });
  }
  for (const [ks, lines] of overdue) {
    findings.push({
      id: 'repair.overdue',
      severity: 'warning',
      title: `${lines.length} table(s) of ${ks} were last repaired longer ago than their gc_grace_seconds`,
      evidence: [...capped(lines), ...unfinished(ks), ...tail],
      recommendation:
        `Repair ${ks} now, then repair more often than gc_grace_seconds (or raise gc_grace_seconds only if repairs cannot keep up and ` +
        `tombstones can stay longer).`,
      knowledgeIds: ['repair.within-gc-grace', 'datamodel.gc-grace-seconds.default'],
      confidence: c.nodeNow ? (partial ? 'medium' : 'high') : 'low',
    });
  }
  return findings;
}

export function failedRepairFindings(repairs: readonly RepairRunFact[]): Finding[] {
  const failed = repairs.filter((r) => !r.ok && timestampMs(r.finishedAt) !== null);
  if (!failed.length) return [];
  const sources = [...new Set(failed.map((r) => r.source))];
  const byReaper = sources.includes('reaper');
  const why = (r: RepairRunFact) =>
    r.source === 'reaper' ? `ended ${r.state ?? 'unsuccessfully'} [Reaper repair_run]` : 'with an exception [system_distributed.parent_repair_history]';
  return [
    {
      id: 'repair.failed',
      severity: 'warning',
      title: `${failed.length} of ${repairs.length} recorded repair run(s) ended with an error`,
      evidence: failed
        .slice(0, EVIDENCE_LINES)
        .map(
          (r) =>
            r.keyspace +
            (r.tables.length ? ` (${r.tables.slice(0, 5).join(', ')}${r.tables.length > 5 ? ' …' : ''})` : '') +
            `: started ${r.startedAt ?? '?'}, ` +
            `finished ${r.finishedAt} ${why(r)}`,
        ),
      recommendation: [
        ...(sources.includes('parent_repair_history')
          ? ['Read exception_message of these runs (system_distributed.parent_repair_history) and the repair coordinator logs.']
          : []),
        ...(byReaper ? ["Open these runs in Reaper (last_event says why they stopped) and read Reaper's log and the nodes' logs."] : []),
        'A failed or aborted run repaired nothing it can be counted on for: run it again to the end.',
      ].join(' '),
      knowledgeIds: ['repair.within-gc-grace', ...(byReaper ? (['repair.reaper-history-days'] satisfies KnowledgeId[]) : [])],
      confidence: 'high',
    },
  ];
}

/** "; 12 of 16 tablets repaired (…) [system.tablets]" for a tablet table, "" for any other. */
function tabletNoteOf(c: ClusterFacts): (keyspace: string, table: string) => string {
  const byName = new Map((c.tabletRepairs ?? []).map((f) => [`${f.keyspace ?? ''}.${f.table}`, f]));
  return (keyspace, table) => {
    const f = byName.get(`${keyspace}.${table}`);
    return f ? `; ${tabletRepairState(f)} [system.tablets]` : '';
  };
}

/**
 * A pasted system.tablets alone (no table options to judge against): each tablet table's repair state, for the
 * operator who asked "which tables are repaired?".
 */
function tabletStateFindings(c: ClusterFacts): Finding[] {
  const facts = (c.tabletRepairs ?? []).filter((f) => !f.keyspace || !isSystemKeyspace(f.keyspace));
  if (!facts.length || c.tableOptions) return [];
  const partly = facts.filter((f) => f.tablets > 0 && f.repaired < f.tablets);
  const colocated = facts.filter((f) => f.tablets === 0 && f.colocatedWith);
  const full = facts.filter((f) => f.tablets > 0 && f.repaired === f.tablets);
  const share = (f: TabletRepairFact) => (f.tablets ? f.repaired / f.tablets : 2);
  const lines = [...facts]
    // Least repaired first; co-located tables (no tablets of their own) last.
    .sort((a, b) => share(a) - share(b))
    .map((f) => `${f.keyspace ? `${f.keyspace}.` : ''}${f.table}: ${tabletRepairState(f)} [system.tablets]`);
  return [
    {
      id: 'repair.tablet-state',
      severity: 'info',
      title:
        `${facts.length} tablet table(s): ${full.length} repaired in full, ${partly.length} with tablets never repaired` +
        (colocated.length ? `, ${colocated.length} co-located (repaired with their base table)` : ''),
      evidence: lines.length > EVIDENCE_LINES ? [...lines.slice(0, EVIDENCE_LINES), `… ${lines.length - EVIDENCE_LINES} more`] : lines,
      recommendation:
        'A table is repaired in full as of its oldest tablet repair_time; compare that with gc_grace_seconds (tombstone_gc mode timeout) or expect tombstones to stay until repaired (mode repair, the tablet default). Repair with `nodetool cluster repair <keyspace> <table>` or ScyllaDB Manager.',
      knowledgeIds: ['scylla.tablets.repair-time', 'scylla.tombstone-gc.default'],
      confidence: 'high',
    },
  ];
}

function tombstoneModeFindings(c: ClusterFacts): Finding[] {
  const byMode = new Map<string, TableOptionsFact[]>();
  for (const t of c.tableOptions ?? [])
    if (t.tombstoneGcMode && t.tombstoneGcMode !== 'timeout' && !isSystemKeyspace(t.keyspace)) pushTo(byMode, t.tombstoneGcMode, t);
  const findings: Finding[] = [];
  const repaired = lastRepairs(c.repairs ?? []);
  const tabletNote = tabletNoteOf(c);
  for (const [mode, tables] of byMode) {
    const unrepaired = mode === 'repair' && c.repairs ? tables.filter((t) => !repaired(t.keyspace, t.table)) : [];
    if (mode === 'repair' && !unrepaired.length) continue;
    const list = (mode === 'repair' ? unrepaired : tables).map(
      (t) => `${t.keyspace}.${t.table}: tombstone_gc mode ${mode} [system_schema.tables extensions]${mode === 'repair' ? tabletNote(t.keyspace, t.table) : ''}`,
    );
    findings.push({
      id: `repair.tombstone-gc-${mode}`,
      severity: mode === 'immediate' ? 'info' : 'warning',
      title:
        mode === 'repair'
          ? `${unrepaired.length} table(s) in tombstone_gc mode repair have no repair recorded: their tombstones are never purged`
          : mode === 'disabled'
            ? `${tables.length} table(s) have tombstone_gc disabled: tombstones are never purged`
            : `${tables.length} table(s) purge tombstones immediately (tombstone_gc mode immediate)`,
      evidence: list.length > EVIDENCE_LINES ? [...list.slice(0, EVIDENCE_LINES), `… ${list.length - EVIDENCE_LINES} more`] : list,
      recommendation:
        mode === 'repair'
          ? 'Schedule repairs (ScyllaDB Manager, or tablet auto-repair) for these tables, or their tombstones pile up and slow reads.'
          : mode === 'disabled'
            ? "Re-enable tombstone GC (ALTER TABLE … WITH tombstone_gc = {'mode': 'repair'} or 'timeout') unless this is a deliberate, temporary setting."
            : 'Only safe for tables written once with TTL and never deleted or overwritten; otherwise deleted data can come back.',
      knowledgeIds: ['scylla.tombstone-gc.modes'],
      confidence: 'medium',
    });
  }
  return findings;
}

/** Hints per target node against max_hint_window; `source` names where the rows came from in evidence lines. */
export function hintFindings(nodes: readonly NodeEvidence[], cluster: ClusterFacts | null, source = 'system_views.pending_hints'): Finding[] {
  interface Held {
    holder: string;
    files: number;
    bytes: number | null;
    oldest: number | null;
    newest: number | null;
    status: string | null;
    windowMs: number;
    windowFrom: string;
  }
  const byTarget = new Map<string, Held[]>();
  for (const n of nodes) {
    const w = hintWindowMs(n);
    for (const h of n.facts.pendingHints ?? []) {
      if (!h.files) continue;
      pushTo(byTarget, h.address ?? h.hostId ?? '?', {
        holder: n.node,
        files: h.files,
        bytes: h.totalBytes,
        oldest: timestampMs(h.oldest),
        newest: timestampMs(h.newest),
        status: h.status ?? null,
        windowMs: w.ms,
        windowFrom: w.from,
      });
    }
  }
  const nowMs = timestampMs(cluster?.nodeNow);
  const findings: Finding[] = [];
  for (const [target, held] of byTarget) {
    const down = held.some((h) => (h.status ?? '').toUpperCase() === 'DOWN');
    // Cassandra 4.1.10 shows a DOWN target as "Unknown" (pending_hints and listpendinghints, lab-verified): no state
    const unknown = !down && held.every((h) => h.status === null || /^unknown$/i.test(h.status));
    const span = (h: Held) =>
      Math.max(h.newest !== null && h.oldest !== null ? h.newest - h.oldest : 0, nowMs !== null && h.oldest !== null ? nowMs - h.oldest : 0);
    const beyond = held.filter((h) => span(h) >= h.windowMs);
    const files = held.reduce((s, h) => s + h.files, 0);
    const evidence = held
      .slice(0, EVIDENCE_LINES)
      .map(
        (h) =>
          `${h.holder}: ${h.files} hint file(s)${h.bytes !== null ? ` (${fmtNum(h.bytes / 1024 ** 2, 1)} MiB)` : ''} for ${target}, status ` +
          `${h.status ?? '?'}, oldest ${h.oldest !== null ? new Date(h.oldest).toISOString() : '?'}, newest ` +
          `${h.newest !== null ? new Date(h.newest).toISOString() : '?'}; hint window ${fmtNum(h.windowMs / 3_600_000, 1)} h (${h.windowFrom}) ` +
          `[${source}]`,
      );
    if (beyond.length) {
      findings.push({
        id: 'repair.hint-window-exceeded',
        severity: 'critical',
        title: `${target} was ${down ? 'down' : 'unreachable'} longer than the hint window: writes after it were not hinted, repair it`,
        evidence,
        node: target,
        recommendation:
          `Run \`nodetool repair -full\` on ${target} once it is up (before gc_grace_seconds passes since the outage began); hints alone will ` +
          `not bring it up to date.`,
        knowledgeIds: ['hints.down-longer-than-window', 'hints.max-window.default', 'hints.window-persistent', 'hints.pending-per-target'],
        confidence: held.every((h) => h.oldest !== null) ? 'high' : 'medium',
      });
    } else if (unknown) {
      findings.push({
        id: 'repair.hint-backlog',
        severity: 'info',
        title: `${files} hint file(s) held for ${target}, whose state the holder does not show`,
        evidence,
        node: target,
        recommendation:
          `Check ${target} in nodetool status: if it is down, bring it back within the hint window (past it, repair it); if it is up, ` +
          `replay is behind (hinted_handoff_throttle, max_hints_delivery_threads) and it serves stale data at consistency ONE until it ends.`,
        knowledgeIds: ['hints.pending-per-target', 'hints.max-window.default'],
        confidence: 'medium',
      });
    } else {
      findings.push({
        id: down ? 'repair.hints-for-down-node' : 'repair.hint-backlog',
        severity: down ? 'warning' : 'info',
        title: down ? `${files} hint file(s) wait for ${target}, which is down` : `${files} hint file(s) still to replay to ${target}`,
        evidence,
        node: target,
        recommendation: down
          ? `Bring ${target} back within the hint window; past it, repair it after it returns.`
          : `Replay is behind: check hinted_handoff_throttle and max_hints_delivery_threads on ${held.map((h) => h.holder).join(', ')}; ${target} serves ` +
            `stale data at consistency ONE until replay ends.`,
        knowledgeIds: ['hints.pending-per-target', 'hints.max-window.default'],
        confidence: 'high',
      });
    }
  }
  return findings;
}
