import { connect } from 'node:net';
import { loadDriver } from '../collect/cql-driver.js';
import { localDcFirstPolicy } from '../collect/cql-load-balancing.js';
import { type LabClientAuth, driverAuthOptions } from './auth-setup.js';
import { LAB_CQL_PORT, LAB_DATACENTER } from './config-files.js';

/** Cheap first check: does anything accept TCP on host:port? */
export function tcpConnects(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean): void => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export type CqlProbe = { ok: true; releaseVersion: string } | { ok: false; error: string };

/**
 * A real CQL round trip to this one node (the native port opens a little before the node can serve queries).
 * The allow-list keeps the driver from answering through another node of a 3-node lab. Under it, LocalDcFirstPolicy
 * rather than DCAwareRoundRobinPolicy: the latter marks hosts outside datacenter1 "ignored", so node 3 of a 2-DC
 * lab (datacenter2) could never be probed.
 */
export async function probeCql(host: string, timeoutMs = 5000, auth: LabClientAuth = {}): Promise<CqlProbe> {
  if (!(await tcpConnects(host, LAB_CQL_PORT, Math.min(timeoutMs, 2000)))) {
    return { ok: false, error: `nothing accepts connections on ${host}:${LAB_CQL_PORT}` };
  }
  const { Client, policies } = await loadDriver();
  const client = new Client({
    contactPoints: [host],
    localDataCenter: LAB_DATACENTER,
    protocolOptions: { port: LAB_CQL_PORT },
    socketOptions: { connectTimeout: timeoutMs, readTimeout: timeoutMs },
    isMetadataSyncEnabled: false,
    pooling: { warmup: false },
    policies: {
      loadBalancing: new policies.loadBalancing.AllowListPolicy(await localDcFirstPolicy(LAB_DATACENTER), [`${host}:${LAB_CQL_PORT}`]),
      // Readiness polling does its own retries; the driver must not reconnect in the background.
      reconnection: new policies.reconnection.ConstantReconnectionPolicy(60_000),
    },
    // A secured lab: its own superuser (or the built-in one before set-up) and the lab CA.
    ...(await driverAuthOptions(auth)),
  });
  try {
    const rs = await client.execute('SELECT release_version FROM system.local');
    const v: unknown = rs.first()?.get('release_version');
    return { ok: true, releaseVersion: typeof v === 'string' ? v : String(v) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    await client.shutdown().catch(() => {});
  }
}
