/**
 * Issue #13, class 3: credentials go only where the user pointed. The CQL password (CQL_TUNER_CQL_*) and the
 * JMX credentials (CQL_TUNER_JMX_*) are bound to CQL_TUNER_CREDENTIAL_HOSTS and the hosts given on the command
 * line. A host named in an MCP argument, or a peer a cluster reports, gets them only when the list allows it.
 *
 * The CQL side runs against a fake CQL server on loopback (tests/helpers/fake-cql-server.ts) that asks for a
 * password and records whether one arrives; the JMX side against a nodetool that records its argv.
 * Each "withheld" case is paired with an "allowed" one, so the tests prove the binding, not just breakage.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { snapshotCommand } from '../../mcp-server/src/cli/commands/snapshot.js';
import { nodetoolCommand } from '../../mcp-server/src/cli/commands/nodetool.js';
import { reviewSchemaCommand } from '../../mcp-server/src/cli/commands/schema.js';
import { boundAuthProvider, type CredentialLedger } from '../../mcp-server/src/collect/cql-auth.js';
import { loadDriver } from '../../mcp-server/src/collect/cql-driver.js';
import { loadCredentialHosts } from '../../mcp-server/src/collect/credential-hosts.js';
import { JMX_PRIVATE_PREFIX } from '../../mcp-server/src/collect/jmx-credentials.js';
import { collectNodeWithNodetoolOnly } from '../../mcp-server/src/ops/sweep.js';
import { runNodetool } from '../../mcp-server/src/ops/nodetool.js';
import { RecordingTarget } from '../helpers/recording-target.js';
import { startFakeCqlServer, type FakeCqlServer } from '../helpers/fake-cql-server.js';
import { record } from './stats.js';

const CQL_PW = 'SeNtInEl-c3-cql-5e1d90';
const JMX_PW = 'SeNtInEl-c3-jmx-a07c42';
const CREDS = { CQL_TUNER_CQL_USERNAME: 'reader', CQL_TUNER_CQL_PASSWORD: CQL_PW, CQL_TUNER_JMX_USERNAME: 'monitor', CQL_TUNER_JMX_PASSWORD: JMX_PW };

const saved = { ...process.env };
const counts = { tried: 0, unsafe: 0 };
let tmp: string;
let fake: FakeCqlServer;
let nodetoolLog: string;

/** A nodetool that records argv and whether its -pwf file held the password; without -u it fails as JMX does. */
function writeRecordingNodetool(dir: string): string {
  const path = join(dir, 'nodetool');
  writeFileSync(
    path,
    `#!${process.execPath}
const fs = require('node:fs');
const argv = process.argv.slice(2);
const pwf = argv.includes('-pwf') ? argv[argv.indexOf('-pwf') + 1] : null;
const pwfHasPassword = !!pwf && fs.existsSync(pwf) && fs.readFileSync(pwf, 'utf8').includes(${JSON.stringify(JMX_PW)});
fs.appendFileSync(${JSON.stringify(nodetoolLog)}, JSON.stringify({ argv, pwf, pwfHasPassword }) + '\\n');
if (!argv.includes('-u')) { process.stderr.write('error: Authentication failed! Credentials required\\n'); process.exit(1); }
process.stdout.write('ReleaseVersion: 5.0.2\\n');
`,
  );
  chmodSync(path, 0o755);
  return path;
}

type NodetoolCall = { argv: string[]; pwf: string | null; pwfHasPassword: boolean };
const nodetoolCalls = (): NodetoolCall[] =>
  existsSync(nodetoolLog)
    ? readFileSync(nodetoolLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as NodetoolCall)
    : [];

async function mcpClient(): Promise<Client> {
  const server = createServer();
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  const client = new Client({ name: 'security-3', version: '0' });
  await client.connect(ct);
  return client;
}

