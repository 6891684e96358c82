import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CqlSession } from '../../mcp-server/src/collect/cql-session.js';
import { loadDriver } from '../../mcp-server/src/collect/cql-driver.js';
import { driverAuthOptions, labClientAuth } from '../../mcp-server/src/lab/auth-setup.js';
import type { LabState } from '../../mcp-server/src/lab/index.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { OpError } from '../../mcp-server/src/ops/errors.js';
import { runNodetool } from '../../mcp-server/src/ops/nodetool.js';
import { readStatus } from '../../mcp-server/src/collect/stress-runner.js';
import { startStress, waitForRun } from '../../mcp-server/src/ops/stress.js';
import { takeSnapshot } from '../../mcp-server/src/ops/snapshot.js';
import { tempLabHome } from '../helpers/lab-home.js';

// Real secured Cassandra labs (issue #20): PasswordAuthenticator + CassandraAuthorizer, client/internode TLS with
// keytool-made certificates, JMX password files; every collecting tool with the least-privilege role cql_tuner,
// and each way a secured connection fails. The labs run on CQL_TUNER_LAB_NET (127.0.2 unless set), never on the
// default 127.0.0.x, so they can run next to another lab. CQL_TUNER_SKIP_LAB=1 skips (no Java/Maven).
const skip = process.env.CQL_TUNER_SKIP_LAB === '1';
const NET = process.env.CQL_TUNER_LAB_NET && process.env.CQL_TUNER_LAB_NET !== '127.0.0' ? process.env.CQL_TUNER_LAB_NET : '127.0.2';
const LONG = 600_000;

const TOOL_ENV = [
  'CQL_TUNER_LAB_NET',
  'CQL_TUNER_JMX_SSL',
  'CQL_TUNER_CQLSHRC',
  'CQL_TUNER_JMX_USERNAME',
  'CQL_TUNER_JMX_PASSWORD_FILE',
  'CQL_TUNER_JMX_PASSWORD',
  'CQL_TUNER_CQL_TLS',
  'CQL_TUNER_CQL_USERNAME',
  'CQL_TUNER_CQL_PASSWORD',
  'CQL_TUNER_CQL_CA_FILE',
];
const savedEnv = Object.fromEntries(TOOL_ENV.map((k) => [k, process.env[k]]));

function restoreEnv(): void {
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

/** The environment a user of the secured lab sets: the lab's cqlshrc for the tool role and its JMX password file. */
function useToolSettings(state: LabState): void {
  const sec = state.security!;
  for (const k of TOOL_ENV) if (k !== 'CQL_TUNER_LAB_NET') delete process.env[k];
  process.env.CQL_TUNER_CQLSHRC = sec.cqlshrc;
  if (sec.jmxUser) {
    process.env.CQL_TUNER_JMX_USERNAME = sec.jmxUser;
    process.env.CQL_TUNER_JMX_PASSWORD_FILE = sec.jmxPasswordFile!;
  }
}

/** Runs CQL as the lab's set-up superuser (what an operator would do in cqlsh). */
async function asAdmin(state: LabState, statements: string[]): Promise<void> {
  const { Client: DriverClient } = await loadDriver();
  const c = new DriverClient({
    contactPoints: [state.nodes[0]!.host],
    localDataCenter: 'datacenter1',
    ...(await driverAuthOptions(await labClientAuth(state.stateDir, state.security))),
  });
  try {
    for (const q of statements) await c.execute(q);
  } finally {
    await c.shutdown();
  }
}

/** Polls fn until done(result) (a permission change takes a few seconds to reach Cassandra's caches). */
async function untilSettled<T>(fn: () => Promise<T>, done: (r: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await fn();
    if (done(r) || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function mcpClient(): Promise<Client> {
  const server = createServer();
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  const client = new Client({ name: 'lab-secured-test', version: '1' });
  await client.connect(ct);
  return client;
}

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 })) as ToolResult;
}

