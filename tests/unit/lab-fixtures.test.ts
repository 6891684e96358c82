import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { classifyNodetoolFailure } from '../../mcp-server/src/core/nodetool-errors.js';
import { NODETOOL_PARSERS } from '../../mcp-server/src/core/parse/nodetool/index.js';
import type { NodetoolGcstats } from '../../mcp-server/src/core/parse/nodetool/gcstats.js';
import type { NodetoolStatus } from '../../mcp-server/src/core/parse/nodetool/status.js';
import type { NodetoolTablestats } from '../../mcp-server/src/core/parse/nodetool/tablestats.js';
import type { NodetoolTpstats } from '../../mcp-server/src/core/parse/nodetool/tpstats.js';
import type { Parsed } from '../../mcp-server/src/core/parsed.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

// The project's own captures (scripts/capture-lab-fixtures.mjs): every output of every lab node parses.
const LAB = join(FIXTURES_DIR, 'lab');
interface ManifestFile {
  file: string;
  kind: string;
  command: string;
  exitCode: number;
}
const scenarios = readdirSync(LAB, { withFileTypes: true })
  // A capture in progress writes into .<scenario>.partial: not a fixture yet.
  .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
  .map((d) => d.name);
const read = (scenario: string, file: string) => readFileSync(join(LAB, scenario, file), 'utf8');
const manifest = (scenario: string) => JSON.parse(read(scenario, 'manifest.json')) as { files: ManifestFile[]; cassandraVersion: string };

