import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { reaperClusterName, reaperKeyspaces, reaperQueries } from '../../mcp-server/src/core/facts/reaper-runs.js';
import { nodeFactsFromRaw, type RawOutput } from '../../mcp-server/src/core/facts/from-raw.js';
import { parseReaperRuns } from '../../mcp-server/src/core/kinds/reaper-repair-runs/parse.js';
import { parseTsv } from '../../mcp-server/src/core/parse/tsv.js';
import { repairRule } from '../../mcp-server/src/core/rules/repair.js';
import { PACK, runRule } from '../../mcp-server/src/core/rules/rule.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const fixture = (f: string) => readFileSync(new URL(`../fixtures/reaper-repair-runs/${f}`, import.meta.url), 'utf8');

/** The sweep's reads: replication, table options, the node clock and Reaper's two tables (collector TSV). */
function sweep(runs: string[], units: string[], clusterName = 'Shop Cluster'): RawOutput[] {
  return [
    { name: 'cql:system.local', text: `cluster_name\trelease_version\n${clusterName}\t4.1.10\n` },
    {
      name: 'cql:system_schema.keyspaces',
      text:
        'keyspace_name\treplication\n' +
        'shop\t{"class":"org.apache.cassandra.locator.NetworkTopologyStrategy","dc1":"3"}\n' +
        'reaper_db\t{"class":"org.apache.cassandra.locator.SimpleStrategy","replication_factor":"1"}\n',
    },
    {
      name: 'cql:system_schema.tables#options',
      text:
        'keyspace_name\ttable_name\tgc_grace_seconds\textensions\n' +
        'shop\torders\t864000\t{}\nshop\taudit\t864000\t{}\nshop\tcarts\t86400\t{}\n' +
        'reaper_db\trepair_run\t864000\t{}\nreaper_db\trepair_unit_v1\t864000\t{}\n',
    },
    { name: 'cql:system.local#clock', text: 'now\n2026-03-20T12:00:00.000Z\n' },
    { name: 'cql:system_distributed.parent_repair_history', text: 'keyspace_name\tcolumnfamily_names\tstarted_at\tfinished_at\texception_message\toptions\n' },
    { name: 'cql:reaper.repair_run', text: ['id\tcluster_name\trepair_unit_id\tstate\tstart_time\tend_time', ...runs].join('\n') + '\n' },
    {
      name: 'cql:reaper.repair_unit_v1',
      text: ['id\tcluster_name\tkeyspace_name\tcolumn_families\tblacklisted_tables\tincremental_repair\tnodes\tdatacenters', ...units].join('\n') + '\n',
    },
  ];
}
const judge = (outputs: RawOutput[]) => runRule(repairRule, { nodes: [nodeEvidence('n1', true, nodeFactsFromRaw(outputs))], origin: 'test' }, PACK);
const UNIT_ALL = 'u1\tshop cluster\tshop\t[]\t["audit"]\tFalse\t[]\t[]';

