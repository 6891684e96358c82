/**
 * Issue #13, class 1: node addresses read from the cluster (nodetool status rows when CQL is unreachable,
 * system.peers through the driver) never become ssh/kubectl options. With nodetoolVia "ssh://ops@{host}" an
 * address "10.0.0.3?config=/tmp/x" used to be pasted into the template and re-parsed, so ssh ran with
 * `-F /tmp/x` (a ProxyCommand is a local command); "?kubeconfig=" did the same for kubectl.
 * The ssh and kubectl here are recorders (tests/hardening/recorders.ts) first on PATH: they log their argv
 * and answer every call with a hostile `nodetool status`.
 */
import { createServer as createNetServer } from 'node:net';
import { delimiter } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CqlSession } from '../../mcp-server/src/collect/cql-session.js';
import { parseStatus } from '../../mcp-server/src/core/parse/nodetool/status.js';
import { checkNodeAddress } from '../../mcp-server/src/core/validate.js';
import { takeSnapshot, type ClusterSnapshot } from '../../mcp-server/src/ops/snapshot.js';
import { makeRecorders, type ExecRecord, type Recorders } from './recorders.js';
import { record } from './stats.js';

const HOSTILE_ADDRESSES = [
  '10.0.0.3?config=/tmp/cqlt-evil_ssh_config',
  '10.0.0.4?identity=/tmp/cqlt-key&knownHosts=/tmp/cqlt-kh',
  '10.0.0.5?kubeconfig=/tmp/cqlt-kubeconfig',
  '10.0.0.6?context=cqlt-evil',
  '-oProxyCommand=touch${IFS}/tmp/cqlt-pwn',
  'evil@10.0.0.8',
  '10.0.0.9/cqlt-container',
  '172.0.XYZ.WZY',
];
const GOOD = ['10.0.0.1', '10.0.0.2'];
/**
 * `nodetool -pp status` prints address:storage_port: the address is a node like the honest rows, the port (here one
 * that looks like an ssh port) is the storage port and must never reach an argv.
 */
const PORTED = '10.0.0.7:2222';
/** What may follow "--" as the ssh host or be the pod: the contact point, the two honest rows and the ported row's host. */
const ALLOWED_HOSTS = new Set(['127.0.0.1', ...GOOD, '10.0.0.7']);

const row = (address: string, i: number) => `UN  ${address}  1.2 GiB  16  33.3%  ${String(i).padStart(8, '0')}-1111-1111-1111-111111111111  rack1`;
const STATUS = [
  'Datacenter: dc1',
  '===============',
  'Status=Up/Down',
  '|/ State=Normal/Leaving/Joining/Moving',
  '--  Address  Load  Tokens  Owns (effective)  Host ID  Rack',
  ...[...GOOD, PORTED, ...HOSTILE_ADDRESSES].map(row),
  '',
].join('\n');

let rec: Recorders;
let closedPort = 0;
const savedPath = process.env.PATH;

beforeAll(async () => {
  rec = makeRecorders({ stdout: STATUS, exitCode: 0 });
  process.env.PATH = `${rec.bin}${delimiter}${savedPath ?? ''}`;
  closedPort = await new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
});

afterAll(() => {
  process.env.PATH = savedPath;
  vi.restoreAllMocks();
  rec?.cleanup();
});

/** Why a recorded client argv is unsafe, or null: no file/context option, and only allowed hosts/pods. */
function problem(e: ExecRecord): string | null {
  const sep = e.argv.indexOf('--');
  const options = sep < 0 ? e.argv : e.argv.slice(0, sep);
  const text = JSON.stringify(e.argv);
  if (/cqlt-|ProxyCommand|IFS|2222/.test(text)) return `hostile text in argv ${text}`;
  if (e.cmd === 'ssh') {
    if (options.some((a) => ['-F', '-i', '-p', '-J'].includes(a) || /UserKnownHostsFile|ProxyCommand/.test(a))) return `ssh option from data: ${text}`;
    if (!ALLOWED_HOSTS.has(e.argv[sep + 1] ?? '')) return `ssh host ${e.argv[sep + 1]} is not a listed address`;
    if (options.includes('-l') && options[options.indexOf('-l') + 1] !== 'ops') return `ssh user from data: ${text}`;
  } else if (e.cmd === 'kubectl') {
    if (options.includes('--kubeconfig') || options.includes('--context')) return `kubectl option from data: ${text}`;
    const exec = options.indexOf('exec');
    const pod = options.slice(exec + 1).find((a) => a !== '-i');
    if (!ALLOWED_HOSTS.has(pod ?? '')) return `pod ${pod} is not a listed address`;
    const c = options.indexOf('-c');
    if (c >= 0 && options[c + 1] !== 'cassandra') return `container from data: ${text}`;
  } else {
    return `unexpected command ${e.cmd}`;
  }
  return null;
}

