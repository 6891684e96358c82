/**
 * Issue #19 part 5 (last item): the k8ssandra Management API over HTTP where JMX is closed. Answers recorded from public
 * sources (tests/fixtures/mgmt-api/PROVENANCE.md) are served by a shim kubectl (pod proxy, `kubectl get --raw`, argv
 * asserted exactly) and by a local http/https server (URL mode); diagnose runs the usual rules on them.
 */
import { execFileSync } from 'node:child_process';
import { captureCli } from '../helpers/capture-cli.js';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collectMgmtApi, getMgmtApi, mgmtApiUrlsFrom, parseMgmtApiUrl, podProxyArgv, type MgmtApiEndpoint } from '../../mcp-server/src/collect/mgmt-api.js';
import { parseMgmtEndpoints, statusFromEndpoints } from '../../mcp-server/src/core/parse/mgmt-api/endpoints.js';
import { readJson } from '../../mcp-server/src/core/parse/mgmt-api/json.js';
import { factsFromMgmtApi } from '../../mcp-server/src/core/parse/mgmt-api/node.js';
import { MGMT_API_GETS } from '../../mcp-server/src/core/parse/mgmt-api/paths.js';
import { parseMgmtSchemaVersions } from '../../mcp-server/src/core/parse/mgmt-api/schema-versions.js';
import { parseMgmtCompactions } from '../../mcp-server/src/core/parse/mgmt-api/compactions.js';
import { diagnoseViaMgmtApi } from '../../mcp-server/src/ops/mgmt-api-diagnose.js';
import { buildProgram } from '../../mcp-server/src/cli/main.js';
import { startFakeMgmtApi, type FakeMgmtApi } from '../helpers/mgmt-api-server.js';

const FIX = join(__dirname, '..', 'fixtures', 'mgmt-api');
const fixture = (name: string) => readFileSync(join(FIX, name), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'mgmt-api-'));
const LOG = join(dir, 'argv.log');

// The shim kubectl: pod list for discovery, `get --raw …/proxy/<path>` from files, nodetool exec refused like closed JMX.
const SHIM = `#!/bin/sh
{ for a in "$@"; do printf '%s\\n' "$a"; done; printf '%s\\n' '<end of call>'; } >> "${LOG}"
case "$*" in
  *"get pods -l cassandra.datastax.com/datacenter="*) cat "${dir}/pods.json" ;;
  *"get pods -l scylla/cluster="*) echo '{"kind":"List","items":[]}' ;;
  *"get --raw "*"/proxy/api/v0/metadata/endpoints") cat "${dir}/endpoints.json" ;;
  *"get --raw "*"/proxy/api/v0/metadata/versions/release") cat "${dir}/release.txt" ;;
  *"get --raw "*"/proxy/api/v1/ops/node/schema/versions") cat "${dir}/schema.json" ;;
  *"get --raw "*"/proxy/api/v1/ops/tables/compactions") cat "${dir}/compactions.json" ;;
  *" exec "*) echo "nodetool: Failed to connect to '127.0.0.1:7199' - ConnectException: 'Connection refused (Connection refused)'." >&2; exit 1 ;;
  *) echo "error: shim has no answer for: $*" >&2; exit 1 ;;
esac
`;

const pods = (ips: string[]) =>
  JSON.stringify({
    kind: 'List',
    items: ips.map((ip, i) => ({
      kind: 'Pod',
      metadata: { name: `demo-dc1-r${i + 1}-sts-0`, namespace: 'db', labels: { 'cassandra.datastax.com/datacenter': 'dc1' } },
      spec: { containers: [{ name: 'cassandra' }, { name: 'server-system-logger' }] },
      status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] },
    })),
  });

function calls(): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  for (const line of readFileSync(LOG, 'utf8').split('\n').slice(0, -1)) {
    if (line === '<end of call>') {
      out.push(cur);
      cur = [];
    } else cur.push(line);
  }
  return out;
}

async function runCli(args: string[]): Promise<{ out: string; err: string; exitCode: number | undefined }> {
  return captureCli(() => buildProgram().parseAsync(['node', 'cql-tuner', ...args], { from: 'node' }));
}

