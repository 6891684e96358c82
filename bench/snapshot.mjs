// Full cluster snapshot through CQL virtual tables vs the sequential nodetool sweep an operator would run
// for the same facts, on a real 3-node lab, measured in one run. Goals: snapshot ≤ 2 s warm, ≥ 20× faster.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bundle = fileURLToPath(new URL('../mcp-server/dist/cql-tuner.js', import.meta.url));
// What the CQL path (nodetool: false) answers, asked of nodetool instead: pools (tpstats), caches (the cache
// lines of info; its heap line is the one part no virtual table answers), per-table stats, compactions,
// gossip. A subset: the CQL path also reads clients, hints, snapshots, streaming, settings and per-table
// histograms, which would take clientstats, listsnapshots, netstats and tablehistograms per table here.
// The second ratio below compares with the snapshot that adds heap and GC through nodetool.
const NODETOOL_EQUIVALENT = ['tpstats', 'info', 'tablestats', 'compactionstats', 'gossipinfo'];

function dirBytes(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : statSync(p).size;
  }
  return n;
}

export async function benchSnapshot() {
  const home = mkdtempSync(join(tmpdir(), 'cql-tuner-bench-'));
  const connect = async (extraEnv = {}) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bundle, 'mcp'],
      env: { ...process.env, CQL_TUNER_HOME: home, ...extraEnv },
      stderr: 'ignore',
    });
    const c = new Client({ name: 'bench', version: '0' });
    await c.connect(transport);
    return c;
  };
  const timed = async (c, name, args) => {
    const t0 = performance.now();
    const res = await c.callTool({ name, arguments: args }, undefined, { timeout: 600_000, resetTimeoutOnProgress: true });
    if (res.isError) throw new Error(`${name} failed: ${JSON.stringify(res.content)}`);
    return { ms: performance.now() - t0, res };
  };
  const client = await connect();
  const call = (name, args) => timed(client, name, args);
  try {
    process.stderr.write('bench: starting a 3-node lab (≈ 40 s)…\n');
    const lab = await call('lab_start', { nodes: 3, version: '5.0' });
    const nodes = lab.res.structuredContent.nodes;
    await call('cluster_snapshot', { lab: true, nodetool: false }); // warm-up: driver, JIT, server caches
    const cqlRuns = [];
    for (let i = 0; i < 5; i++) cqlRuns.push((await call('cluster_snapshot', { lab: true, nodetool: false })).ms);
    const withFallbacks = (await call('cluster_snapshot', { lab: true })).ms;
    // A diagnosis keeps every raw output in a bundle; the report the assistant reads must be a small part of it.
    const diag = await call('diagnose', { lab: true, save: true });
    const reportText = diag.res.content.map((c) => c.text ?? '').join('\n');
    const bundleDir = diag.res.structuredContent.bundleDir;
    const rawBytes = bundleDir ? dirBytes(bundleDir) : 0;
    const reportBytes = Buffer.byteLength(reportText);
    const words = reportText.split(/\s+/).filter(Boolean).length;
    // The lab's java nodetool: one JVM per node for all its commands vs one JVM per command (the old way).
    const single = await connect({ CQL_TUNER_NODETOOL_BATCH: '0' });
    const diagBatched = [];
    const diagSingle = [];
    for (let i = 0; i < 2; i++) {
      diagBatched.push((await call('diagnose', { lab: true })).ms);
      diagSingle.push((await timed(single, 'diagnose', { lab: true })).ms);
    }
    await single.close();
    const bestBatched = Math.min(...diagBatched);
    const bestSingle = Math.min(...diagSingle);
    let sweepMs = 0;
    for (const n of nodes)
      for (const sub of NODETOOL_EQUIVALENT) sweepMs += (await call('nodetool', { subcommand: sub, host: '127.0.0.1', port: n.jmxPort })).ms;
    const warm = [...cqlRuns].sort((a, b) => a - b)[Math.floor(cqlRuns.length / 2)];
    return {
      name: 'Cluster snapshot (3-node lab): CQL virtual tables vs sequential nodetool',
      lines: [
        `CQL-path snapshot, warm median of 5: ${warm.toFixed(0)} ms (goal ≤ 2000 ms: ${warm <= 2000 ? 'met' : 'NOT met'})`,
        `same with nodetool fallbacks (info, gcstats, tpstats per node, in parallel): ${withFallbacks.toFixed(0)} ms`,
        `sequential nodetool sweep (${NODETOOL_EQUIVALENT.join(', ')} × ${nodes.length} nodes): ${sweepMs.toFixed(0)} ms`,
        `ratio sweep / CQL snapshot: ${(sweepMs / warm).toFixed(1)}× (goal ≥ 20×: ${sweepMs / warm >= 20 ? 'met' : 'NOT met'})`,
        `ratio sweep / snapshot with nodetool fallbacks (which also answers heap and GC): ${(sweepMs / withFallbacks).toFixed(1)}×`,
        `diagnose (3 nodes, best of 2): ${bestBatched.toFixed(0)} ms with one nodetool JVM per node vs ${bestSingle.toFixed(0)} ms with one JVM per command: ${(bestSingle / bestBatched).toFixed(1)}× (goal ≥ 2×: ${bestSingle / bestBatched >= 2 ? 'met' : 'NOT met'})`,
        `diagnosis report ${reportBytes} B (${words} words) vs ${rawBytes} B of raw outputs collected: ${((100 * reportBytes) / Math.max(1, rawBytes)).toFixed(2)} % (goal ≤ 5 %: ${reportBytes <= 0.05 * rawBytes ? 'met' : 'NOT met'}; ≈ 1,500 words for 3 nodes: ${words <= 1500 ? 'met' : 'NOT met'})`,
      ],
      ok: warm <= 2000 && sweepMs / warm >= 20 && bestSingle / bestBatched >= 2 && reportBytes <= 0.05 * rawBytes && words <= 1500,
    };
  } finally {
    await client.callTool({ name: 'lab_stop', arguments: {} }, undefined, { timeout: 120_000 }).catch(() => {});
    await client.close();
    rmSync(home, { recursive: true, force: true });
  }
}
