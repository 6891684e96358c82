import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBundle } from '../helpers/mcp-client.js';

// The whole path a user takes: a real MCP client starts a real 1-node Cassandra 5.0 through lab_start,
// reads it with the nodetool tool, and stops it with lab_stop.
const home = mkdtempSync(join(tmpdir(), 'cql-tuner-it-'));
type Conn = Awaited<ReturnType<typeof connectBundle>>;
let conn: Conn;
const progress: string[] = [];
let pids: number[] = [];

function structured<T>(res: object): T {
  return (res as { structuredContent: T }).structuredContent;
}

beforeAll(async () => {
  conn = await connectBundle({ CQL_TUNER_HOME: home });
  const res = await conn.client.callTool({ name: 'lab_start', arguments: { nodes: 1, version: '5.0' } }, undefined, {
    timeout: 400_000,
    resetTimeoutOnProgress: true,
    onprogress: (p) => progress.push(p.message ?? ''),
  });
  if (res.isError) throw new Error(`lab_start failed: ${JSON.stringify(res.content)}\n${conn.stderr()}`);
  const s = structured<{ nodes: { pid: number | null; cqlUp: boolean }[] }>(res);
  pids = s.nodes.map((n) => n.pid).filter((p): p is number => p !== null);
}, 420_000);

afterAll(async () => {
  // Never leave a JVM behind, even when a test failed half-way.
  if (conn) await conn.client.callTool({ name: 'lab_stop', arguments: {} }, undefined, { timeout: 120_000 }).catch(() => {});
  await conn?.close();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  rmSync(home, { recursive: true, force: true });
}, 180_000);

describe('real 1-node Cassandra 5.0 through the MCP server', () => {
  it('sent progress notifications while starting', () => {
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.join('\n')).toMatch(/node ?1|127\.0\.0\.1/i);
  });

  it('lab_status shows one live node answering CQL', async () => {
    const res = await conn.client.callTool({ name: 'lab_status', arguments: {} });
    const s = structured<{ running: boolean; version: string; nodes: { host: string; alive: boolean; cqlUp: boolean; jmxPort: number }[] }>(res);
    expect(s.running).toBe(true);
    expect(s.version).toMatch(/^5\.0\./);
    expect(s.nodes).toHaveLength(1);
    expect(s.nodes[0]).toMatchObject({ host: '127.0.0.1', alive: true, cqlUp: true, jmxPort: 7199 });
  });

  it('nodetool version reports 5.0.x via the lab jars', async () => {
    const res = await conn.client.callTool({ name: 'nodetool', arguments: { subcommand: 'version' } });
    expect(res.isError).toBeFalsy();
    const r = structured<{ ok: boolean; nodetool: { source: string }; parsed: { ok: boolean; value: { major: number; minor: number; product: string } } }>(res);
    expect(r.ok).toBe(true);
    expect(r.nodetool.source).toBe('lab');
    expect(r.parsed.value).toMatchObject({ major: 5, minor: 0, product: 'cassandra' });
  }, 60_000);

  it('nodetool status parses the node as UN owning 100%', async () => {
    const res = await conn.client.callTool({ name: 'nodetool', arguments: { subcommand: 'status' } });
    const r = structured<{ ok: boolean; parsed: { ok: boolean; value: { nodes: { code: string; address: string; ownsPercent: number; tokens: number }[] } } }>(
      res,
    );
    expect(r.ok).toBe(true);
    expect(r.parsed.value.nodes).toEqual([expect.objectContaining({ code: 'UN', address: '127.0.0.1', ownsPercent: 100, tokens: 16 })]);
    const text = (res.content as { text: string }[])[0]!.text;
    expect(text).toMatch(/1 node\(s\) in 1 DC\(s\): 1 UN/);
  }, 60_000);

  it('nodetool info shows gossip and native transport up and the heap the lab set', async () => {
    const res = await conn.client.callTool({ name: 'nodetool', arguments: { subcommand: 'info' } });
    const r = structured<{ parsed: { value: { gossipActive: boolean; nativeTransportActive: boolean; heapMaxMb: number } } }>(res);
    expect(r.parsed.value).toMatchObject({ gossipActive: true, nativeTransportActive: true });
    expect(r.parsed.value.heapMaxMb).toBeGreaterThan(400);
    expect(r.parsed.value.heapMaxMb).toBeLessThanOrEqual(1024);
  }, 60_000);

  it('an unparsed subcommand returns an excerpt, and raw on request', async () => {
    const res = await conn.client.callTool({ name: 'nodetool', arguments: { subcommand: 'tpstats', raw: true } });
    const r = structured<{ ok: boolean; parsed: null; output: { excerpt: string; raw: string } }>(res);
    expect(r.ok).toBe(true);
    expect(r.output.raw).toMatch(/Pool Name/);
    expect(r.output.excerpt.split('\n').length).toBeLessThanOrEqual(41);
  }, 60_000);

  it('tablestats for one table, named by validated identifiers', async () => {
    const res = await conn.client.callTool({ name: 'nodetool', arguments: { subcommand: 'tablestats', keyspace: 'system', table: 'local', raw: true } });
    const r = structured<{ ok: boolean; output: { raw: string } }>(res);
    expect(r.ok).toBe(true);
    expect(r.output.raw).toMatch(/Keyspace\s*:\s*system/);
    expect(r.output.raw).toMatch(/Table: local/);
  }, 60_000);

  it('a port where no JMX listens fails fast with a cause and a fix', async () => {
    const res = await conn.client.callTool({ name: 'nodetool', arguments: { subcommand: 'status', port: 7999, timeoutMs: 30_000 } });
    const r = structured<{ ok: boolean; error: { code: string; fix: string } }>(res);
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('JMX_UNREACHABLE');
  }, 60_000);

  it('lab_stop ends the process it started', async () => {
    const res = await conn.client.callTool({ name: 'lab_stop', arguments: {} }, undefined, { timeout: 120_000 });
    const s = structured<{ stopped: number[] }>(res);
    expect(s.stopped.sort()).toEqual([...pids].sort());
    for (const pid of pids) expect(existsSync(`/proc/${pid}`)).toBe(false);
  }, 120_000);
});