const refusedRows = (s: ClusterSnapshot) => (s.warnings ?? []).filter((w) => w.includes('it was not collected'));

describe('class 1: node addresses from data never become ssh/kubectl options', () => {
  it('the status parser keeps every row, and marks the ones that are no address', () => {
    const r = parseStatus(STATUS);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.nodes.map((n) => n.address)).toEqual([...GOOD, '10.0.0.7', ...HOSTILE_ADDRESSES]);
    expect(r.value.nodes[2]).toMatchObject({ address: '10.0.0.7', storagePort: 2222 });
    expect(r.value.nodes[2]!.addressProblem).toBeUndefined();
    expect(r.value.nodes.filter((n) => n.addressProblem !== undefined).map((n) => n.address)).toEqual(HOSTILE_ADDRESSES);
    expect(r.warnings).toHaveLength(HOSTILE_ADDRESSES.length);
    // Anonymised pastes still count as nodes for the rules (a down anonymised node is still down).
    expect(HOSTILE_ADDRESSES.every((a) => !checkNodeAddress(a).ok)).toBe(true);
    const honest = ['10.0.0.1', 'db-1.example.com', 'fe80::1', '2a05:d01c:964:7d02:eff2:6989:7b97:cab', '::ffff:10.0.0.1', 'IP1'];
    expect(honest.every((a) => checkNodeAddress(a).ok)).toBe(true);
  });

  it('nodetool-only snapshot (CQL unreachable) over ssh and k8s templates: no option, host or pod from a status row', async () => {
    let tried = 0;
    const unsafe: string[] = [];
    const misreported: string[] = [];
    for (const nodetoolVia of ['ssh://ops@{host}', 'k8s://db/{host}', 'k8s://db/{host}/cassandra']) {
      for (const targetOrigin of ['untrusted', 'trusted'] as const) {
        const before = rec.read().length;
        tried += HOSTILE_ADDRESSES.length;
        const s = await takeSnapshot({ hosts: ['127.0.0.1'], cqlPort: closedPort, nodetoolVia, targetOrigin, nodeTimeoutMs: 5_000 });
        const execs = rec.read().slice(before);
        expect(execs.length, nodetoolVia).toBeGreaterThan(0);
        for (const e of execs) {
          const p = problem(e);
          if (p) unsafe.push(`${nodetoolVia} (${targetOrigin}): ${p}`);
        }
        // Only the honest rows (and the ported row's host) were collected; every other row is reported, not dropped.
        const collected = s.nodes.map((n) => n.address).sort();
        if (JSON.stringify(collected) !== JSON.stringify([...GOOD, '10.0.0.7'])) misreported.push(`${nodetoolVia}: collected ${JSON.stringify(collected)}`);
        if (refusedRows(s).length !== HOSTILE_ADDRESSES.length || !refusedRows(s).join('\n').includes('172.0.XYZ.WZY')) {
          misreported.push(`${nodetoolVia}: ${refusedRows(s).length} rows reported as not collected`);
        }
      }
    }
    record({ section: 'attack', cls: '1 node addresses from data', tried, unsafe: unsafe.length });
    expect(unsafe).toEqual([]);
    expect(misreported).toEqual([]);
  }, 120_000);

  it('nodes discovered through CQL (system.peers) pass the same check before nodetoolVia uses them', async () => {
    const hosts = [...GOOD, ...HOSTILE_ADDRESSES].map((address) => ({
      address,
      port: 9042,
      datacenter: 'dc1',
      rack: 'r1',
      hostId: null,
      releaseVersion: '5.0.0',
      up: true,
    }));
    const fake = {
      hosts: () => hosts,
      warnings: () => [],
      query: async () => {
        throw Object.assign(new Error('no CQL in this test'), { code: 'CQL_QUERY_FAILED' });
      },
      close: async () => {},
    };
    const spy = vi.spyOn(CqlSession, 'connect').mockResolvedValue(fake as unknown as CqlSession);
    const unsafe: string[] = [];
    try {
      const before = rec.read().length;
      const s = await takeSnapshot({ hosts: ['127.0.0.1'], nodetoolVia: 'ssh://ops@{host}', nodeTimeoutMs: 5_000 });
      const execs = rec.read().slice(before);
      expect(execs.length).toBeGreaterThan(0);
      for (const e of execs) {
        const p = problem(e);
        if (p) unsafe.push(p);
      }
      record({ section: 'attack', cls: '1 node addresses from data (system.peers)', tried: HOSTILE_ADDRESSES.length, unsafe: unsafe.length });
      expect(unsafe).toEqual([]);
      expect(s.nodes.map((n) => n.address).sort()).toEqual(GOOD);
      expect(refusedRows(s)).toHaveLength(HOSTILE_ADDRESSES.length);
    } finally {
      spy.mockRestore();
    }
  }, 60_000);
});
