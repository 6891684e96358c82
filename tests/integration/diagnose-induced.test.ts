import cassandra from 'cassandra-driver';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labNodetoolArgv } from '../../mcp-server/src/lab/index.js';
import { diagnose, type DiagnosisReport } from '../../mcp-server/src/ops/diagnose.js';
import { tempLabHome } from '../helpers/lab-home.js';

// Real problems made on a real Cassandra 4.1 node, then found by `diagnose`: tombstone-heavy reads, a
// partition past the large-partition warning threshold, and an LCS table whose level 0 piles up while
// compaction is disabled. (A stopped node is covered by the 3-node snapshot test.)
const skip = process.env.CQL_TUNER_SKIP_LAB === '1';
const lab = tempLabHome('cql-tuner-induce-');
let client: InstanceType<typeof cassandra.Client>;
let report: DiagnosisReport;

// Test-only: the project's nodetool tool refuses these write commands on purpose.
async function nodetoolAdmin(...args: string[]) {
  const argv = (await labNodetoolArgv('4.1'))!;
  await execa(argv[0]!, [...argv.slice(1), '-h', '127.0.0.1', '-p', '7199', ...args], { timeout: 60_000 });
}

beforeAll(async () => {
  if (skip) return;
  await lab.start({ nodes: 1, version: '4.1', heap: '1G' });
  client = new cassandra.Client({ contactPoints: ['127.0.0.1'], localDataCenter: 'datacenter1', socketOptions: { readTimeout: 60_000 } });
  await client.connect();
  await client.execute("CREATE KEYSPACE induced WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");

  // 1. Tombstones: 3,000 deleted rows in one partition, then read it (tombstone_warn_threshold is 1,000).
  await client.execute('CREATE TABLE induced.queue (q int, id int, v text, PRIMARY KEY (q, id))');
  const ins = 'INSERT INTO induced.queue (q, id, v) VALUES (0, ?, ?)';
  const del = 'DELETE FROM induced.queue WHERE q = 0 AND id = ?';
  for (let b = 0; b < 30; b++) await Promise.all(Array.from({ length: 100 }, (_, i) => client.execute(ins, [b * 100 + i, 'x'], { prepare: true })));
  for (let b = 0; b < 30; b++) await Promise.all(Array.from({ length: 100 }, (_, i) => client.execute(del, [b * 100 + i], { prepare: true })));
  await client.execute('SELECT * FROM induced.queue WHERE q = 0');

  // 2. A ~130 MiB partition, logged when compacted (compaction_large_partition_warning_threshold 100 MiB).
  await client.execute('CREATE TABLE induced.wide (k int, c int, v blob, PRIMARY KEY (k, c))');
  const blob = Buffer.alloc(256 * 1024, 7);
  const wide = 'INSERT INTO induced.wide (k, c, v) VALUES (1, ?, ?)';
  for (let b = 0; b < 26; b++) await Promise.all(Array.from({ length: 20 }, (_, i) => client.execute(wide, [b * 20 + i, blob], { prepare: true })));
  await nodetoolAdmin('flush', 'induced', 'wide');
  await nodetoolAdmin('compact', 'induced', 'wide');

  // 3. LCS with compaction disabled: every flush adds an SSTable to level 0.
  await client.execute("CREATE TABLE induced.leveled (k int PRIMARY KEY, v text) WITH compaction = {'class': 'LeveledCompactionStrategy'}");
  await nodetoolAdmin('disableautocompaction', 'induced', 'leveled');
  for (let f = 0; f < 36; f++) {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.execute('INSERT INTO induced.leveled (k, v) VALUES (?, ?)', [f * 20 + i, 'v'], { prepare: true })),
    );
    await nodetoolAdmin('flush', 'induced', 'leveled');
  }

  // 4. Cassandra Reaper's state in reaper_db (its tables' columns, Reaper 4.2.3): a DONE run of keyspace `repaired`
  // 2 h ago (its table's gc_grace_seconds is 1 h) and a run that ended in ERROR. Reaper itself does not run here.
  await client.execute("CREATE KEYSPACE repaired WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
  await client.execute('CREATE TABLE repaired.t (k int PRIMARY KEY, v text) WITH gc_grace_seconds = 3600');
  await client.execute("CREATE KEYSPACE reaper_db WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  await client.execute(
    'CREATE TABLE reaper_db.repair_unit_v1 (id timeuuid PRIMARY KEY, cluster_name text, keyspace_name text, column_families set<text>, ' +
      'blacklisted_tables set<text>, incremental_repair boolean, nodes set<text>, datacenters set<text>)',
  );
  await client.execute(
    'CREATE TABLE reaper_db.repair_run (id timeuuid, segment_id timeuuid, cluster_name text static, repair_unit_id timeuuid static, ' +
      'state text static, start_time timestamp static, end_time timestamp static, segment_state int, PRIMARY KEY (id, segment_id))',
  );
  const unit = cassandra.types.TimeUuid.now();
  await client.execute(
    'INSERT INTO reaper_db.repair_unit_v1 (id, cluster_name, keyspace_name, column_families, incremental_repair) VALUES (?, ?, ?, ?, ?)',
    [unit, 'lab', 'repaired', [], false],
    { prepare: true },
  );
  const now = Date.now();
  const runs: [string, number, number][] = [
    ['DONE', now - 3 * 3_600_000, now - 2 * 3_600_000],
    ['ERROR', now - 3_600_000, now - 1_800_000],
  ];
  for (const [state, start, end] of runs) {
    const id = cassandra.types.TimeUuid.now();
    // two segments each: the sweep reads one row per run
    for (let seg = 0; seg < 2; seg++)
      await client.execute(
        'INSERT INTO reaper_db.repair_run (id, segment_id, cluster_name, repair_unit_id, state, start_time, end_time, segment_state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [id, cassandra.types.TimeUuid.now(), 'lab', unit, state, new Date(start), new Date(end), 2],
        { prepare: true },
      );
  }

  report = await diagnose({ lab: true });
}, 900_000);