type ToolResult = { content?: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
const textOf = (r: ToolResult) => (r.content ?? []).map((c) => c.text ?? '').join('\n');

/** The four read-only tools that connect over CQL, aimed at the fake server the way an MCP argument would. */
function cqlCalls(port: number) {
  return [
    { name: 'cluster_snapshot', arguments: { hosts: ['127.0.0.1'], cqlPort: port, nodetool: false } },
    { name: 'cluster_snapshot', arguments: { hosts: [`127.0.0.1:${port}`] } },
    { name: 'cluster_snapshot', arguments: { hosts: ['localhost'], cqlPort: port } },
    { name: 'diagnose', arguments: { hosts: ['127.0.0.1'], cqlPort: port } },
    { name: 'audit_config', arguments: { hosts: ['127.0.0.1'], cqlPort: port, cassandraYaml: 'cluster_name: c3\nnum_tokens: 16\n' } },
    { name: 'review_schema', arguments: { hosts: ['127.0.0.1'], cqlPort: port } },
  ];
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-sec3-'));
  nodetoolLog = join(tmp, 'nodetool.jsonl');
  mkdirSync(join(tmp, 'bin'));
  mkdirSync(join(tmp, 'home'));
  fake = await startFakeCqlServer();
  const nodetool = writeRecordingNodetool(join(tmp, 'bin'));
  Object.assign(process.env, CREDS, { CQL_TUNER_HOME: join(tmp, 'home'), CQL_TUNER_NODETOOL: nodetool, CQL_TUNER_NODETOOL_BATCH: '0' });
});

beforeEach(() => {
  delete process.env['CQL_TUNER_CREDENTIAL_HOSTS'];
  rmSync(nodetoolLog, { force: true });
});

afterAll(async () => {
  process.env = saved;
  await fake?.close();
  rmSync(tmp, { recursive: true, force: true });
  record({ section: 'attack', cls: '3 credentials to configured hosts only', tried: counts.tried, unsafe: counts.unsafe });
});

