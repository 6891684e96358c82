/**
 * An unpacked diagnostic tarball (OpsCenter / ds-collector layout: nodes/<address>/{nodetool,conf,logs}) read by
 * `analyze` and `diagnose --bundle` directly. The tree is sperf's real Apache Cassandra 2.1.17 diag (3 nodes, see
 * tests/fixtures/diag-cassandra/SOURCES.tsv), copied to a temporary folder with its logs unpacked.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { isDiagTree, readDiagTree } from '../../mcp-server/src/collect/diag-tree.js';
import { diagnoseBundle } from '../../mcp-server/src/ops/diagnose.js';
import { analyzeBundle } from '../../mcp-server/src/ops/snapshot.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const NODES = ['10.101.34.191', '10.101.34.223', '10.101.35.67'];
const made: string[] = [];
function unpackedTree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-diag-'));
  made.push(dir);
  cpSync(join(FIXTURES_DIR, 'diag-cassandra', 'nodes'), join(dir, 'nodes'), { recursive: true });
  for (const n of NODES) {
    const logs = join(dir, 'nodes', n, 'logs', 'cassandra');
    writeFileSync(join(logs, 'system.log'), gunzipSync(readFileSync(join(logs, 'system.log.gz'))));
    unlinkSync(join(logs, 'system.log.gz'));
  }
  return dir;
}
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('diagnostic tarball trees', () => {
  it('analyze reads every node from its nodetool outputs (cfstats and cfhistograms under their 2.1 names)', async () => {
    const dir = unpackedTree();
    expect(await isDiagTree(dir)).toBe(true);
    const s = await analyzeBundle(dir);
    expect(s.nodes.map((n) => [n.address, n.releaseVersion, n.status])).toEqual(NODES.map((n) => [n, '2.1.17', 'complete']));
    const one = s.nodes[0]!;
    expect(one.facts.threadPools?.length).toBeGreaterThan(5);
    expect(one.facts.tables?.length).toBeGreaterThan(0);
  });

  it("diagnose --bundle reads each node's system.log from the tree and compares the nodes' cassandra.yaml", async () => {
    const dir = unpackedTree();
    const same = await diagnoseBundle(dir);
    expect(same.origin).toBe(`diagnostic tree ${dir}`);
    // The logs were read (a quiet 2.1 log: flushes and compactions, no finding); without them the rule is skipped.
    const logsRule = (r: Awaited<ReturnType<typeof diagnoseBundle>>) => r.checked.find((c) => c.rule === 'logs');
    expect(logsRule(same)).toMatchObject({ checked: true });
    const bare = unpackedTree();
    for (const n of NODES) rmSync(join(bare, 'nodes', n, 'logs'), { recursive: true });
    expect(logsRule(await diagnoseBundle(bare))?.checked).toBe(false);
    // The three files differ only in per-node keys (listen_address, broadcast_rpc_address, initial_token).
    expect(same.findings.filter((f) => /differ between nodes/.test(f.title))).toEqual([]);
    // One node's concurrent_reads changed by hand: named, with each node's value.
    const yaml = join(dir, 'nodes', NODES[1]!, 'conf', 'cassandra', 'cassandra.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace(/^concurrent_reads: 32$/m, 'concurrent_reads: 8'));
    const drift = (await diagnoseBundle(dir)).findings.find((f) => /differ between nodes/.test(f.title));
    expect(drift?.evidence.join('\n')).toMatch(/concurrent_reads/);
    expect(drift?.evidence.join('\n')).toMatch(/10\.101\.34\.223[^\n]*8/);
  });

  it("each node's os-metrics (iostat, df, blockdev --report) are judged as interpret judges them, on that node", async () => {
    const r = await diagnoseBundle(unpackedTree());
    const readAhead = r.findings.filter((f) => f.id === 'storage.read-ahead-untuned');
    expect(readAhead.map((f) => f.node).sort()).toEqual(NODES);
    expect(readAhead[0]!.evidence.at(-1)).toMatch(/^read from nodes\/10\.101\.\d+\.\d+\/os-metrics\/blockdev_report of the diagnostic tree$/);
    expect(r.findings.filter((f) => f.id === 'host.bottleneck-time')).toHaveLength(3);
    // The counts cover the findings added after the rules.
    expect(r.counts.info).toBe(r.findings.filter((f) => f.severity === 'info').length);
  });

  it('a link in the tree is not followed: the file is named as not read', async () => {
    const dir = unpackedTree();
    const tp = join(dir, 'nodes', NODES[0]!, 'nodetool', 'tpstats');
    unlinkSync(tp);
    symlinkSync('/etc/passwd', tp);
    const tree = await readDiagTree(dir);
    expect(tree.refused.join('\n')).toMatch(/nodetool\/tpstats is a symbolic link/);
    expect(tree.nodes[0]!.sources.map((s) => s.name)).not.toContain('nodetool:tpstats');
    // The folder of a node that is a link is not a node.
    symlinkSync(join(dir, 'nodes', NODES[0]!), join(dir, 'nodes', '10.9.9.9'));
    expect((await readDiagTree(dir)).nodes.map((n) => n.node.address)).toEqual(NODES);
    expect(readdirSync(join(dir, 'nodes')).sort()).toContain('10.9.9.9');
  });
});
