import { describe, expect, it } from 'vitest';
import { badIndex } from '../../mcp-server/src/lab/incidents/bad-index.js';
import { badSchema } from '../../mcp-server/src/lab/incidents/bad-schema.js';
import { lcsWriteHeavy } from '../../mcp-server/src/lab/incidents/lcs-write-heavy.js';
import { clientMisuse, UNPREPARED_WORKLOAD } from '../../mcp-server/src/lab/incidents/client-misuse.js';
import { findIncident } from '../../mcp-server/src/lab/incidents/registry.js';
import type { IncidentContext, LatteRun } from '../../mcp-server/src/lab/incidents/types.js';
import { hasKnowledge } from '../../mcp-server/src/core/knowledge/index.js';
import type { LabState } from '../../mcp-server/src/lab/types.js';

// The call-level contract of the bad-schema and client-misuse incidents (their real runs: npm run scenarios).
const state: LabState = {
  version: '4.1',
  fullVersion: '4.1.10',
  nodes: [
    {
      index: 1,
      host: '127.0.0.1',
      cqlPort: 9042,
      jmxPort: 7199,
      pid: 1001,
      dir: '/lab/node1',
      logFile: '/lab/node1/logs/system.log',
      datacenter: 'dc1',
      rack: 'r1',
    },
  ],
  heap: '1G',
  datacenters: 1,
  startedAt: '2026-01-01T00:00:00Z',
  stateDir: '/lab',
};

function recorder() {
  const calls: string[] = [];
  const loads: LatteRun[] = [];
  const unprepared: string[] = [];
  const ctx: IncidentContext = {
    state,
    cql: async (q, p) => {
      if (!p?.length && q.startsWith('SELECT')) unprepared.push(q);
      else calls.push(`cql: ${q}${p?.length ? ` [${p.length} params]` : ''}`);
    },
    cqlMany: async (q, rows) => void calls.push(`cqlMany x${rows.length}: ${q}`),
    nodetool: async (i, a) => (calls.push(`nodetool@${i}: ${a.join(' ')}`), ''),
    latte: async (r) => void loads.push(r),
    startLoad: async (tag, r) => void (loads.push(r), calls.push(`load start ${tag}: ${r.fn} ${r.seconds}s at ${r.rate}/s`)),
    stopLoad: async (tag) => void calls.push(`load stop ${tag}`),
    labPid: async () => 1001,
    signal: async () => {},
    cgroupWrite: async () => {},
    cgroupRemove: async () => {},
    sleep: async (ms) => void calls.push(`sleep ${ms}`),
    progress: () => {},
  };
  return { ctx, calls, loads, unprepared };
}

describe('bad-schema incident', () => {
  it('is registered, expects a finding id the knowledge base backs, and needs nothing of the host', () => {
    expect(findIncident('bad-schema')).toBe(badSchema);
    expect(badSchema).toMatchObject({ nodes: 1, needs: [], expect: ['schema.gc-grace-zero'] });
    expect(hasKnowledge('schema.gc-grace.zero')).toBe(true);
  });

  it('inject: a gc_grace_seconds 0 table, rows written, some deleted, every partition read; heal drops it', async () => {
    const r = recorder();
    await badSchema.inject(r.ctx);
    expect(r.calls).toEqual([
      "cql: CREATE KEYSPACE IF NOT EXISTS cql_tuner_incident WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
      'cql: CREATE TABLE IF NOT EXISTS cql_tuner_incident.sessions (user int, id int, v text, PRIMARY KEY (user, id)) WITH gc_grace_seconds = 0',
      "cqlMany x2400: INSERT INTO cql_tuner_incident.sessions (user, id, v) VALUES (?, ?, 'x')",
      'cqlMany x1200: DELETE FROM cql_tuner_incident.sessions WHERE user = ? AND id = ?',
      'cqlMany x400: SELECT * FROM cql_tuner_incident.sessions WHERE user = ?',
    ]);
    const h = recorder();
    await badSchema.heal(h.ctx);
    expect(h.calls).toEqual(['cql: DROP TABLE IF EXISTS cql_tuner_incident.sessions']);
  });
});

