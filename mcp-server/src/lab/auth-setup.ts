// Roles of a lab started with --auth: a superuser for set-up (the built-in cassandra/cassandra is locked after it),
// and the tool's role with the least privilege every collecting tool needs. Also the driver options the lab itself
// uses to talk to a secured node (readiness probe, set-up).
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type cassandra from 'cassandra-driver';
import { loadDriver } from '../collect/cql-driver.js';
import { LabError } from './errors.js';
import { writeFileAtomic } from './fs-util.js';
import { nodeDirFor } from './paths.js';
import { LAB_ADMIN_ROLE, LAB_BENCH_ROLE, LAB_TOOL_ROLE, secretsDirFor, type LabSecurityOptions } from './security.js';

/**
 * What the tool's role is granted: the least that lets cluster_snapshot, diagnose, review_schema and
 * audit_config --hosts read everything they read (found by running each with the role and adding what failed; see
 * the README, "Point it at a secured cluster"). Cassandra lets any logged-in role read system_schema and
 * system.local/peers/peers_v2 (ClientState's readable system resources), and (measured on 5.0.9 and 4.1.10)
 * system_virtual_schema; system_views needs a grant.
 */
export const TOOL_GRANTS: readonly string[] = [
  `GRANT SELECT ON KEYSPACE system_views TO ${LAB_TOOL_ROLE}`,
  // diagnose reads the repair history (last repair per table).
  `GRANT SELECT ON TABLE system_distributed.parent_repair_history TO ${LAB_TOOL_ROLE}`,
];

/**
 * The stress role: everything the tool's role may read (so the run's before/after snapshots work), plus CREATE ON
 * ALL KEYSPACES, which CREATE KEYSPACE needs even with IF NOT EXISTS (CreateKeyspaceStatement.authorize in
 * Cassandra 4.1 and 5.0); Cassandra then gives the creator every permission on the keyspace it made, so nothing
 * else is granted. A stress keyspace made by another role needs `GRANT MODIFY, SELECT` on it (the run says which).
 */
export const BENCH_GRANTS: readonly string[] = [`GRANT ${LAB_TOOL_ROLE} TO ${LAB_BENCH_ROLE}`, `GRANT CREATE ON ALL KEYSPACES TO ${LAB_BENCH_ROLE}`];

/** Connection settings for the lab's own clients (probe, set-up) on a secured lab. */
export interface LabClientAuth {
  username?: string;
  password?: string;
  sslOptions?: { ca: Buffer[]; key?: Buffer; cert?: Buffer; rejectUnauthorized: true };
}

const SETUP_MARKER = 'cql-tuner-auth-setup.json';

/** Kept in node 1's directory, so wiping the data (and with it the roles) forgets that set-up was done. */
function markerPath(stateDir: string): string {
  return join(nodeDirFor(stateDir, 1), SETUP_MARKER);
}

async function fileExists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

interface StoredPasswords {
  admin: string;
  tool: string;
  bench: string;
}

async function passwords(stateDir: string): Promise<StoredPasswords> {
  const raw = await readFile(join(secretsDirFor(stateDir), 'passwords.json'), 'utf8');
  return JSON.parse(raw) as StoredPasswords;
}

/**
 * How the lab itself logs in: as the set-up superuser once set-up is done, before that as the built-in
 * cassandra/cassandra that CassandraRoleManager creates on first start; TLS with the lab CA (and client cert).
 */
export async function labClientAuth(stateDir: string, sec: LabSecurityOptions | undefined, as: 'admin' | 'tool' = 'admin'): Promise<LabClientAuth> {
  if (!sec) return {};
  const dir = secretsDirFor(stateDir);
  const out: LabClientAuth = {};
  if (sec.auth) {
    const p = await passwords(stateDir);
    if (as === 'tool') Object.assign(out, { username: LAB_TOOL_ROLE, password: p.tool });
    else if (await fileExists(markerPath(stateDir))) Object.assign(out, { username: LAB_ADMIN_ROLE, password: p.admin });
    else Object.assign(out, { username: 'cassandra', password: 'cassandra' });
  }
  if (sec.tls) {
    const ca = await readFile(join(dir, 'ca.pem'));
    const key = await readFile(join(dir, 'client-key.pem')).catch(() => null);
    const cert = await readFile(join(dir, 'client-cert.pem')).catch(() => null);
    out.sslOptions = { ca: [ca], ...(key && cert ? { key, cert } : {}), rejectUnauthorized: true };
  }
  return out;
}