async function connectError(contactPoints: string[]): Promise<OpError> {
  const e = await CqlSession.connect({ contactPoints, connectTimeoutMs: 4000 }).then(
    async (s) => {
      await s.close();
      return null;
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(OpError);
  return e as OpError;
}

/** A cqlshrc next to the lab's, with some keys changed (a user's file with a mistake in it). */
function variantCqlshrc(state: LabState, name: string, edit: (text: string) => string): string {
  const path = join(state.stateDir, `${name}.cqlshrc`);
  writeFileSync(path, edit(readFileSync(state.security!.cqlshrc, 'utf8')), { mode: 0o600 });
  return path;
}

type NodeView = { address: string; errors: string[]; collected: string[] };

describe.skipIf(skip)(`secured 1-node Cassandra 5.0 on ${NET}.1: auth + TLS + JMX auth`, () => {
  const lab = tempLabHome('cql-tuner-secured-');
  let state: LabState;
  let client: Client;
  const host = `${NET}.1`;

  beforeAll(async () => {
    process.env.CQL_TUNER_LAB_NET = NET;
    state = await lab.start({ nodes: 1, version: '5.0', auth: true, tls: true, jmxAuth: true });
    await asAdmin(state, [
      "CREATE KEYSPACE IF NOT EXISTS secured_ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
      'CREATE TABLE IF NOT EXISTS secured_ks.events (id int PRIMARY KEY, body text)',
    ]);
    useToolSettings(state);
    client = await mcpClient();
  }, LONG);

  afterAll(async () => {
    await client?.close();
    await lab.stop();
    restoreEnv();
  }, 180_000);

  it('records the network, the security settings and the files a client reads', () => {
    expect(state.net).toBe(NET);
    expect(state.nodes[0]!.host).toBe(host);
    expect(state.nodes[0]!.jmxPort).not.toBe(7199);
    expect(state.security).toMatchObject({ auth: true, tls: true, jmxAuth: true, toolRole: 'cql_tuner', jmxUser: 'cql_tuner_jmx' });
    const rc = readFileSync(state.security!.cqlshrc, 'utf8');
    expect(rc).toMatch(/\[authentication\]\nusername = cql_tuner\n/);
    expect(rc).toMatch(/\[ssl\]\ncertfile = .*ca\.pem\nvalidate = true/);
    expect(readFileSync(state.security!.benchCqlshrc!, 'utf8')).toMatch(/\[authentication\]\nusername = cql_tuner_bench\n/);
    const yaml = readFileSync(join(state.nodes[0]!.dir, 'conf', 'cassandra.yaml'), 'utf8');
    expect(yaml).toMatch(/authenticator:\n\s+class_name: PasswordAuthenticator/);
    expect(yaml).toMatch(/client_encryption_options:\n\s+enabled: true\n\s+optional: false/);
  });

  it('cluster_snapshot (lab) reads every source with the least-privilege role, CQL over TLS and JMX with a password', async () => {
    const r = await call(client, 'cluster_snapshot', { lab: true });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const s = r.structuredContent as { nodes: NodeView[]; warnings?: string[] };
    expect(s.nodes).toHaveLength(1);
    expect(s.nodes[0]!.errors).toEqual([]);
    expect(s.nodes[0]!.collected).toEqual(
      expect.arrayContaining(['cql:system_views.settings', 'cql:system_views.thread_pools', 'nodetool:info', 'nodetool:gcstats']),
    );
    expect(s.warnings ?? []).toEqual([]);
  }, 120_000);

  it('cluster_snapshot by hosts (an MCP argument) gets the lab credentials only because the host is a running lab node', async () => {
    const r = await call(client, 'cluster_snapshot', { hosts: [host], jmxHost: '127.0.0.1', jmxPort: state.nodes[0]!.jmxPort });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect((r.structuredContent as { nodes: NodeView[] }).nodes[0]!.errors).toEqual([]);
  }, 120_000);

  it('diagnose (lab) collects without a collection error', async () => {
    const r = await call(client, 'diagnose', { lab: true });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const text = JSON.stringify(r.structuredContent);
    expect(text).not.toMatch(/CQL_UNAUTHORIZED|JMX_AUTH|JMX_ACCESS_DENIED|CQL_AUTH/);
    expect((r.structuredContent as { warnings?: string[] }).warnings ?? []).toEqual([]);
  }, 180_000);

  it('nodetool status and info through JMX authentication', async () => {
    for (const subcommand of ['status', 'info', 'describecluster']) {
      const r = await call(client, 'nodetool', { subcommand, host: '127.0.0.1', port: state.nodes[0]!.jmxPort });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect((r.structuredContent as { ok: boolean; error?: unknown }).error).toBeUndefined();
    }
  }, 120_000);

  it('review_schema --hosts reads the schema with DESCRIBE as cql_tuner', async () => {
    const r = await call(client, 'review_schema', { hosts: [host] });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(JSON.stringify(r.structuredContent)).toContain('secured_ks.events');
  }, 120_000);

  it('audit_config --hosts compares the node yaml with system_views.settings read as cql_tuner', async () => {
    const r = await call(client, 'audit_config', { files: [join(state.nodes[0]!.dir, 'conf', 'cassandra.yaml')], hosts: [host] });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const text = JSON.stringify(r.structuredContent);
    expect(text).not.toMatch(/CQL_UNAUTHORIZED|has no SELECT permission/);
    expect(text).toMatch(/drift/i);
  }, 120_000);

  it('stress (latte) as the read-only role: latte says nothing, the runner finds no keyspace and names GRANT CREATE ON ALL KEYSPACES', async () => {
    const started = await startStress({ tool: 'latte', workload: 'write', nodes: [host], durationS: 3, snapshots: 'none' });
    const result = await waitForRun(started.id);
    expect(result.state).toBe('failed');
    expect(result.warnings.join('\n')).toContain('GRANT CREATE ON ALL KEYSPACES TO cql_tuner');
    // latte 0.29 itself reported success for the refused CREATE KEYSPACE (its execute() returns Ok on errors).
    expect(readFileSync(join(started.dir, 'schema.err.txt'), 'utf8')).toContain('Schema created successfully');
  }, 120_000);

  it('stress (latte) as cql_tuner_bench over TLS: runs, the password in latte’s environment only, never on its command line', async () => {
    const sec = state.security!;
    const password = (JSON.parse(readFileSync(join(sec.secretsDir, 'passwords.json'), 'utf8')) as { bench: string }).bench;
    process.env.CQL_TUNER_CQLSHRC = sec.benchCqlshrc!;
    try {
      const started = await startStress({ tool: 'latte', workload: 'write', nodes: [host], durationS: 6, snapshots: 'lab' });
      expect(started.steps.every((s) => s.argv.includes('--ssl') && s.argv.includes(sec.caPem!))).toBe(true);
      // What `ps` shows of the running step: its command line, read from /proc while it runs.
      let cmdline: string | null = null;
      for (let i = 0; i < 200 && cmdline === null; i++) {
        const st = await readStatus(started.id);
        if (st?.step === 'run' && st.pid) cmdline = readFileSync(`/proc/${st.pid}/cmdline`, 'utf8').split('\0').join(' ');
        else await new Promise((r) => setTimeout(r, 100));
      }
      expect(cmdline).toContain('--ssl-ca');
      expect(cmdline).not.toContain(password);
      const result = await waitForRun(started.id);
      expect(result.state, JSON.stringify(result.warnings)).toBe('finished');
      expect(result.facts?.totalOps ?? 0).toBeGreaterThan(0);
      expect(result.snapshotErrors).toEqual([]);
      for (const f of ['argv.json', 'status.json', 'result.json', 'run.out.txt', 'run.err.txt']) {
        expect(readFileSync(join(started.dir, f), 'utf8'), f).not.toContain(password);
      }
    } finally {
      process.env.CQL_TUNER_CQLSHRC = sec.cqlshrc;
    }
  }, 180_000);

  it('stress as the read-only role once the keyspace exists: the refused writes are named as GRANT MODIFY', async () => {
    // The bench run above made cql_tuner_stress.kv (its owner is cql_tuner_bench); cql_tuner may not write to it.
    const started = await startStress({ tool: 'latte', workload: 'write', nodes: [host], durationS: 3, snapshots: 'none' });
    const result = await waitForRun(started.id);
    expect(result.warnings.join('\n')).toContain('GRANT MODIFY ON TABLE cql_tuner_stress.kv TO cql_tuner');
  }, 120_000);

  it('a missing grant: every refused source says CQL_UNAUTHORIZED and the snapshot names the GRANT once', async () => {
    await asAdmin(state, ['REVOKE SELECT ON KEYSPACE system_views FROM cql_tuner']);
    try {
      // Cassandra caches permissions (permissions_validity, 2 s by default, refreshed in the background).
      const s = await untilSettled(
        () => takeSnapshot({ lab: true }),
        (x) => x.nodes[0]!.sources.some((y) => y.error?.code === 'CQL_UNAUTHORIZED'),
      );
      const refused = s.nodes[0]!.sources.filter((x) => x.error?.code === 'CQL_UNAUTHORIZED');
      expect(refused.length).toBeGreaterThan(5);
      expect(refused.every((x) => x.name.startsWith('cql:system_views.'))).toBe(true);
      expect(s.warnings).toEqual([expect.stringContaining('GRANT SELECT ON KEYSPACE system_views TO cql_tuner')]);
      // The rest of the sweep went on: JMX and the readable system tables still answered.
      expect(s.nodes[0]!.sources.filter((x) => x.ok).map((x) => x.name)).toEqual(expect.arrayContaining(['cql:system.local', 'nodetool:info']));
    } finally {
      await asAdmin(state, ['GRANT SELECT ON KEYSPACE system_views TO cql_tuner']);
      await untilSettled(
        () => takeSnapshot({ lab: true, nodetool: false }),
        (x) => x.nodes[0]!.sources.every((y) => y.ok),
      );
    }
  }, 120_000);

  it('a wrong password: CQL_AUTH naming the cqlshrc, the password never shown, and the snapshot goes on through JMX', async () => {
    const wrong = 'Wr0ngPassw0rdXyz';
    process.env.CQL_TUNER_CQLSHRC = variantCqlshrc(state, 'wrong-password', (t) => t.replace(/^password = .*$/m, `password = ${wrong}`));
    try {
      const e = await connectError([host]);
      expect(e.code).toBe('CQL_AUTH');
      expect(e.message).toContain('wrong-password.cqlshrc');
      expect(e.message).not.toContain(wrong);
      expect(e.fix).toMatch(/username and password/);
      const s = await takeSnapshot({ lab: true });
      const node = s.nodes[0]!;
      expect(node.sources.find((x) => x.name === 'cql:system.local')?.error?.code).toBe('CQL_AUTH');
      expect(node.sources.filter((x) => x.ok && x.via === 'nodetool').length).toBeGreaterThan(0);
      expect(JSON.stringify(s)).not.toContain(wrong);
    } finally {
      process.env.CQL_TUNER_CQLSHRC = state.security!.cqlshrc;
    }
  }, 120_000);

  it('no credentials at all: CQL_AUTH_REQUIRED with where to put them', async () => {
    process.env.CQL_TUNER_CQLSHRC = variantCqlshrc(state, 'no-auth', (t) => t.replace(/\[authentication\][^[]*/, ''));
    try {
      const e = await connectError([host]);
      expect(e.code).toBe('CQL_AUTH_REQUIRED');
      expect(e.fix).toMatch(/\[authentication\] username \/ password in cqlshrc/);
    } finally {
      process.env.CQL_TUNER_CQLSHRC = state.security!.cqlshrc;
    }
  }, 60_000);

  it('an unknown CA (no certfile: the system CAs only): CQL_TLS_UNKNOWN_CA naming certfile', async () => {
    process.env.CQL_TUNER_CQLSHRC = variantCqlshrc(state, 'no-ca', (t) => t.replace(/^certfile = .*\n/m, ''));
    try {
      const e = await connectError([host]);
      expect(e.code).toBe('CQL_TLS_UNKNOWN_CA');
      expect(e.fix).toMatch(/certfile/);
    } finally {
      process.env.CQL_TUNER_CQLSHRC = state.security!.cqlshrc;
    }
  }, 60_000);

  it('TLS required by the node but off here: CQL_TLS_REQUIRED', async () => {
    process.env.CQL_TUNER_CQLSHRC = variantCqlshrc(state, 'no-ssl', (t) => t.replace(/^ssl = true\n/m, '').replace(/\[ssl\][^[]*/, ''));
    try {
      const e = await connectError([host]);
      expect(e.code).toBe('CQL_TLS_REQUIRED');
      expect(e.fix).toMatch(/CQL_TUNER_CQL_TLS=1|ssl = true/);
    } finally {
      process.env.CQL_TUNER_CQLSHRC = state.security!.cqlshrc;
    }
  }, 60_000);

  it("a host name mismatch: the node's real certificate served from another address is CQL_TLS_HOSTNAME", async () => {
    // node1's key and certificate (SAN = IP of node 1), out of its keystore, served from node 2's unused address.
    const dir = state.security!.secretsDir;
    const pw = (JSON.parse(readFileSync(join(dir, 'passwords.json'), 'utf8')) as { store: string }).store;
    const pem = execFileSync('openssl', ['pkcs12', '-in', join(dir, 'node1.p12'), '-passin', `pass:${pw}`, '-nodes'], { encoding: 'utf8' });
    const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/.exec(pem)![0];
    const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem.slice(pem.indexOf('friendlyName: node1')))![0];
    const server: TlsServer = createTlsServer({ key, cert }, (s) => s.destroy());
    await new Promise<void>((resolve) => server.listen(9042, `${NET}.2`, resolve));
    try {
      const e = await connectError([`${NET}.2`]);
      expect(e.code).toBe('CQL_TLS_HOSTNAME');
      expect(e.message).toContain(`${NET}.2`);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 60_000);

  it('JMX: no login, a wrong password, each a clear nodetool error; a snapshot still reads CQL', async () => {
    const port = state.nodes[0]!.jmxPort;
    delete process.env.CQL_TUNER_JMX_USERNAME;
    delete process.env.CQL_TUNER_JMX_PASSWORD_FILE;
    try {
      const none = await runNodetool({ subcommand: 'info', host: '127.0.0.1', port });
      expect(none.error?.code).toBe('JMX_AUTH');
      expect(none.error?.message).toMatch(/requires a login/);
      process.env.CQL_TUNER_JMX_USERNAME = state.security!.jmxUser!;
      process.env.CQL_TUNER_JMX_PASSWORD = 'not-the-jmx-password';
      const wrong = await runNodetool({ subcommand: 'info', host: '127.0.0.1', port });
      expect(wrong.error?.code).toBe('JMX_AUTH');
      expect(wrong.error?.message).toMatch(/refused the user name or password/);
      expect(JSON.stringify(wrong)).not.toContain('not-the-jmx-password');
      const s = await takeSnapshot({ lab: true });
      const src = s.nodes[0]!.sources;
      expect(src.find((x) => x.name === 'nodetool:info')?.error?.code).toBe('JMX_AUTH');
      expect(src.find((x) => x.name === 'cql:system_views.settings')?.ok).toBe(true);
    } finally {
      delete process.env.CQL_TUNER_JMX_PASSWORD;
      useToolSettings(state);
    }
  }, 120_000);
});

describe.skipIf(skip)(`secured 1-node Cassandra 4.1 on ${NET}.1: auth + TLS with client certificates, JMX auth over SSL`, () => {
  const lab = tempLabHome('cql-tuner-secured41-');
  let state: LabState;
  const host = `${NET}.1`;

  beforeAll(async () => {
    process.env.CQL_TUNER_LAB_NET = NET;
    state = await lab.start({ nodes: 1, version: '4.1', auth: true, tls: true, clientCertAuth: true, jmxAuth: true, jmxSsl: true });
    useToolSettings(state);
  }, LONG);

  afterAll(async () => {
    await lab.stop();
    restoreEnv();
  }, 180_000);

  it('cluster_snapshot with the client certificate from cqlshrc [ssl] userkey/usercert', async () => {
    expect(readFileSync(state.security!.cqlshrc, 'utf8')).toMatch(/userkey = .*client-key\.pem\nusercert = .*client-cert\.pem/);
    const s = await takeSnapshot({ lab: true, nodetool: false });
    expect(s.nodes[0]!.sources.filter((x) => !x.ok)).toEqual([]);
    expect(s.warnings ?? []).toEqual([]);
  }, 120_000);

  it('4.1: stress (latte) as cql_tuner_bench with the client certificate (--ssl-cert/--ssl-key) and snapshots before/after', async () => {
    process.env.CQL_TUNER_CQLSHRC = state.security!.benchCqlshrc!;
    try {
      const started = await startStress({ tool: 'latte', workload: 'write', nodes: [host], durationS: 4, snapshots: 'lab' });
      expect(started.steps[0]!.argv).toEqual(expect.arrayContaining(['--ssl-cert', '--ssl-key']));
      const result = await waitForRun(started.id);
      expect(result.state, JSON.stringify(result.warnings)).toBe('finished');
      expect(result.facts?.totalOps ?? 0).toBeGreaterThan(0);
    } finally {
      process.env.CQL_TUNER_CQLSHRC = state.security!.cqlshrc;
    }
  }, 180_000);

  it('4.1: system_virtual_schema is readable without a grant, as on 5.0', async () => {
    const session = await CqlSession.connect({ contactPoints: [host] });
    try {
      const rows = await session.query(host, 'SELECT keyspace_name FROM system_virtual_schema.keyspaces');
      expect(rows.rows.length).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('JMX over SSL: nodetool with CQL_TUNER_JMX_SSL=1 answers; without it a JMX_SSL error says to set it', async () => {
    const port = state.nodes[0]!.jmxPort;
    process.env.CQL_TUNER_JMX_SSL = '1';
    try {
      const ok = await runNodetool({ subcommand: 'info', host: '127.0.0.1', port });
      expect(ok.error).toBeUndefined();
      expect(ok.ok).toBe(true);
    } finally {
      delete process.env.CQL_TUNER_JMX_SSL;
    }
    const plain = await runNodetool({ subcommand: 'info', host: '127.0.0.1', port });
    expect(plain.ok).toBe(false);
    expect(plain.error?.code).toBe('JMX_SSL');
    expect(plain.error?.fix).toContain('CQL_TUNER_JMX_SSL=1');
  }, 120_000);

  it('without a client certificate: CQL_TLS_CLIENT_CERT naming userkey/usercert', async () => {
    process.env.CQL_TUNER_CQLSHRC = variantCqlshrc(state, 'no-client-cert', (t) => t.replace(/^user(key|cert) = .*\n/gm, ''));
    try {
      const e = await connectError([host]);
      expect(e.code).toBe('CQL_TLS_CLIENT_CERT');
      expect(e.fix).toMatch(/userkey/);
    } finally {
      process.env.CQL_TUNER_CQLSHRC = state.security!.cqlshrc;
    }
  }, 60_000);
});

describe.skipIf(skip)(`secured 3-node Cassandra 5.0 on ${NET}.1-3: auth + client and internode TLS + JMX auth`, () => {
  const lab = tempLabHome('cql-tuner-secured3-');
  let state: LabState;

  beforeAll(async () => {
    process.env.CQL_TUNER_LAB_NET = NET;
    state = await lab.start({ nodes: 3, version: '5.0', auth: true, tls: true, jmxAuth: true });
    useToolSettings(state);
  }, 900_000);

  afterAll(async () => {
    await lab.stop();
    restoreEnv();
  }, 180_000);

  it('internode TLS is on in every node yaml', () => {
    for (const n of state.nodes) {
      expect(readFileSync(join(n.dir, 'conf', 'cassandra.yaml'), 'utf8')).toMatch(/server_encryption_options:\n\s+internode_encryption: all/);
    }
  });

  it('cluster_snapshot and diagnose read all 3 nodes with the least-privilege role', async () => {
    const s = await takeSnapshot({ lab: true, nodetoolOnce: ['status'] });
    expect(s.nodes.map((n) => n.address).sort()).toEqual([`${NET}.1`, `${NET}.2`, `${NET}.3`]);
    for (const n of s.nodes) expect(n.sources.filter((x) => !x.ok).map((x) => `${x.name}: ${x.error?.message}`)).toEqual([]);
    expect(s.warnings ?? []).toEqual([]);
    const client = await mcpClient();
    try {
      const r = await call(client, 'diagnose', { lab: true });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(JSON.stringify(r.structuredContent)).not.toMatch(/CQL_UNAUTHORIZED|JMX_AUTH|CQL_AUTH/);
    } finally {
      await client.close();
    }
  }, 300_000);
});
