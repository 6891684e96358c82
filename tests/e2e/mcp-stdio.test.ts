import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BUNDLE, connectBundle } from '../helpers/mcp-client.js';

type Conn = Awaited<ReturnType<typeof connectBundle>>;
let conn: Conn;

beforeAll(async () => {
  // An empty PATH and no CASSANDRA_HOME keep the refusal tests from reaching any real nodetool.
  conn = await connectBundle({ CQL_TUNER_HOME: '/nonexistent-cql-tuner-home' });
});
afterAll(async () => {
  await conn?.close();
});

function text(res: object): string {
  const c = ((res as { content?: unknown }).content as { type: string; text?: string }[] | undefined) ?? [];
  return c.map((x) => x.text ?? '').join('\n');
}

describe('MCP server over stdio (built bundle)', () => {
  it('identifies itself and lists tools with annotations and schemas', async () => {
    expect(conn.client.getServerVersion()?.name).toBe('cql-tuner');
    const { tools } = await conn.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([
      'analyze_bundle',
      'analyze_logs',
      'audit_config',
      'audit_os',
      'cluster_snapshot',
      'compare_runs',
      'diagnose',
      'estimate_scaling',
      'grep_logs',
      'inspect_storage',
      'interpret',
      'lab_incident',
      'lab_start',
      'lab_status',
      'lab_stop',
      'metrics_window',
      'migration_review',
      'nodetool',
      'plan_mkfs',
      'plan_queue_depth',
      'review_schema',
      'run_stress',
      'stress_cancel',
      'stress_status',
    ]);
    // Destructive: starting the lab (it wipes an earlier lab of another version or shape), stopping it (wipe),
    // putting load on a cluster and ending a stress run's processes. Not read-only besides them: bundles written
    // by cluster_snapshot/diagnose (which also reset gcstats' interval) and compare_runs' charts. The table and
    // its reasons: mcp-server/src/mcp/tools/annotations.ts (tests/hardening/security-11-annotations.test.ts).
    const all = Object.values(byName);
    expect(
      all
        .filter((t) => t.annotations?.destructiveHint)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['lab_incident', 'lab_start', 'lab_stop', 'run_stress', 'stress_cancel']);
    expect(
      all
        .filter((t) => !t.annotations?.readOnlyHint)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['cluster_snapshot', 'compare_runs', 'diagnose', 'lab_incident', 'lab_start', 'lab_stop', 'run_stress', 'stress_cancel']);
    for (const t of all)
      expect(Object.keys(t.annotations ?? {}).sort(), t.name).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint']);
    for (const t of tools) expect(t.annotations, t.name).toBeDefined();
    expect(byName['cluster_snapshot']!.annotations?.readOnlyHint).toBe(false);
    expect(byName['nodetool']!.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(byName['lab_stop']!.annotations?.destructiveHint).toBe(true);
    expect(byName['lab_status']!.annotations?.readOnlyHint).toBe(true);
    const sub = (byName['nodetool']!.inputSchema.properties as Record<string, { enum?: string[] }>)['subcommand'];
    expect(sub?.enum).toContain('tpstats');
    expect(sub?.enum).not.toContain('repair');
    expect(sub?.enum).not.toContain('gcstats'); // resets the node's GC interval: not read-only
    expect(byName['nodetool']!.outputSchema?.properties).toHaveProperty('parsed');
  });

  it('refuses a subcommand that is not on the allow-list, with the list', async () => {
    const res = await conn.client.callTool({ name: 'nodetool', arguments: { subcommand: 'decommission' } });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/allow-list/);
    expect(text(res)).toContain('tablestats');
  });

  it('refuses a keyspace that is not a CQL identifier', async () => {
    const res = await conn.client.callTool({ name: 'nodetool', arguments: { subcommand: 'tablestats', keyspace: 'ks; rm -rf /' } });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/BAD_IDENTIFIER.*not a CQL identifier/s);
  });

  it('refuses an option-like host', async () => {
    const res = await conn.client.callTool({ name: 'nodetool', arguments: { subcommand: 'status', host: '-oProxyCommand=id' } });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/BAD_HOST/);
  });

  it('refuses a nodetoolPath that is not a nodetool', async () => {
    const res = await conn.client.callTool({ name: 'nodetool', arguments: { subcommand: 'status', nodetoolPath: '/bin/sh' } });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/named nodetool/);
  });

  it('wants confirmation before wiping lab data', async () => {
    const res = await conn.client.callTool({ name: 'lab_stop', arguments: { wipe: true } });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/CONFIRMATION_REQUIRED/);
  });

  it('keeps stdout for JSON-RPC only: every byte it writes, across failing and working calls, is a JSON-RPC 2.0 message', async () => {
    // The SDK client passes a stray stdout line to onerror and carries on, so read the raw stream instead.
    const child = spawn(process.execPath, [BUNDLE, 'mcp'], {
      env: { ...(process.env as Record<string, string>), CQL_TUNER_HOME: '/nonexistent-cql-tuner-home', PATH: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const calls: [string, Record<string, unknown>][] = [
      ['nodetool', { subcommand: 'status', port: 1 }], // no nodetool anywhere: an error result
      ['nodetool', { subcommand: 'repair' }], // refused
      ['cluster_snapshot', { hosts: ['127.0.0.1'], cqlPort: 1 }], // driver error path
      [
        'interpret',
        {
          text: 'Datacenter: dc1\n=======\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n--  Address    Load       Tokens  Owns (effective)  Host ID                               Rack\nDN  10.0.0.1   1.2 GiB    16      100.0%            11111111-1111-1111-1111-111111111111  rack1\n',
        },
      ],
      ['analyze_logs', { paths: ['/nonexistent/system.log'] }],
      ['lab_status', {}],
    ];
    const messages = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      ...calls.map(([name, args], i) => ({ jsonrpc: '2.0', id: i + 2, method: 'tools/call', params: { name, arguments: args } })),
    ];
    for (const m of messages) child.stdin.write(`${JSON.stringify(m)}\n`);
    // Calls run concurrently and answer in any order: wait for every id.
    const answered = () => new Set([...stdout.matchAll(/"id":(\d+)[,}]/g)].map((m) => Number(m[1]))).size;
    const deadline = Date.now() + 60_000;
    while (answered() < calls.length + 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
    const lines = stdout.split('\n').filter((l) => l !== '');
    const ids = new Set<number>();
    for (const line of lines) {
      const msg = JSON.parse(line) as { jsonrpc: string; id?: number };
      expect(msg.jsonrpc, line.slice(0, 200)).toBe('2.0');
      if (typeof msg.id === 'number') ids.add(msg.id);
    }
    expect(stdout.endsWith('\n')).toBe(true);
    // Every request was answered, and the failures really happened (so their output paths were exercised).
    expect([...ids].sort((a, b) => a - b)).toEqual(messages.flatMap((m) => ('id' in m ? [m.id] : [])));
    expect(lines.filter((l) => l.includes('"isError":true')).length).toBeGreaterThanOrEqual(3);
    expect(stderr).not.toMatch(/^\{"jsonrpc"/m);
  }, 90_000);
});

describe('cluster_snapshot input checks (no cluster needed)', () => {
  it('names what is missing when neither hosts nor lab is given', async () => {
    const res = await conn.client.callTool({ name: 'cluster_snapshot', arguments: {} });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/NO_CONTACT_POINTS/);
  });

  it('refuses a hostile contact point before connecting', async () => {
    const res = await conn.client.callTool({ name: 'cluster_snapshot', arguments: { hosts: ['127.0.0.1;id'] } });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/BAD_HOST/);
  });

  it('reports an unreachable cluster with the cause and a fix', async () => {
    const res = await conn.client.callTool({ name: 'cluster_snapshot', arguments: { hosts: ['127.0.0.1:1'] } });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/(CQL|CLUSTER)_UNREACHABLE[\s\S]*Fix:/);
  });

  it('says there is no bundle at a path that holds none', async () => {
    const res = await conn.client.callTool({ name: 'analyze_bundle', arguments: { path: '/nonexistent/bundle' } });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/NOT_A_BUNDLE/);
  });
});

