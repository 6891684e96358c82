/**
 * Secrets: JMX and CQL credentials given through the environment (CQL_TUNER_JMX_PASSWORD, CQL_TUNER_CQL_PASSWORD,
 * read by collect/jmx-credentials.ts and collect/cql-session.ts) never appear in any artefact of a run: tool
 * results (text and structured), error messages, bundle folders and run folders under CQL_TUNER_HOME, the
 * server's stderr, CLI output, or the argv of any command it starts.
 * The nodetool it runs is a worst case: it prints real outputs but also echoes its argv, its -pwf password
 * file and every *PASSWORD* variable of its environment, on stdout and stderr.
 */
import { readdirSync, readFileSync, statSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { BUNDLE, connectBundle } from '../helpers/mcp-client.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';
import { makeRecorders, type Recorders } from './recorders.js';
import { record } from './stats.js';

const JMX_PW = 'SeNtInEl-jmx-7f3a9c2e';
const CQL_PW = 'SeNtInEl-cql-41b2e8d0';
const SENTINELS = [JMX_PW, CQL_PW];
// 127.0.0.1 is allowed to receive them (CQL_TUNER_CREDENTIAL_HOSTS): the leaky nodetool really gets the -pwf file.
const CREDS = {
  CQL_TUNER_JMX_USERNAME: 'monitor',
  CQL_TUNER_JMX_PASSWORD: JMX_PW,
  CQL_TUNER_CQL_USERNAME: 'reader',
  CQL_TUNER_CQL_PASSWORD: CQL_PW,
  CQL_TUNER_CREDENTIAL_HOSTS: '127.0.0.1',
};

let rec: Recorders;
let closedPort = 0;
const artefacts: { what: string; text: string }[] = [];
const savedEnv = { ...process.env };

const leaks = () =>
  artefacts.flatMap((a) => SENTINELS.filter((s) => a.text.includes(s)).map((s) => `${a.what} contains ${s === JMX_PW ? 'the JMX' : 'the CQL'} password`));

function walkFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    let entries: string[] = [];
    try {
      entries = readdirSync(d);
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e);
      const st = statSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory()) visit(p);
      else if (st?.isFile()) out.push(p);
    }
  };
  visit(dir);
  return out;
}

beforeAll(async () => {
  rec = makeRecorders();
  // The leaky nodetool: a real output for the subcommand (lab fixture), then every secret it can reach.
  const fixtures = join(FIXTURES_DIR, 'lab', 'cassandra-5.0-1node', 'node1');
  const leaky = join(rec.bin, 'nodetool');
  rmSync(leaky);
  writeFileSync(
    leaky,
    `#!${process.execPath}
const fs = require('node:fs'), path = require('node:path');
const argv = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(rec.log)}, JSON.stringify({ cmd: 'nodetool', argv, envNames: [], secretEnv: Object.fromEntries(Object.entries(process.env).filter(([k]) => /PASSWORD/.test(k))) }) + '\\n');
const sub = argv.find((a) => /^[a-z]+$/.test(a) && !['monitor'].includes(a));
const pwf = argv[argv.indexOf('-pwf') + 1];
const leak = ['argv: ' + argv.join(' '), pwf && fs.existsSync(pwf) ? 'pwf: ' + fs.readFileSync(pwf, 'utf8') : '', ...Object.entries(process.env).filter(([k]) => /PASSWORD/.test(k)).map(([k, v]) => k + '=' + v)].join('\\n');
const fixture = path.join(${JSON.stringify(fixtures)}, 'nodetool-' + sub + '.txt');
if (fs.existsSync(fixture)) process.stdout.write(fs.readFileSync(fixture, 'utf8'));
process.stderr.write('error: Authentication failed for ' + leak + '\\n');
process.exitCode = sub === 'tpstats' ? 1 : 0;
`,
  );
  chmodSync(leaky, 0o755);
  closedPort = await new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  Object.assign(process.env, rec.env, CREDS);
});

afterAll(() => {
  process.env = savedEnv;
  rec?.cleanup();
  const found = leaks();
  record({
    section: 'secrets',
    what: 'JMX/CQL passwords in results, errors, bundles, run folders, logs, argv',
    artefacts: artefacts.length,
    leaks: found.length,
  });
});