export async function driverAuthOptions(a: LabClientAuth): Promise<Partial<cassandra.ClientOptions>> {
  const { auth } = await loadDriver();
  return {
    ...(a.username ? { authProvider: new auth.PlainTextAuthProvider(a.username, a.password ?? '') } : {}),
    ...(a.sslOptions ? { sslOptions: a.sslOptions } : {}),
  };
}

function quote(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

async function withSession<T>(host: string, a: LabClientAuth, fn: (c: cassandra.Client) => Promise<T>): Promise<T> {
  const { Client, policies } = await loadDriver();
  const client = new Client({
    contactPoints: [host],
    localDataCenter: 'datacenter1',
    protocolOptions: { port: 9042 },
    socketOptions: { connectTimeout: 10_000, readTimeout: 30_000 },
    isMetadataSyncEnabled: false,
    policies: { loadBalancing: new policies.loadBalancing.AllowListPolicy(new policies.loadBalancing.RoundRobinPolicy(), [`${host}:9042`]) },
    ...(await driverAuthOptions(a)),
  });
  try {
    await client.connect();
    return await fn(client);
  } finally {
    await client.shutdown().catch(() => {});
  }
}

/**
 * Creates (or re-asserts) the lab's roles on a running auth lab: the set-up superuser on first start (then the
 * built-in cassandra role gets a random password and no login), and the tool's role with TOOL_GRANTS. Idempotent.
 */
export async function setUpLabRoles(stateDir: string, host: string, sec: LabSecurityOptions, deadlineMs = 60_000): Promise<void> {
  if (!sec.auth) return;
  const p = await passwords(stateDir);
  const started = Date.now();
  let last = '';
  for (;;) {
    try {
      if (!(await fileExists(markerPath(stateDir)))) {
        const boot = await labClientAuth(stateDir, sec);
        await withSession(host, boot, async (c) => {
          await c.execute(`CREATE ROLE IF NOT EXISTS ${LAB_ADMIN_ROLE} WITH SUPERUSER = true AND LOGIN = true AND PASSWORD = ${quote(p.admin)}`);
        });
        const admin = { ...boot, username: LAB_ADMIN_ROLE, password: p.admin };
        await withSession(host, admin, async (c) => {
          // The well-known default must not stay usable: as an operator would after creating their own superuser.
          await c.execute(`ALTER ROLE cassandra WITH PASSWORD = ${quote(randomBytes(24).toString('base64url'))} AND LOGIN = false`);
        });
        await writeFileAtomic(markerPath(stateDir), `${JSON.stringify({ admin: LAB_ADMIN_ROLE, at: new Date().toISOString() })}\n`);
      }
      await withSession(host, await labClientAuth(stateDir, sec), async (c) => {
        await c.execute(`CREATE ROLE IF NOT EXISTS ${LAB_TOOL_ROLE} WITH LOGIN = true AND PASSWORD = ${quote(p.tool)}`);
        await c.execute(`ALTER ROLE ${LAB_TOOL_ROLE} WITH PASSWORD = ${quote(p.tool)} AND LOGIN = true`);
        for (const g of TOOL_GRANTS) await c.execute(g);
        await c.execute(`CREATE ROLE IF NOT EXISTS ${LAB_BENCH_ROLE} WITH LOGIN = true AND PASSWORD = ${quote(p.bench)}`);
        await c.execute(`ALTER ROLE ${LAB_BENCH_ROLE} WITH PASSWORD = ${quote(p.bench)} AND LOGIN = true`);
        for (const g of BENCH_GRANTS) await c.execute(g);
      });
      return;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
      if (Date.now() - started > deadlineMs) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  throw new LabError(
    'SECURITY_SETUP_FAILED',
    `Could not set up the lab roles on ${host} within ${Math.round(deadlineMs / 1000)}s: ${last}`,
    'Stop the lab with `cql-tuner lab stop --wipe --yes` (roles live in the data) and start it again.',
  );
}