const savedPath = process.env.PATH;
const savedEnv = { ...process.env };
beforeAll(() => {
  writeFileSync(join(dir, 'kubectl'), SHIM);
  chmodSync(join(dir, 'kubectl'), 0o755);
  process.env.PATH = `${dir}:${savedPath}`;
});
beforeEach(() => {
  writeFileSync(LOG, '');
  writeFileSync(join(dir, 'pods.json'), pods(['10.233.90.45', '10.233.92.102']));
  writeFileSync(join(dir, 'endpoints.json'), fixture('endpoints-3.11.json'));
  writeFileSync(join(dir, 'release.txt'), '3.11.6');
  writeFileSync(join(dir, 'schema.json'), JSON.stringify({ 'e84b6a60-24cf-30ca-9b58-452d92911703': ['10.233.90.45', '10.233.92.102'] }));
  writeFileSync(join(dir, 'compactions.json'), fixture('compactions.derived.json'));
});
afterEach(() => {
  for (const k of ['CQL_TUNER_KUBE_CONTEXT', ...['URLS', 'CA', 'CERT', 'KEY', 'PORT'].map((x) => `CQL_TUNER_MGMT_API_${x}`)]) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
});
afterAll(() => {
  process.env.PATH = savedPath;
  rmSync(dir, { recursive: true, force: true });
});