describe('sentinel credentials never leak', () => {
  it('in-process MCP tools: results, errors and everything written under CQL_TUNER_HOME', async () => {
    const server = createServer();
    const [ct, st] = InMemoryTransport.createLinkedPair();
    await server.connect(st);
    const client = new Client({ name: 'secrets', version: '0' });
    await client.connect(ct);
    const calls: { name: string; arguments: Record<string, unknown> }[] = [
      { name: 'nodetool', arguments: { subcommand: 'status', raw: true } },
      { name: 'nodetool', arguments: { subcommand: 'info', raw: true } },
      { name: 'nodetool', arguments: { subcommand: 'tpstats', raw: true } },
      { name: 'nodetool', arguments: { subcommand: 'tablestats', keyspace: 'system', raw: true } },
      // No CQL answers (closed port): the snapshot falls back to nodetool, writes a bundle, and reports the CQL error.
      { name: 'cluster_snapshot', arguments: { hosts: ['127.0.0.1'], cqlPort: closedPort, jmxHost: '127.0.0.1', bundle: true, detail: true } },
      { name: 'diagnose', arguments: { hosts: ['127.0.0.1'], cqlPort: closedPort, jmxHost: '127.0.0.1', save: true, detail: true } },
      // A JMX password with a remote target is refused: the refusal must not quote it.
      { name: 'cluster_snapshot', arguments: { hosts: ['127.0.0.1'], cqlPort: closedPort, nodetoolVia: 'ssh://ops@{host}' } },
      // The server's own environment holds the secrets: reading it as a "file" is refused.
      { name: 'interpret', arguments: { path: '/proc/self/environ' } },
      { name: 'analyze_logs', arguments: { paths: ['/proc/self/environ'] } },
    ];
    const tools = new Set((await client.listTools()).tools.map((t) => t.name));
    for (const c of calls) {
      if (!tools.has(c.name)) continue;
      const r = await client.callTool(c, undefined, { timeout: 60_000 }).catch((e: unknown) => ({ thrown: String(e) }));
      artefacts.push({ what: `${c.name} ${JSON.stringify(c.arguments).slice(0, 80)} result`, text: JSON.stringify(r) });
    }
    await client.close();
    for (const f of walkFiles(rec.home)) artefacts.push({ what: `file ${f}`, text: readFileSync(f, 'latin1') });
    // The bundle really was written (so the grep above looked at real files).
    expect(walkFiles(rec.home).some((f) => f.endsWith('manifest.json'))).toBe(true);
    const execs = rec.read();
    expect(execs.length).toBeGreaterThan(3);
    for (const e of execs) artefacts.push({ what: `argv of ${e.cmd}`, text: JSON.stringify(e.argv) });
    expect(leaks()).toEqual([]);
    // No child inherits cql-tuner's credentials from the environment.
    expect(execs.filter((e) => Object.keys(e.secretEnv).some((k) => k.startsWith('CQL_TUNER_'))).map((e) => e.cmd)).toEqual([]);
  }, 300_000);

  it('CLI (built bundle): stdout, stderr and the bundle folder', async () => {
    const env = { ...rec.env, ...CREDS };
    const bundleDir = join(rec.home, 'cli-bundle');
    for (const args of [
      ['nodetool', 'status', '--json'],
      ['nodetool', 'tpstats'],
      ['nodetool', 'info', '--raw'],
      ['snapshot', '--hosts', '127.0.0.1', '--cql-port', String(closedPort), '--jmx-host', '127.0.0.1', '--bundle', bundleDir, '--json'],
      ['snapshot', '--hosts', '127.0.0.1', '--cql-port', String(closedPort), '--nodetool-via', 'ssh://ops@{host}'],
    ]) {
      const r = await execa(process.execPath, [BUNDLE, ...args], { reject: false, env, extendEnv: false, timeout: 120_000 });
      artefacts.push({ what: `cli ${args.join(' ')} stdout`, text: r.stdout }, { what: `cli ${args.join(' ')} stderr`, text: r.stderr });
    }
    for (const f of walkFiles(bundleDir)) artefacts.push({ what: `file ${f}`, text: readFileSync(f, 'latin1') });
    expect(leaks()).toEqual([]);
  }, 300_000);

  it('stdio MCP server (built bundle): results and its stderr log', async () => {
    const { client, stderr, close } = await connectBundle({ ...rec.env, ...CREDS });
    try {
      for (const c of [
        { name: 'nodetool', arguments: { subcommand: 'info', raw: true } },
        { name: 'nodetool', arguments: { subcommand: 'tpstats', raw: true } },
        { name: 'cluster_snapshot', arguments: { hosts: ['127.0.0.1'], cqlPort: closedPort, jmxHost: '127.0.0.1', detail: true } },
      ]) {
        const r = await client.callTool(c, undefined, { timeout: 60_000 }).catch((e: unknown) => ({ thrown: String(e) }));
        artefacts.push({ what: `bundle ${c.name} result`, text: JSON.stringify(r) });
      }
    } finally {
      await close();
    }
    artefacts.push({ what: 'server stderr', text: stderr() });
    expect(leaks()).toEqual([]);
    expect(artefacts.length).toBeGreaterThan(15);
  }, 300_000);
});
