import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { classifyNodetoolFailure } from '../../mcp-server/src/core/nodetool-errors.js';
import { NODETOOL_PARSERS } from '../../mcp-server/src/core/parse/nodetool/index.js';
import type { NodetoolStatus } from '../../mcp-server/src/core/parse/nodetool/status.js';
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
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const read = (scenario: string, file: string) => readFileSync(join(LAB, scenario, file), 'utf8');
const manifest = (scenario: string) => JSON.parse(read(scenario, 'manifest.json')) as { files: ManifestFile[]; cassandraVersion: string };

describe('lab fixtures', () => {
  it('cover 4.1 and 5.0, one and three nodes', () => {
    expect(scenarios.sort()).toEqual(['cassandra-4.1-1node', 'cassandra-5.0-1node', 'cassandra-5.0-3node']);
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
});