describe('bad-index incident', () => {
  it('is registered and expects the secondary-index finding, backed by the cardinality knowledge', () => {
    expect(findIncident('bad-index')).toBe(badIndex);
    expect(badIndex).toMatchObject({ nodes: 1, needs: [], expect: ['schema.secondary-index'] });
    expect(hasKnowledge('schema.secondary-index.high-cardinality')).toBe(true);
  });

  it('inject: a legacy index on a unique column, rows written and flushed, lookups by value; heal drops index and table', async () => {
    const r = recorder();
    await badIndex.inject(r.ctx);
    expect(r.calls).toEqual([
      "cql: CREATE KEYSPACE IF NOT EXISTS cql_tuner_incident WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
      'cql: CREATE TABLE IF NOT EXISTS cql_tuner_incident.accounts (id int PRIMARY KEY, email text, name text)',
      'cql: CREATE INDEX IF NOT EXISTS accounts_by_email ON cql_tuner_incident.accounts (email)',
      'cqlMany x5000: INSERT INTO cql_tuner_incident.accounts (id, email, name) VALUES (?, ?, ?)',
      'nodetool@1: flush cql_tuner_incident accounts',
      'cqlMany x300: SELECT * FROM cql_tuner_incident.accounts WHERE email = ?',
    ]);
    const h = recorder();
    await badIndex.heal(h.ctx);
    expect(h.calls).toEqual(['cql: DROP INDEX IF EXISTS cql_tuner_incident.accounts_by_email', 'cql: DROP TABLE IF EXISTS cql_tuner_incident.accounts']);
  });
});

describe('lcs-write-heavy incident', () => {
  it('is registered and expects the LCS write-heavy finding', () => {
    expect(findIncident('lcs-write-heavy')).toBe(lcsWriteHeavy);
    expect(lcsWriteHeavy).toMatchObject({ nodes: 1, needs: [], expect: ['schema.lcs-write-heavy'] });
    expect(hasKnowledge('compaction.lcs.write-heavy')).toBe(true);
  });

  it('inject: an LCS table written in three flushed batches, far more writes than reads; heal drops it', async () => {
    const r = recorder();
    await lcsWriteHeavy.inject(r.ctx);
    const insert = 'cqlMany x10000: INSERT INTO cql_tuner_incident.readings (device, seq, v) VALUES (?, ?, ?)';
    const flush = 'nodetool@1: flush cql_tuner_incident readings';
    expect(r.calls).toEqual([
      "cql: CREATE KEYSPACE IF NOT EXISTS cql_tuner_incident WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
      "cql: CREATE TABLE IF NOT EXISTS cql_tuner_incident.readings (device int, seq int, v text, PRIMARY KEY (device, seq)) WITH compaction = {'class': 'LeveledCompactionStrategy'}",
      insert,
      flush,
      insert,
      flush,
      insert,
      flush,
      'cqlMany x200: SELECT * FROM cql_tuner_incident.readings WHERE device = ? LIMIT 10',
    ]);
    const h = recorder();
    await lcsWriteHeavy.heal(h.ctx);
    expect(h.calls).toEqual(['cql: DROP TABLE IF EXISTS cql_tuner_incident.readings']);
  });
});

describe('client-misuse incident', () => {
  it('is registered and needs latte for the load it leaves running', () => {
    expect(findIncident('client-misuse')).toBe(clientMisuse);
    expect(clientMisuse).toMatchObject({ nodes: 1, needs: ['latte'], expect: ['clients.unprepared-statements'] });
    expect(hasKnowledge('client.unprepared-statements')).toBe(true);
  });

  it('inject: past the rule floor of unprepared reads itself, each with its key in the text, plus a latte load of the same kind', async () => {
    const r = recorder();
    await clientMisuse.inject(r.ctx);
    expect(r.unprepared).toHaveLength(12_000);
    expect(new Set(r.unprepared).size).toBe(2000);
    expect(r.unprepared[0]).toBe('SELECT * FROM cql_tuner_incident.kv WHERE id = 0');
    expect(r.calls).toContain('load start client-misuse: read 600s at 1500/s');
    expect(r.loads[0]!.workload).toBe(UNPREPARED_WORKLOAD);
    // The workload never prepares: ctx.execute with the CQL text built per call.
    expect(UNPREPARED_WORKLOAD).not.toMatch(/ctx\.prepare|execute_prepared/);
    expect(UNPREPARED_WORKLOAD).toContain('ctx.execute(`SELECT * FROM ${KEYSPACE}.kv WHERE id = ${id}`)');
  });

  it('heal stops the load before dropping its table', async () => {
    const r = recorder();
    await clientMisuse.heal(r.ctx);
    expect(r.calls).toEqual(['load stop client-misuse', 'cql: DROP TABLE IF EXISTS cql_tuner_incident.kv']);
  });
});