describe('lab fixtures', () => {
  it('cover 4.1 and 5.0, one and three nodes, and a two-DC 5.0 cluster', () => {
    expect(scenarios.sort()).toEqual(['cassandra-4.1-1node', 'cassandra-4.1-3node', 'cassandra-5.0-1node', 'cassandra-5.0-2dc', 'cassandra-5.0-3node']);
  });

  for (const scenario of scenarios) {
    it(`${scenario}: every successful nodetool capture parses with its subcommand's parser`, () => {
      const files = manifest(scenario).files.filter((f) => f.kind === 'nodetool' && f.exitCode === 0 && !/truncated/.test(read(scenario, f.file).slice(-200)));
      expect(files.length).toBeGreaterThan(20);
      for (const f of files) {
        const sub = /nodetool-([a-z]+)/.exec(f.file)![1]!;
        const p = NODETOOL_PARSERS[sub]!(read(scenario, f.file));
        expect(p.ok ? 'ok' : p.reason, f.file).toBe('ok');
      }
    });

    it(`${scenario}: every failed capture is explained, not a generic failure`, () => {
      for (const f of manifest(scenario).files.filter((x) => x.kind === 'nodetool' && x.exitCode !== 0)) {
        const text = read(scenario, f.file);
        const sub = /nodetool-([a-z]+)/.exec(f.file)![1]!;
        const c = classifyNodetoolFailure(sub, '127.0.0.1', 7199, text);
        // getstreamthroughput's "-d" demand is handled by a retry before classification.
        if (/Use the -d flag/.test(text)) continue;
        expect(c.code, f.file).not.toBe('NODETOOL_FAILED');
      }
    });

    it(`${scenario}: virtual tables and nodetool give node facts`, () => {
      const node1 = readdirSync(join(LAB, scenario, 'node1'));
      const outputs = node1
        .map((f) => {
          const vt = /^vt-(system_views\.[a-z_]+)\.tsv$/.exec(f);
          if (vt) return { name: `cql:${vt[1]}`, text: read(scenario, `node1/${f}`) };
          if (f === 'table-system.local.tsv') return { name: 'cql:system.local', text: read(scenario, `node1/${f}`) };
          const nt = /^nodetool-(info|gcstats|tpstats)\.txt$/.exec(f);
          if (nt) return { name: `nodetool:${nt[1]}`, text: read(scenario, `node1/${f}`) };
          return null;
        })
        .filter((x): x is { name: string; text: string } => x !== null);
      const { facts, unparsed } = nodeFactsFromRaw(outputs);
      expect(unparsed).toEqual([]);
      expect(facts.releaseVersion).toBe(manifest(scenario).cassandraVersion);
      expect(facts.threadPools?.length).toBeGreaterThan(15);
      expect(facts.tables?.find((t) => t.keyspace === 'fixture_ks')?.localRead?.count).toBeGreaterThan(0);
      expect(facts.heap?.maxMb).toBeGreaterThan(400);
      expect(facts.gc).toBeDefined();
      expect(facts.droppedMessages).toBeDefined();
      expect(facts.settings?.['cluster_name']).toBeTruthy();
    });
  }

  it('3-node status seen from node 2 lists three UN nodes owning 100 % each with RF 3 for fixture_ks', () => {
    const s = NODETOOL_PARSERS['status']!(read('cassandra-5.0-3node', 'node2/nodetool-status-fixture_ks.txt'));
    expect(s.ok).toBe(true);
    const v = (s as { value: NodetoolStatus }).value;
    expect(v.nodes.map((n) => n.code)).toEqual(['UN', 'UN', 'UN']);
    expect(v.nodes.map((n) => n.ownsPercent)).toEqual([100, 100, 100]);
  });

  it('4.1 proxyhistograms before any read is the known InstanceNotFoundException, explained', () => {
    const text = read('cassandra-4.1-1node', 'node1/nodetool-proxyhistograms-before-reads.txt');
    expect(classifyNodetoolFailure('proxyhistograms', '127.0.0.1', 7199, text).code).toBe('NO_METRIC_YET');
  });

  describe('cassandra-4.1-3node', () => {
    const sc = 'cassandra-4.1-3node';
    const parse = <T>(sub: string, file: string): T => {
      const p = NODETOOL_PARSERS[sub]!(read(sc, file)) as Parsed<T>;
      if (!p.ok) throw new Error(`${file}: ${p.reason}`);
      return p.value;
    };

    it('status from every node: three UN nodes in datacenter1, each owning 100 % of fixture_ks (RF 3)', () => {
      for (const n of [1, 2, 3]) {
        const st = parse<NodetoolStatus>('status', `node${n}/nodetool-status-fixture_ks.txt`);
        expect(st.datacenters).toEqual(['datacenter1']);
        expect(st.nodes.map((x) => x.address).sort()).toEqual(['127.0.0.1', '127.0.0.2', '127.0.0.3']);
        expect(st.nodes.map((x) => x.code)).toEqual(['UN', 'UN', 'UN']);
        expect(st.nodes.map((x) => x.ownsPercent)).toEqual([100, 100, 100]);
      }
    });

    it('tpstats, tablestats and gcstats of every node parse into the 4.1 shapes with real numbers', () => {
      for (const n of [1, 2, 3]) {
        const tp = parse<NodetoolTpstats>('tpstats', `node${n}/nodetool-tpstats.txt`);
        expect(tp.format).toBe('4.1+');
        expect(tp.pools.find((p) => p.name === 'MutationStage')?.completed).toBeGreaterThan(0);
        expect(tp.droppedSection).toBe('present');
        // 4.1 names the dropped message types with _REQ/_RSP.
        expect(Object.keys(tp.dropped)).toContain('MUTATION_REQ');

        const ts = parse<NodetoolTablestats>('tablestats', `node${n}/nodetool-tablestats-fixture_ks-readings.txt`);
        const t = ts.tables.find((x) => x.keyspace === 'fixture_ks' && x.name === 'readings');
        expect(t?.sstableCount, `node${n}`).toBeGreaterThan(0);

        const gc = parse<NodetoolGcstats>('gcstats', `node${n}/nodetool-gcstats.txt`);
        expect(gc.intervalMs).toBeGreaterThan(0);
        expect(gc.collections).toBeGreaterThanOrEqual(0);
        // Java 17 under 4.1: nodetool prints -1 for direct memory (read as "not available").
        expect(gc.directMemoryBytes).toBeNull();
      }
    });

    it('proxyhistograms before any read fails on all three fresh 4.1 nodes with the same InstanceNotFoundException', () => {
      for (const n of [1, 2, 3]) {
        const text = read(sc, `node${n}/nodetool-proxyhistograms-before-reads.txt`);
        expect(text).toMatch(/javax\.management\.InstanceNotFoundException: org\.apache\.cassandra\.metrics:type=ClientRequest,scope=Read,name=Latency/);
        expect(classifyNodetoolFailure('proxyhistograms', '127.0.0.1', 7099 + 100 * n, text).code).toBe('NO_METRIC_YET');
        // Once the lab's own readiness probe has read system.local, the same call answers.
        expect(NODETOOL_PARSERS['proxyhistograms']!(read(sc, `node${n}/nodetool-proxyhistograms-after-start.txt`)).ok).toBe(true);
      }
    });
  });

  describe('cassandra-5.0-2dc', () => {
    const sc = 'cassandra-5.0-2dc';
    const parse = <T>(sub: string, file: string): T => {
      const p = NODETOOL_PARSERS[sub]!(read(sc, file)) as Parsed<T>;
      if (!p.ok) throw new Error(`${file}: ${p.reason}`);
      return p.value;
    };

    it('status from every node parses into two DCs: 127.0.0.1–2 in datacenter1, 127.0.0.3 in datacenter2, all UN', () => {
      for (const n of [1, 2, 3]) {
        const st = parse<NodetoolStatus>('status', `node${n}/nodetool-status.txt`);
        expect(st.datacenters).toEqual(['datacenter1', 'datacenter2']);
        const inDc = (dc: string) =>
          st.nodes
            .filter((x) => x.datacenter === dc)
            .map((x) => x.address)
            .sort();
        expect(inDc('datacenter1')).toEqual(['127.0.0.1', '127.0.0.2']);
        expect(inDc('datacenter2')).toEqual(['127.0.0.3']);
        expect(st.nodes.map((x) => x.code)).toEqual(['UN', 'UN', 'UN']);
        expect(st.nodes.map((x) => x.rack)).toEqual(['rack1', 'rack1', 'rack1']);
      }
    });

    it('with fixture_ks at datacenter1: 2, datacenter2: 1, every node owns 100 % effective', () => {
      const st = parse<NodetoolStatus>('status', 'node1/nodetool-status-fixture_ks.txt');
      expect(st.ownsEffective).toBe(true);
      expect(st.nodes.map((x) => x.ownsPercent)).toEqual([100, 100, 100]);
    });

    it('node 3’s own CQL tables say datacenter2 and GossipingPropertyFileSnitch; node 1’s peers see it there', () => {
      const node3 = readdirSync(join(LAB, sc, 'node3'));
      const outputs = node3
        .map((f) => {
          const vt = /^vt-(system_views\.[a-z_]+)\.tsv$/.exec(f);
          if (vt) return { name: `cql:${vt[1]}`, text: read(sc, `node3/${f}`) };
          if (f === 'table-system.local.tsv') return { name: 'cql:system.local', text: read(sc, `node3/${f}`) };
          return null;
        })
        .filter((x): x is { name: string; text: string } => x !== null);
      const { facts, unparsed } = nodeFactsFromRaw(outputs);
      expect(unparsed).toEqual([]);
      expect(facts.datacenter).toBe('datacenter2');
      expect(facts.rack).toBe('rack1');
      expect(facts.settings?.['endpoint_snitch']).toMatch(/GossipingPropertyFileSnitch$/);
      // Writes replicate to datacenter2 (the 1000 rows + 20 LWT inserts made after the restart that reset the
      // counters), but the load read at LOCAL_QUORUM from datacenter1: node 3 served no read.
      const ks = facts.tables?.find((t) => t.keyspace === 'fixture_ks' && t.table === 'readings');
      expect(ks?.localWrite?.count).toBeGreaterThanOrEqual(1000);
      expect(ks?.localRead?.count).toBe(0);
      const peers = read(sc, 'node1/table-system.peers_v2.tsv').trim().split('\n');
      const cols = peers[0]!.split('\t');
      const rows = peers.slice(1).map((l) => Object.fromEntries(l.split('\t').map((v, i) => [cols[i]!, v] as const)));
      expect(rows.map((r) => [r['peer'], r['data_center']]).sort()).toEqual([
        ['127.0.0.2', 'datacenter1'],
        ['127.0.0.3', 'datacenter2'],
      ]);
    });
  });
});
