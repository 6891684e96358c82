/**
 * GET /api/v1/ops/tables/compactions: the running compactions as CompactionManager lists them (Compaction.java at
 * v0.1.125: id, keyspace, columnfamily, completed, total, taskType, unit, compactionId …). The Management API has no
 * pending-task count, so pendingTasks stays null ("not known"), never 0.
 */
import { parsedOk, unrecognized, type Parsed } from '../../parsed.js';
import type { NodetoolCompactionstats, RunningCompaction } from '../nodetool/compactionstats.js';
import { cleanText, isRecord, readJson } from './json.js';

const MAX_COMPACTIONS = 10_000;

function count(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,19}$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
}

export function parseMgmtCompactions(text: string): Parsed<NodetoolCompactionstats> {
  const kind = 'mgmt-api-compactions';
  const j = readJson(text);
  if (!j.ok) return unrecognized(kind, j.reason);
  if (!Array.isArray(j.value)) return unrecognized(kind, 'not a list of compactions');
  if (j.value.length > MAX_COMPACTIONS) return unrecognized(kind, `${j.value.length} compactions is more than ${MAX_COMPACTIONS}`);
  const compactions: RunningCompaction[] = [];
  for (const c of j.value) {
    if (!isRecord(c)) continue;
    const completed = count(c['completed']);
    const total = count(c['total']);
    compactions.push({
      id: cleanText(c['compactionId'] ?? c['id'], 80),
      type: cleanText(c['taskType'] ?? c['operationType'], 60) ?? '?',
      keyspace: cleanText(c['keyspace'], 100) ?? '',
      table: cleanText(c['columnfamily'], 100) ?? '',
      completed,
      total,
      unit: cleanText(c['unit'], 20) ?? '',
      progressPercent: completed !== null && total ? Math.round((completed / total) * 1000) / 10 : null,
    });
  }
  return parsedOk(kind, {
    layout: 'classic',
    product: 'cassandra',
    pendingTasks: null,
    pendingTasksReliable: null,
    pendingByTable: [],
    compactions,
    remainingTimeSeconds: null,
    summary: null,
    notes: ['from the Management API (/api/v1/ops/tables/compactions): pending tasks are not reported'],
  });
}