describe('CQL password: only to CQL_TUNER_CREDENTIAL_HOSTS (MCP tools in-process, fake CQL server)', () => {
  it('a host named in an MCP argument asks for the password and does not get it; the error says how to allow it', async () => {
    const client = await mcpClient();
    try {
      for (const c of cqlCalls(fake.port)) {
        const startups = fake.startups;
        const r = (await client.callTool(c, undefined, { timeout: 60_000 })) as ToolResult;
        counts.tried++;
        const leaked = fake.attempts.length > 0 || fake.received(CQL_PW);
        if (leaked) counts.unsafe++;
        expect(leaked, `${c.name} ${JSON.stringify(c.arguments)} sent the password`).toBe(false);
        // It really connected and was asked (not a refusal before the socket): the binding is what stopped it.
        expect(fake.startups).toBeGreaterThan(startups);
        expect(r.isError).toBe(true);
        expect(textOf(r)).toContain('CQL_CREDENTIALS_NOT_ALLOWED');
        expect(textOf(r)).toContain(`CQL_TUNER_CREDENTIAL_HOSTS=127.0.0.1:${fake.port}`);
      }
    } finally {
      await client.close();
    }
  }, 120_000);

  it('an entry for another port or another address does not cover this one', async () => {
    const client = await mcpClient();
    try {
      for (const allow of [`127.0.0.1:${fake.port + 1}`, '127.0.0.2', '10.0.0.0/8', '*.example.com', `[::1]:${fake.port}`]) {
        process.env['CQL_TUNER_CREDENTIAL_HOSTS'] = allow;
        const r = (await client.callTool(cqlCalls(fake.port)[0]!, undefined, { timeout: 60_000 })) as ToolResult;
        counts.tried++;
        if (fake.attempts.length > 0) counts.unsafe++;
        expect(fake.attempts, `allow-list ${allow}`).toEqual([]);
        expect(textOf(r)).toContain('CQL_CREDENTIALS_NOT_ALLOWED');
      }
    } finally {
      await client.close();
    }
  }, 120_000);

  it('with the host:port in CQL_TUNER_CREDENTIAL_HOSTS the same calls do send it (the binding, not breakage)', async () => {
    const client = await mcpClient();
    try {
      for (const allow of [`127.0.0.1:${fake.port}`, '127.0.0.0/8', 'localhost']) {
        process.env['CQL_TUNER_CREDENTIAL_HOSTS'] = allow;
        for (const c of cqlCalls(fake.port)) {
          const before = fake.attempts.length;
          const r = (await client.callTool(c, undefined, { timeout: 60_000 })) as ToolResult;
          expect(fake.attempts.length, `${allow}: ${c.name}`).toBe(before + 1);
          expect(fake.attempts.at(-1)).toMatchObject({ username: 'reader', password: CQL_PW });
          // The fake server refuses every password: the error is the ordinary authentication failure.
          expect(textOf(r)).toContain('CQL_AUTH');
          expect(textOf(r)).not.toContain(CQL_PW);
        }
      }
    } finally {
      await client.close();
      fake.attempts.length = 0;
    }
  }, 180_000);

  it('peers: the driver gets the password only for allowed endpoints, per connection; a cleartext send is a warning', async () => {
    const driver = await loadDriver();
    process.env['CQL_TUNER_CREDENTIAL_HOSTS'] = '10.0.0.0/24:9042';
    const hosts = await loadCredentialHosts(process.env, ['10.0.0.1']);
    const ledger: CredentialLedger = { withheld: new Map(), warnings: new Set() };
    const provider = boundAuthProvider(driver, { username: 'reader', password: CQL_PW, hosts, tls: false, ledger });
    const respond = (endpoint: string) =>
      new Promise<{ err: Error | null; token?: Buffer }>((resolve) => {
        const authenticator = provider.newAuthenticator(endpoint, 'org.apache.cassandra.auth.PasswordAuthenticator');
        authenticator.initialResponse((err: Error | null, token?: Buffer) => resolve({ err, token }));
      });
    // Peers a hostile node could report: outside the list, another port, loopback, IPv6.
    for (const peer of ['10.0.1.5:9042', '10.0.0.5:9142', '127.0.0.1:9042', 'fd00::5:9042', '192.168.0.1:9042']) {
      const r = await respond(peer);
      counts.tried++;
      if (r.token?.includes(Buffer.from(CQL_PW))) counts.unsafe++;
      expect(r.token, peer).toBeUndefined();
      expect(r.err?.message).toContain('CQL_TUNER_CREDENTIAL_HOSTS');
    }
    expect([...ledger.withheld.keys()]).toContain('10.0.1.5:9042');
    const ok = await respond('10.0.0.5:9042');
    expect(ok.err).toBeNull();
    expect(ok.token?.toString('utf8')).toBe(`\0reader\0${CQL_PW}`);
    expect([...ledger.warnings].join('\n')).toMatch(/CQL password sent to 10\.0\.0\.5:9042 without TLS.*CQL_TUNER_CQL_TLS=1/);
  });

  it('a password that crosses the network without TLS is a warning in the tool result', async () => {
    const ip = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (!ip) return; // no non-loopback interface on this machine
    const remote = await startFakeCqlServer({ host: ip });
    const client = await mcpClient();
    try {
      process.env['CQL_TUNER_CREDENTIAL_HOSTS'] = `${ip}:${remote.port}`;
      const call = { name: 'cluster_snapshot', arguments: { hosts: [ip], cqlPort: remote.port } };
      const r = (await client.callTool(call, undefined, { timeout: 60_000 })) as ToolResult;
      expect(remote.attempts).toHaveLength(1);
      // The fake server refuses every password, so the warning travels with the error (on success: result.warnings).
      expect(textOf(r)).toContain('CQL_AUTH');
      expect(textOf(r)).toMatch(/password sent to .* without TLS/);
      // Over TLS-less loopback nothing is said: the password did not leave the machine.
      process.env['CQL_TUNER_CREDENTIAL_HOSTS'] = `127.0.0.1:${fake.port}`;
      const local = (await client.callTool(cqlCalls(fake.port)[0]!, undefined, { timeout: 60_000 })) as ToolResult;
      expect(textOf(local)).not.toContain('without TLS');
    } finally {
      await client.close();
      await remote.close();
    }
  }, 60_000);
});