describe('interpret through MCP', () => {
  it('finds the DN node in pasted status text and cites knowledge', async () => {
    const status = [
      'Datacenter: dc1',
      '===============',
      'Status=Up/Down',
      '|/ State=Normal/Leaving/Joining/Moving',
      '--  Address    Load       Tokens  Owns (effective)  Host ID                               Rack',
      'UN  10.0.0.1   1.2 GiB    16      66.7%             0b9c7a1e-0000-4000-8000-000000000001  r1',
      'DN  10.0.0.2   1.1 GiB    16      66.7%             0b9c7a1e-0000-4000-8000-000000000002  r1',
      'UN  10.0.0.3   1.2 GiB    16      66.7%             0b9c7a1e-0000-4000-8000-000000000003  r1',
    ].join('\n');
    const res = await conn.client.callTool({ name: 'interpret', arguments: { text: status } });
    expect(res.isError).toBeFalsy();
    const s = (res as unknown as { structuredContent: { kind: string; findings: { id: string; severity: string; node?: string }[] } }).structuredContent;
    expect(s.kind).toBe('nodetool.status');
    expect(s.findings).toEqual([expect.objectContaining({ id: 'topology.node-down', severity: 'critical', node: '10.0.0.2' })]);
  });

  it('says unknown text is unknown and lists what it supports', async () => {
    const res = await conn.client.callTool({ name: 'interpret', arguments: { text: 'lorem ipsum' } });
    const s = (res as unknown as { structuredContent: { ok: boolean; supported: string[] } }).structuredContent;
    expect(s.ok).toBe(false);
    expect(s.supported).toContain('nodetool.tpstats');
  });
});
