import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectHost, findIncident, runIncident, skipReason } from '../../mcp-server/src/lab/incidents/index.js';
import { diagnose, type DiagnosisReport } from '../../mcp-server/src/ops/diagnose.js';
import { tempLabHome } from '../helpers/lab-home.js';

// Cheap incidents end to end on a real 1-node Cassandra 4.1 lab: inject, diagnose finds it, heal undoes it.
// (The whole list runs in `npm run scenarios`.) Uses 127.0.0.1 / JMX 7199: run it alone on the machine.
const skip = process.env.CQL_TUNER_SKIP_LAB === '1';
const lab = tempLabHome('cql-tuner-incident-');

beforeAll(async () => {
  if (skip) return;
  await lab.start({ nodes: 1, version: '4.1', heap: '1G' });
}, 300_000);

afterAll(async () => {
  if (skip) return;
  await lab.stop();
}, 120_000);

const ids = (r: DiagnosisReport) => r.findings.map((f) => `${f.id}@${f.table ?? ''}`);

describe.skipIf(skip)('lab incidents on a real 4.1 node', () => {
  it('sstable-pileup: 30 SSTables in one table are found from tablestats, and heal drops the table', async () => {
    const r = await runIncident('sstable-pileup');
    expect(r).toMatchObject({ incident: 'sstable-pileup', action: 'inject' });
    const report = await diagnose({ lab: true, windowSeconds: 0 });
    const f = report.findings.find((x) => x.id === 'table.sstable-count');
    expect(f, ids(report).join(', ')).toBeDefined();
    expect(f!.table).toBe('cql_tuner_incident.piled');
    expect(f!.title).toMatch(/holds (3\d) SSTables/);
    await runIncident('sstable-pileup', { heal: true });
    const after = await diagnose({ lab: true, windowSeconds: 0 });
    expect(after.findings.some((x) => x.id === 'table.sstable-count')).toBe(false);
  }, 600_000);

  it('tombstones: the reads over 3,000 tombstones are reported for the incident table', async () => {
    await runIncident('tombstones');
    const report = await diagnose({ lab: true, windowSeconds: 0 });
    const hits = report.findings.filter((x) => (x.id === 'log.tombstones' || x.id === 'table.tombstones-per-read') && x.table === 'cql_tuner_incident.queue');
    expect(hits.length, ids(report).join(', ')).toBeGreaterThan(0);
    await runIncident('tombstones', { heal: true });
  }, 600_000);

  it('bad-schema: gc_grace_seconds 0 on a table with deletes is found in the live schema, and heal drops the table', async () => {
    await runIncident('bad-schema');
    const report = await diagnose({ lab: true, windowSeconds: 0 });
    const f = report.findings.find((x) => x.id === 'schema.gc-grace-zero');
    expect(f, ids(report).join(', ')).toBeDefined();
    expect(f!.table).toBe('cql_tuner_incident.sessions');
    expect(f!.evidence.some((e) => /^tombstones per read: max [1-9]/.test(e))).toBe(true);
    await runIncident('bad-schema', { heal: true });
    const after = await diagnose({ lab: true, windowSeconds: 0 });
    expect(after.findings.some((x) => x.id === 'schema.gc-grace-zero')).toBe(false);
  }, 600_000);

  it('client-misuse: unprepared statements are counted by system_views.cql_metrics and named with their client', async (t) => {
    // Its load is latte: on a host without it the incident cannot run (skipReason says why).
    const why = skipReason(findIncident('client-misuse')!, await detectHost());
    if (why) t.skip(`client-misuse cannot run here: ${why}`);
    await runIncident('client-misuse');
    try {
      const report = await diagnose({ lab: true, windowSeconds: 0 });
      const f = report.findings.find((x) => x.id === 'clients.unprepared-statements');
      expect(f, ids(report).join(', ')).toBeDefined();
      expect(f!.evidence.join('\n')).toMatch(/regular_statements_executed (\d+)/);
    } finally {
      await runIncident('client-misuse', { heal: true });
    }
  }, 600_000);

  it('an unknown incident and a 3-node incident on a 1-node lab are refused with the fix', async () => {
    await expect(runIncident('no-such-incident')).rejects.toMatchObject({ code: 'UNKNOWN_INCIDENT' });
    await expect(runIncident('node-down')).rejects.toMatchObject({ code: 'INCIDENT_NEEDS_NODES', fix: expect.stringMatching(/--nodes 3/) });
  });
});