describe('JMX credentials: -u/-pwf only for an allowed JMX host', () => {
  it('the nodetool MCP tool with a host not allowed never gets -u/-pwf; the error names the variable', async () => {
    const client = await mcpClient();
    try {
      for (const host of ['10.1.2.3', 'evil.example.com', '127.0.0.1', '::1', 'db.attacker.net']) {
        rmSync(nodetoolLog, { force: true });
        const r = (await client.callTool({ name: 'nodetool', arguments: { subcommand: 'version', host } }, undefined, { timeout: 60_000 })) as ToolResult;
        const calls = nodetoolCalls();
        expect(calls.length, host).toBeGreaterThan(0);
        for (const c of calls) {
          counts.tried++;
          const leaked = c.argv.includes('-u') || c.argv.includes('-pwf') || c.argv.join(' ').includes(JMX_PW) || c.pwfHasPassword;
          if (leaked) counts.unsafe++;
          expect(leaked, `${host}: ${c.argv.join(' ')}`).toBe(false);
        }
        expect(textOf(r)).toContain('JMX_CREDENTIALS_NOT_ALLOWED');
        expect(textOf(r)).toContain('CQL_TUNER_CREDENTIAL_HOSTS');
        expect((r.structuredContent?.['warnings'] as string[] | undefined)?.join('\n')).toContain('not sent');
      }
    } finally {
      await client.close();
    }
  }, 120_000);

  it('with the JMX host in CQL_TUNER_CREDENTIAL_HOSTS it gets -u and a -pwf file holding the password', async () => {
    const client = await mcpClient();
    try {
      process.env['CQL_TUNER_CREDENTIAL_HOSTS'] = '10.1.2.3:7199, *.db.example.com';
      for (const host of ['10.1.2.3', 'n1.db.example.com']) {
        rmSync(nodetoolLog, { force: true });
        const r = (await client.callTool({ name: 'nodetool', arguments: { subcommand: 'version', host } }, undefined, { timeout: 60_000 })) as ToolResult;
        const [c] = nodetoolCalls();
        expect(c?.argv.slice(c.argv.indexOf('-u'), c.argv.indexOf('-u') + 2)).toEqual(['-u', 'monitor']);
        expect(c?.pwfHasPassword).toBe(true);
        expect(r.isError).toBeFalsy();
        // JMX without SSL to a non-loopback host: the password crossed the network in clear text, and the result says so.
        expect((r.structuredContent?.['warnings'] as string[]).join('\n')).toContain('without TLS');
      }
      // Another port of an allowed address is not allowed.
      rmSync(nodetoolLog, { force: true });
      await client.callTool({ name: 'nodetool', arguments: { subcommand: 'version', host: '10.1.2.3', port: 7299 } }, undefined, { timeout: 60_000 });
      counts.tried++;
      if (nodetoolCalls().some((c) => c.argv.includes('-u'))) counts.unsafe++;
      expect(nodetoolCalls().some((c) => c.argv.includes('-u'))).toBe(false);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('nodetool on a remote target: JMX on 127.0.0.1 there is the node, and the node must be allowed (sweep and ops)', async () => {
    const env = { CQL_TUNER_JMX_USERNAME: 'monitor', CQL_TUNER_JMX_PASSWORD_FILE: '/etc/cassandra/jmx.pw' };
    const answer = () => ({ stdout: 'ReleaseVersion: 5.0.2\n' });
    for (const [allow, expectCreds] of [
      ['', false],
      ['10.0.0.0/24', false],
      ['127.0.0.1', false],
      ['10.7.7.7', true],
    ] as const) {
      const t = new RecordingTarget(answer, 'ssh');
      const deps = { target: t, credentialHost: '10.7.7.7', env: { ...env, CQL_TUNER_CREDENTIAL_HOSTS: allow } };
      await runNodetool({ subcommand: 'version', host: '127.0.0.1' }, deps);
      const got = t.calls[0]!.argv.includes('-u');
      counts.tried++;
      if (got && !expectCreds) counts.unsafe++;
      expect(got, `allow-list "${allow}"`).toBe(expectCreds);
    }
    // The sweep passes each node's address as the host the credentials are for.
    for (const [allow, expectCreds] of [
      ['', false],
      ['10.7.7.7', true],
    ] as const) {
      process.env['CQL_TUNER_CREDENTIAL_HOSTS'] = allow;
      process.env['CQL_TUNER_JMX_PASSWORD_FILE'] = '/etc/cassandra/jmx.pw';
      delete process.env['CQL_TUNER_JMX_PASSWORD'];
      const t = new RecordingTarget(answer, 'ssh');
      const node = { address: '10.7.7.7', cqlPort: 9042, jmxHost: '127.0.0.1', jmxPort: 7199, datacenter: null, rack: null, hostId: null, upPerDriver: true };
      const opts = { nodetool: ['version'], target: t, nodeTimeoutMs: 10_000, nodetoolPath: '/opt/cassandra/bin/nodetool' };
      await collectNodeWithNodetoolOnly(node, ['version'], opts);
      expect(t.calls.length).toBeGreaterThan(0);
      const got = t.calls.some((c) => c.argv.includes('-u'));
      counts.tried++;
      if (got && !expectCreds) counts.unsafe++;
      expect(got, `sweep, allow-list "${allow}"`).toBe(expectCreds);
    }
    process.env['CQL_TUNER_JMX_PASSWORD'] = JMX_PW;
    delete process.env['CQL_TUNER_JMX_PASSWORD_FILE'];
  });
});

describe('honest use: hosts the user gave on the command line still get the credentials', () => {
  const quiet = async (fn: () => Promise<unknown>) => {
    const write = process.stdout.write.bind(process.stdout);
    const errWrite = process.stderr.write.bind(process.stderr);
    const listening = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    process.stdout.write = () => true;
    process.stderr.write = () => true;
    try {
      await fn();
    } finally {
      process.stdout.write = write;
      process.stderr.write = errWrite;
      process.exitCode = undefined;
      // A CLI verb's Ctrl-C handler belongs to its process: do not leave it on the test worker.
      for (const sig of ['SIGINT', 'SIGTERM'] as const) for (const l of process.listeners(sig)) if (!listening[sig].includes(l)) process.off(sig, l);
    }
  };

  it('snapshot --hosts and review-schema --hosts send the password to the fake server; nodetool --host gets -u/-pwf', async () => {
    const before = fake.attempts.length;
    await quiet(() => snapshotCommand().parseAsync(['--hosts', `127.0.0.1:${fake.port}`, '--no-nodetool', '--json'], { from: 'user' }));
    expect(fake.attempts.length).toBe(before + 1);
    expect(fake.attempts.at(-1)?.password).toBe(CQL_PW);
    await quiet(() => reviewSchemaCommand().parseAsync(['--hosts', '127.0.0.1', '--cql-port', String(fake.port), '--json'], { from: 'user' }));
    expect(fake.attempts.length).toBe(before + 2);
    rmSync(nodetoolLog, { force: true });
    await quiet(() => nodetoolCommand().parseAsync(['version', '--host', '10.1.2.3', '--json'], { from: 'user' }));
    expect(nodetoolCalls()[0]?.pwfHasPassword).toBe(true);
    // The command-line trust ended with the command: the same call through MCP is refused again.
    const client = await mcpClient();
    try {
      const r = (await client.callTool(cqlCalls(fake.port)[0]!, undefined, { timeout: 60_000 })) as ToolResult;
      expect(textOf(r)).toContain('CQL_CREDENTIALS_NOT_ALLOWED');
      expect(fake.attempts.length).toBe(before + 2);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('the JMX password file does not outlive a killed server', () => {
  it('the next write removes folders of dead owners, keeps live ones, and leaves a planted symlink alone', async () => {
    const base = tmpdir();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = join(base, `${JMX_PRIVATE_PREFIX}${dead}-sec3${process.pid}`);
    const live = join(base, `${JMX_PRIVATE_PREFIX}${process.pid}-sec3live`);
    for (const d of [stale, live]) {
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, 'jmx.password'), `monitor ${JMX_PW}\n`);
    }
    const target = join(tmp, 'link-target');
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'keep.txt'), 'x');
    const link = join(base, `${JMX_PRIVATE_PREFIX}${dead}-sec3link${process.pid}`);
    symlinkSync(target, link);
    try {
      const t = new RecordingTarget(() => ({ stdout: 'ReleaseVersion: 5.0.2\n' }));
      const input = { subcommand: 'version', host: '10.1.2.3', nodetoolPath: join(tmp, 'bin', 'nodetool') };
      await runNodetool(input, { target: t, env: { ...CREDS, CQL_TUNER_CREDENTIAL_HOSTS: '10.1.2.3' } });
      const pwf = t.calls[0]!.argv[t.calls[0]!.argv.indexOf('-pwf') + 1]!;
      // The file was there while nodetool ran, in a folder named with this process's pid, and is gone after.
      expect(Object.values(t.calls[0]!.files)).toEqual([`monitor ${JMX_PW}\n`]);
      expect(pwf).toContain(`${JMX_PRIVATE_PREFIX}${process.pid}-`);
      expect(existsSync(pwf)).toBe(false);
      counts.tried++;
      if (existsSync(stale)) counts.unsafe++;
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(live)).toBe(true);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(existsSync(join(target, 'keep.txt'))).toBe(true);
    } finally {
      for (const d of [stale, live, link]) rmSync(d, { recursive: true, force: true });
    }
  });
});