afterAll(async () => {
  if (skip) return;
  await client?.shutdown().catch(() => {});
  await lab.stop();
}, 120_000);

describe.skipIf(skip)('diagnose finds problems induced on a real 4.1 node', () => {
  it('tombstone-heavy reads: from the log, with the table', () => {
    // The log's tombstone warning and the table's tombstones-per-read statistic are one problem: one finding (#15).
    const tomb = report.findings.filter((x) => (x.id === 'log.tombstones' || x.id === 'table.tombstones-per-read') && x.table === 'induced.queue');
    expect(tomb, JSON.stringify(report.findings.map((x) => [x.id, x.table, x.sources]))).toHaveLength(1);
    const f = tomb[0]!;
    expect(f.severity).not.toBe('info');
    expect(f.sources).toContain('log');
    expect(f.evidence.join('\n')).toMatch(/3000 tombstones|tombstone/);
  });

  it('the wide partition: large-partition warning from the log and the table statistics, as one finding', () => {
    // One problem, one finding (#15): the log's warning and the table statistics merge, naming both sources.
    const wide = report.findings.filter((x) => (x.id === 'log.large-partition' || x.id === 'table.partition-size') && x.table === 'induced.wide');
    expect(wide, JSON.stringify(report.findings.map((x) => [x.id, x.table, x.sources]))).toHaveLength(1);
    expect(wide[0]!.severity).not.toBe('info');
    expect(wide[0]!.sources).toContain('log');
    expect(wide[0]!.sources!.length).toBeGreaterThan(1);
  });

  it('LCS level 0 backing up while compaction is disabled', () => {
    const l0 = report.findings.find((x) => x.id === 'compaction.lcs.l0-backlog');
    expect(l0?.table).toBe('induced.leveled');
    expect(l0!.title).toMatch(/level 0 of induced.leveled holds (3[3-9]|4\d) SSTables/);
  });

  it('with the native transport off, the cluster is still read through nodetool alone', async () => {
    await nodetoolAdmin('disablebinary');
    try {
      const r = await diagnose({ lab: true });
      expect(r.nodes).toEqual([expect.objectContaining({ address: '127.0.0.1', status: 'partial' })]);
      // The same LCS pile-up is found from nodetool tablestats alone.
      expect(r.findings.some((f) => f.id === 'compaction.lcs.l0-backlog' && f.table === 'induced.leveled')).toBe(true);
      expect(r.checked.find((c) => c.rule === 'threadpools')?.checked).toBe(true);
    } finally {
      await nodetoolAdmin('enablebinary');
    }
  }, 180_000);

  it("Reaper's runs in reaper_db are read as repair history: the DONE run 2 h ago is older than the table's 1-h gc_grace, the ERROR run counts for nothing", () => {
    const overdue = report.findings.find((f) => f.id === 'repair.overdue');
    expect(overdue, JSON.stringify(report.findings.map((f) => f.id))).toBeDefined();
    expect(overdue!.evidence[0]).toMatch(/^repaired\.t: last successful repair 0\.1 d ago .* > gc_grace_seconds 3600/);
    expect(overdue!.evidence.join('\n')).toMatch(/history: 2 repair run\(s\) read from system_distributed\.parent_repair_history and Reaper's repair_run/);
    const failed = report.findings.find((f) => f.id === 'repair.failed');
    expect(failed!.evidence[0]).toMatch(/^repaired: started .*Z, finished .*Z ended ERROR \[Reaper repair_run\]$/);
  });

  it('logs were read and every rule ran', () => {
    expect(report.checked.find((c) => c.rule === 'logs')).toMatchObject({ checked: true });
    expect(report.findings[0]!.severity).not.toBe('info');
  });
});