describe('parsers on recorded answers', () => {
  it('a real 3.11 endpoints answer becomes the status ring nodetool would print (raw-byte tokens: count unknown)', () => {
    const p = parseMgmtEndpoints(fixture('endpoints-3.11.json'));
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    const s = statusFromEndpoints(p.value);
    expect(s.nodes.map((n) => [n.address, n.code, n.datacenter, n.rack, n.hostId, n.loadBytes, n.tokens])).toEqual([
      ['10.233.90.45', 'UN', 'dtcntr', 'r0', '95c157dc-2811-446a-a541-9faaab2e6930', 72008, null],
      ['10.233.92.102', 'UN', 'dtcntr', 'r0', '828e6980-9cac-48f2-a2c9-0650edc4d114', 71880, null],
    ]);
  });

  it('a real 4.0 answer (STATUS_WITH_PORT, no TOKENS) gives release, DC and schema of the node itself', () => {
    const f = factsFromMgmtApi({ endpoints: fixture('endpoints-4.0.json') }, '10.244.1.4');
    expect(f.facts).toMatchObject({ releaseVersion: '4.0.3', datacenter: 'dc1', rack: 'default', schemaVersion: '1f9c10f4-9964-3a41-bef6-66720dc90429' });
    expect(f.unparsed).toEqual([]);
  });

  it('5.0 agents list tokens: the count is kept, and leaving/joining/shutdown map to nodetool codes', () => {
    const body = JSON.stringify({
      entity: [
        { ENDPOINT_IP: '10.0.0.1', IS_ALIVE: 'true', STATUS_WITH_PORT: 'NORMAL,1', TOKENS: '1,2,3', DC: 'dc1', RACK: 'r1' },
        { ENDPOINT_IP: '10.0.0.2', IS_ALIVE: 'true', STATUS_WITH_PORT: 'BOOT,5', DC: 'dc1', RACK: 'r1' },
        { ENDPOINT_IP: '10.0.0.3', IS_ALIVE: 'false', STATUS_WITH_PORT: 'shutdown,true', DC: 'dc1', RACK: 'r1' },
        { ENDPOINT_IP: '10.0.0.4', IS_ALIVE: 'false', STATUS_WITH_PORT: 'LEFT,7,1700000000000', DC: 'dc1', RACK: 'r1' },
      ],
    });
    const p = parseMgmtEndpoints(body);
    if (!p.ok) throw new Error(p.reason);
    expect(statusFromEndpoints(p.value).nodes.map((n) => [n.address, n.code, n.tokens])).toEqual([
      ['10.0.0.1', 'UN', 3],
      ['10.0.0.2', 'UJ', null],
      ['10.0.0.3', 'DN', null],
    ]);
  });

  it('schema versions and compactions: the same shapes describecluster and compactionstats give', () => {
    const g = parseMgmtSchemaVersions(fixture('schema-versions-disagree.derived.json'));
    expect(g).toMatchObject({
      ok: true,
      value: [{ version: '2207c2a9-f598-3971-986b-2926e09e239d', endpoints: ['10.244.1.4', '10.244.2.3'] }, { endpoints: ['10.244.3.3'] }],
    });
    const c = parseMgmtCompactions(fixture('compactions.derived.json'));
    const running = { keyspace: 'ks', table: 'events', completed: 1048576, total: 4194304, progressPercent: 25 };
    expect(c).toMatchObject({ ok: true, value: { pendingTasks: null, compactions: [running] } });
  });

  it('odd shapes never throw: not JSON, wrong types, deep nesting, 10k-deep arrays', () => {
    for (const text of ['', 'null', '<html>', '{"entity":"x"}', '{"entity":[1,"a",null]}', '['.repeat(100_000), '{"a":'.repeat(50) + '1' + '}'.repeat(50)]) {
      expect(parseMgmtEndpoints(text).ok).toBe(false);
      // '{"entity":[1,"a",null]}' is a valid version → endpoints map for the schema reader: only "a" is kept.
      if (!text.includes('entity')) expect(parseMgmtSchemaVersions(text).ok).toBe(false);
      expect(parseMgmtCompactions(text).ok).toBe(text === '[]');
    }
    expect(readJson('['.repeat(40) + ']'.repeat(40))).toMatchObject({ ok: false, reason: expect.stringContaining('deeper than 32') });
  });

  it('hostile values: control characters and URLs in names stay data, never an address to contact', () => {
    const body = JSON.stringify({
      entity: [
        { ENDPOINT_IP: 'http://evil.example/x?y', IS_ALIVE: 'true', DC: 'dc1\u001b[2J\r\nfake line', RACK: 'r1' },
        { ENDPOINT_IP: '10.0.0.9\n--kubeconfig=/tmp/x', IS_ALIVE: 'false', DC: 'dc1', RACK: 'r1' },
      ],
    });
    const p = parseMgmtEndpoints(body);
    if (!p.ok) throw new Error(p.reason);
    const s = statusFromEndpoints(p.value);
    expect(s.nodes.every((n) => n.addressProblem !== undefined)).toBe(true);
    expect(s.nodes[0]!.datacenter).toBe('dc1?[2J??fake line');
    // eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
    expect(JSON.stringify(s)).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('pod proxy through kubectl get --raw', () => {
  const ep: MgmtApiEndpoint = { kind: 'pod', namespace: 'db', pod: 'demo-dc1-r1-sts-0', port: 8080, address: '10.233.90.45' };

  it("the exact argv, with the user's kube context, for every allow-listed GET", async () => {
    process.env.CQL_TUNER_KUBE_CONTEXT = 'kind-k8ssandra-0';
    expect(podProxyArgv(ep, 'endpoints')).toEqual([
      'kubectl',
      '--context',
      'kind-k8ssandra-0',
      'get',
      '--raw',
      '/api/v1/namespaces/db/pods/demo-dc1-r1-sts-0:8080/proxy/api/v0/metadata/endpoints',
    ]);
    const raw = await collectMgmtApi(ep);
    expect(Object.values(raw.answers).every((a) => a?.ok)).toBe(true);
    expect(calls()).toEqual(
      Object.values(MGMT_API_GETS).map((p) => ['--context', 'kind-k8ssandra-0', 'get', '--raw', `/api/v1/namespaces/db/pods/demo-dc1-r1-sts-0:8080/proxy${p}`]),
    );
  });

  it('pod and namespace names that are not DNS-1123 are refused before kubectl runs', async () => {
    await expect(getMgmtApi({ ...ep, pod: '../../nodes/x' }, 'endpoints')).rejects.toThrow(/DNS-1123/);
    await expect(getMgmtApi({ ...ep, namespace: 'db/../kube-system' }, 'endpoints')).rejects.toThrow(/DNS-1123/);
    expect(calls()).toEqual([]);
  });

  it('diagnose --k8s db/dc1 --mgmt-api: pods found, read through the pod proxy, node down found by the usual rule', async () => {
    writeFileSync(join(dir, 'endpoints.json'), fixture('endpoints-3.11-node-down.derived.json'));
    const r = await runCli(['diagnose', '--k8s', 'db/dc1', '--mgmt-api', '--json']);
    const report = JSON.parse(r.out) as { origin: string; findings: { id: string; node?: string }[]; nodes: { address: string; releaseVersion: string }[] };
    expect(report.findings).toContainEqual(expect.objectContaining({ id: 'topology.node-down', node: '10.233.92.102' }));
    expect(report.nodes.map((n) => [n.address, n.releaseVersion])).toEqual([
      ['10.233.90.45', '3.11.6'],
      ['10.233.92.102', '3.11.6'],
    ]);
    expect(r.exitCode).toBe(1);
    const seen = calls();
    expect(seen.filter((c) => c.includes('exec'))).toEqual([]);
    const raws = seen.filter((c) => c[0] === 'get' && c[1] === '--raw').map((c) => c[2]);
    expect(raws).toContain('/api/v1/namespaces/db/pods/demo-dc1-r2-sts-0:8080/proxy/api/v0/metadata/endpoints');
  });

  it('diagnose --k8s falls back to the Management API when nodetool through kubectl exec finds JMX closed', async () => {
    // Loopback pod IPs and CQL port 1: CQL is refused at once, so the snapshot tries nodetool in the pod, which fails.
    writeFileSync(join(dir, 'pods.json'), pods(['127.0.10.5', '127.0.10.6']));
    writeFileSync(join(dir, 'schema.json'), fixture('schema-versions-disagree.derived.json'));
    const r = await runCli(['diagnose', '--k8s', 'db/dc1', '--cql-port', '1', '--window', '0', '--json']);
    const report = JSON.parse(r.out) as { origin: string; findings: { id: string }[] };
    expect(report.origin).toContain('fallback: nodetool through kubectl exec found JMX closed');
    expect(report.findings.map((f) => f.id)).toContain('topology.schema-disagreement');
    const seen = calls();
    const firstRaw = seen.findIndex((c) => c[1] === '--raw');
    expect(seen.slice(0, firstRaw).some((c) => c.includes('exec'))).toBe(true);
  }, 60_000);

  it('--mgmt-api with a URL next to --k8s is refused (the pods come from discovery only)', async () => {
    const r = await runCli(['diagnose', '--k8s', 'db/dc1', '--mgmt-api', 'http://10.0.0.1:8080', '--json']);
    expect(r.out + r.err).toMatch(/--mgmt-api takes no URL/);
    expect(calls().filter((c) => c[1] === '--raw')).toEqual([]);
  });
});

describe('URL mode (--mgmt-api URL, CQL_TUNER_MGMT_API_URLS)', () => {
  let certs: Record<'caCert' | 'key' | 'cert', string>;
  const tlsDir = join(dir, 'tls');
  let servers: FakeMgmtApi[] = [];

  beforeAll(() => {
    execFileSync('mkdir', ['-p', tlsDir]);
    const o = (args: string[]) => execFileSync('openssl', args, { cwd: tlsDir, stdio: 'pipe' });
    o(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=test-ca']);
    o(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other.key', '-out', 'other.pem', '-days', '2', '-subj', '/CN=other-ca']);
    writeFileSync(join(tlsDir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
    for (const n of ['server', 'client']) {
      o(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${n}.key`, '-out', `${n}.csr`, '-subj', `/CN=${n}`]);
      o(['x509', '-req', '-in', `${n}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${n}.pem`, '-days', '2', '-extfile', 'san.ext']);
    }
    const r = (f: string) => readFileSync(join(tlsDir, f), 'utf8');
    // The client certificate and the other CA are read from their files through the environment variables.
    certs = { caCert: r('ca.pem'), key: r('server.key'), cert: r('server.pem') };
  }, 60_000);
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });

  const answers = () => ({
    [MGMT_API_GETS.endpoints]: fixture('endpoints-4.0.json'),
    [MGMT_API_GETS.release]: fixture('release.txt'),
    [MGMT_API_GETS.schemaVersions]: fixture('schema-versions-agree.derived.json'),
    [MGMT_API_GETS.compactions]: '[]',
  });

  it("base URLs are the user's own: credentials, queries and other schemes are refused", () => {
    expect(parseMgmtApiUrl('https://u:p@10.0.0.1:8080')).toMatchObject({ ok: false });
    expect(parseMgmtApiUrl('https://10.0.0.1:8080/?x=1')).toMatchObject({ ok: false });
    expect(parseMgmtApiUrl('file:///etc/passwd')).toMatchObject({ ok: false });
    const fromEnv = mgmtApiUrlsFrom([], { CQL_TUNER_MGMT_API_URLS: 'https://10.0.0.1:8080, http://10.0.0.2:8080/' });
    expect(fromEnv.map((e) => e.kind === 'url' && e.base.href)).toEqual(['https://10.0.0.1:8080/', 'http://10.0.0.2:8080/']);
  });

  it('https with mTLS: the CA and client certificate from the environment; only allow-listed GETs are sent', async () => {
    const s = await startFakeMgmtApi(answers(), { key: certs.key, cert: certs.cert, ca: certs.caCert, requestCert: true });
    servers.push(s);
    for (const [k, f] of [
      ['CA', 'ca.pem'],
      ['CERT', 'client.pem'],
      ['KEY', 'client.key'],
    ])
      process.env[`CQL_TUNER_MGMT_API_${k}`] = join(tlsDir, f!);
    const r = await diagnoseViaMgmtApi(mgmtApiUrlsFrom([s.url]));
    // The recorded 4.0 agent sends no IS_LOCAL and the URL host is not its ENDPOINT_IP: the node's own DC is not guessed.
    expect(r.nodes).toEqual([{ address: '127.0.0.1', datacenter: null, releaseVersion: '4.0.1', status: 'complete' }]);
    expect(s.requests).toEqual(Object.values(MGMT_API_GETS).map((path) => ({ method: 'GET', path, clientCert: true })));
  });

  it('an unknown CA is refused, and the error names the setting that fixes it', async () => {
    const s = await startFakeMgmtApi(answers(), { key: certs.key, cert: certs.cert });
    servers.push(s);
    process.env.CQL_TUNER_MGMT_API_CA = join(tlsDir, 'other.pem');
    await expect(diagnoseViaMgmtApi(mgmtApiUrlsFrom([s.url]))).rejects.toMatchObject({
      code: 'MGMT_API_UNREACHABLE',
      message: expect.stringContaining('signed by a CA this machine does not trust'),
    });
    const a = await getMgmtApi(mgmtApiUrlsFrom([s.url])[0]!, 'endpoints', {});
    expect(a).toMatchObject({ ok: false, code: 'MGMT_API_TLS_UNKNOWN_CA', fix: expect.stringContaining('CQL_TUNER_MGMT_API_CA') });
  });

  it('a huge answer is cut off, a redirect is not followed, and a URL in a body is never requested', async () => {
    const big = (res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let n = 0;
      const more = () => {
        while (n++ < 64) if (!res.write(chunk)) return void res.once('drain', more);
        res.end();
      };
      more();
    };
    const s = await startFakeMgmtApi({
      [MGMT_API_GETS.endpoints]: JSON.stringify({ entity: [{ ENDPOINT_IP: '127.0.0.1', IS_ALIVE: 'true', RPC_ADDRESS: 'http://127.0.0.1:1/x', DC: 'dc1' }] }),
      [MGMT_API_GETS.release]: { status: 302, body: '' },
      [MGMT_API_GETS.schemaVersions]: big,
      [MGMT_API_GETS.compactions]: '['.repeat(10_000),
    });
    servers.push(s);
    const r = await collectMgmtApi(mgmtApiUrlsFrom([s.url])[0]!, { maxBytes: 1024 * 1024 });
    expect(r.answers.release).toMatchObject({ ok: false, code: 'MGMT_API_HTTP' });
    expect(r.answers.schemaVersions).toMatchObject({ ok: false, code: 'MGMT_API_TOO_LARGE' });
    expect(s.requests.map((q) => q.path)).toEqual(Object.values(MGMT_API_GETS));
    const rep = await diagnoseViaMgmtApi(mgmtApiUrlsFrom([s.url]));
    expect(rep.nodes[0]).toMatchObject({ address: '127.0.0.1', status: 'partial' });
  });

  it('a server that drips its answer a byte at a time is given up on at the timeout, not per idle gap', async () => {
    const drip = (res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => (res.writableEnded ? clearInterval(t) : res.write(' ')), 100);
      res.once('close', () => clearInterval(t));
    };
    const s = await startFakeMgmtApi({ [MGMT_API_GETS.endpoints]: drip });
    servers.push(s);
    const started = Date.now();
    const a = await getMgmtApi(mgmtApiUrlsFrom([s.url])[0]!, 'endpoints', { timeoutMs: 800 });
    expect(a).toMatchObject({ ok: false, code: 'MGMT_API_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('diagnose --mgmt-api URL on the CLI: schema disagreement from the recorded answers', async () => {
    const s = await startFakeMgmtApi({ ...answers(), [MGMT_API_GETS.schemaVersions]: fixture('schema-versions-disagree.derived.json') });
    servers.push(s);
    const r = await runCli(['diagnose', '--mgmt-api', s.url, '--json']);
    const report = JSON.parse(r.out) as { findings: { id: string; evidence: string[] }[] };
    const f = report.findings.find((x) => x.id === 'topology.schema-disagreement');
    expect(f?.evidence).toEqual([
      'schema 2207c2a9-f598-3971-986b-2926e09e239d: 10.244.1.4, 10.244.2.3',
      'schema 1f9c10f4-9964-3a41-bef6-66720dc90429: 10.244.3.3',
    ]);
    const clash = await runCli(['diagnose', '--mgmt-api', s.url, '--window', '30', '--json']);
    expect(clash.out + clash.err).toMatch(/--window/);
  });
});