describe("Reaper's tables as repair history (the sweep's reads)", () => {
  it('a DONE run of the whole keyspace 5 d ago repairs orders but not carts (1-day grace) nor the blacklisted audit', () => {
    const o = judge(sweep(['r1\tshopcluster\tu1\tDONE\t2026-03-15T10:00:00.000Z\t2026-03-15T11:00:00.000Z'], [UNIT_ALL]));
    const ids = o.findings.map((f) => f.id).sort();
    expect(ids).toEqual(['repair.never-repaired', 'repair.overdue']);
    const overdue = o.findings.find((f) => f.id === 'repair.overdue')!;
    expect(overdue.evidence[0]).toMatch(/^shop\.carts: last successful repair 5\.0 d ago/);
    expect(overdue.evidence).toContain("history: 1 repair run(s) read from system_distributed.parent_repair_history and Reaper's repair_run (1 row(s))");
    const never = o.findings
      .filter((f) => f.id === 'repair.never-repaired')
      .flatMap((f) => f.evidence.filter((e) => !e.startsWith('history') && !e.startsWith('now')));
    // audit was left out of the run; Reaper's own keyspace has RF 1 and is not judged
    expect(never.map((e) => e.split(':')[0])).toEqual(['shop.audit']);
    expect(o.findings.find((f) => f.id === 'repair.never-repaired')!.knowledgeIds).toContain('repair.reaper-history-days');
  });
  it('an ERROR run repairs nothing and is reported; RUNNING and DELETED runs are not repairs', () => {
    const o = judge(
      sweep(
        [
          'r1\tshopcluster\tu1\tERROR\t2026-03-19T10:00:00.000Z\t2026-03-19T11:00:00.000Z',
          'r2\tshopcluster\tu1\tRUNNING\t2026-03-20T10:00:00.000Z\t2026-03-20T11:00:00.000Z',
          'r3\tshopcluster\tu1\tDELETED\t2026-03-20T10:00:00.000Z\t2026-03-20T11:00:00.000Z',
        ],
        [UNIT_ALL],
      ),
    );
    const failed = o.findings.find((f) => f.id === 'repair.failed')!;
    expect(failed.title).toBe('1 of 2 recorded repair run(s) ended with an error');
    expect(failed.evidence[0]).toBe('shop: started 2026-03-19T10:00:00.000Z, finished 2026-03-19T11:00:00.000Z ended ERROR [Reaper repair_run]');
    const never = o.findings.filter((f) => f.id === 'repair.never-repaired');
    expect(never).toHaveLength(1);
    // the RUNNING run is named beside the tables it has not repaired yet
    expect(never[0]!.evidence).toContain('Reaper run of shop RUNNING since 2026-03-20T10:00:00.000Z, not finished [Reaper repair_run]');
  });
  it("one Reaper serving two clusters: only this cluster's runs count (Reaper's lower-cased name)", () => {
    const runs = ['r1\tothercluster\tu1\tDONE\t2026-03-19T10:00:00.000Z\t2026-03-19T11:00:00.000Z'];
    const o = judge(sweep([...runs, 'r2\tshopcluster\tu1\tABORTED\t2026-03-18T10:00:00.000Z\t2026-03-18T11:00:00.000Z'], [UNIT_ALL]));
    expect(o.findings.map((f) => f.id)).toContain('repair.never-repaired');
    expect(o.findings.find((f) => f.id === 'repair.never-repaired')!.evidence).toContain("Reaper's runs of cluster shopcluster (of othercluster, shopcluster)");
    expect(reaperClusterName('Shop Cluster')).toBe('shopcluster');
  });
  it('a run held to one datacenter lowers the confidence and says so', () => {
    const o = judge(
      sweep(['r1\tshopcluster\tu2\tDONE\t2026-03-10T10:00:00.000Z\t2026-03-10T11:00:00.000Z'], ['u2\tshopcluster\tshop\t["carts"]\t[]\tFalse\t[]\t["dc1"]']),
    );
    const overdue = o.findings.find((f) => f.id === 'repair.overdue')!;
    expect(overdue.evidence[0]).toMatch(/shop\.carts: .*, only datacenters dc1$/);
    expect(overdue.confidence).toBe('medium');
  });
  it('the sweep reads the keyspace holding both tables (reaper_db first), and only plain identifiers', () => {
    const schema = parseTsv(
      'keyspace_name\ttable_name\nzz\trepair_run\nzz\trepair_unit_v1\nreaper_db\trepair_run\nreaper_db\trepair_unit_v1\nhalf\trepair_run\n',
    );
    expect(schema.ok && reaperKeyspaces(schema.value)).toEqual(['reaper_db', 'zz']);
    const hostile = parseTsv('keyspace_name\ttable_name\nx"; DROP\trepair_run\nx"; DROP\trepair_unit_v1\n');
    expect(hostile.ok && reaperKeyspaces(hostile.value)).toEqual([]);
    expect(reaperQueries('x"; DROP')).toEqual([]);
    expect(reaperQueries('reaper_db')[0]!.query).toBe(
      'SELECT id, cluster_name, repair_unit_id, state, start_time, end_time FROM "reaper_db".repair_run PER PARTITION LIMIT 1 LIMIT 5000',
    );
  });
});

describe("interpret: Reaper's run list (REST /repair_run, spreaper list-runs)", () => {
  it('issue 131: one run RUNNING with 1 of 301 segments, no run ended DONE', () => {
    const r = interpretText(fixture('spreaper-list-runs_reaper-0.2_issue-131.txt'));
    expect(r.kind).toBe('reaper.repair-runs');
    expect(r.summary).toBe('Reaper: 1 run(s) of 1 keyspace(s) — 0 DONE, 0 ERROR/ABORTED, 1 RUNNING/PAUSED/NOT_STARTED');
    expect(r.findings.map((f) => f.id)).toEqual(['repair.reaper-last-run']);
    expect(r.findings[0]!.evidence[0]).toBe(
      'cache: no run ended DONE in this list; RUNNING since 2015-12-08T06:19:40Z, 1 of 301 segments repaired (last event: Triggered repair of segment 1 via host 10.16.3.162)',
    );
    expect(r.findings[0]!.confidence).toBe('low');
  });
  it("derived REST list: cache last DONE 19.1 d ago by Reaper's clock, shop fine, one ERROR run", () => {
    const p = parseReaperRuns(fixture('reaper-rest-repair-runs_issue-131-derived.json'));
    expect(p.ok && p.value.reaperNow).toBe('2015-12-20T09:00:00.000Z');
    const r = interpretText(fixture('reaper-rest-repair-runs_issue-131-derived.json'));
    expect(r.findings.map((f) => f.id).sort()).toEqual(['repair.failed', 'repair.reaper-last-run']);
    const last = r.findings.find((f) => f.id === 'repair.reaper-last-run')!;
    expect(last.title).toBe('1 keyspace(s) have no Reaper run ended DONE within the default gc_grace_seconds (10 d)');
    expect(last.evidence[0]).toBe('cache: last run ended DONE 19.1 d ago (2015-12-01T07:10:00.000Z)');
    expect(last.evidence).toContain("now: Reaper's clock 2015-12-20T09:00:00.000Z");
  });
  it('not JSON, or JSON of something else: a reason, never a throw', () => {
    expect(parseReaperRuns('"total_segments": 3')).toMatchObject({ ok: false });
    expect(parseReaperRuns('[{"total_segments": 3}]')).toMatchObject({ ok: false, reason: expect.stringMatching(/keyspace_name and state/) });
    expect(parseReaperRuns('[\n{"keyspace_name": "a", "state": "DONE", "total_segments": 3\n')).toMatchObject({ ok: false });
  });
});
