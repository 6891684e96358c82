/**
 * Stress runs against a secured cluster (issue #20), without a cluster: credentials and TLS come from the user's
 * cqlshrc (never an argument), reach latte through its environment and --ssl options (never a password on argv),
 * each node's certificate is checked by cql-tuner first (latte 0.29 does not check it), a refused grant is named,
 * and the tools that cql-tuner runs without TLS are refused when TLS is on. The "latte" here is a script that
 * records what it was given; the TLS servers are Node's, with certificates made by openssl for the test.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARGV_BUILDERS } from '../../mcp-server/src/core/stress/argv.js';
import { startStress, waitForRun } from '../../mcp-server/src/ops/stress.js';

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-stress-sec-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const PASSWORD = 'SeNtInEl-latte-7f3a21';
/** The discard port: nothing answers CQL there, so the runner's own schema check after latte's schema step finds no node. */
const CLOSED_PORT = 9;

const haveOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A self-signed certificate (its own CA) for the given IP SAN. */
function selfSigned(name: string, ip: string): { key: string; cert: string } {
  const key = join(tmp, `${name}-key.pem`);
  const cert = join(tmp, `${name}-cert.pem`);
  const args = [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    `subjectAltName=IP:${ip}`,
  ];
  execFileSync('openssl', args, { stdio: 'ignore' });
  return { key, cert };
}

/** A fake latte: records argv and the credential variables it got, one JSON line per step; prints `say` on stderr. */
function fakeLatte(dir: string, say = '', exitCode = 0): string {
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, 'latte');
  writeFileSync(
    bin,
    `#!${process.execPath}
const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify(join(dir, 'calls.jsonl'))}, JSON.stringify({ argv: process.argv.slice(2), user: process.env.CASSANDRA_USER ?? null, password: process.env.CASSANDRA_PASSWORD ?? null }) + '\\n');
if (${JSON.stringify(say)}) process.stderr.write(${JSON.stringify(say)} + '\\n');
process.exit(${exitCode});
`,
  );
  chmodSync(bin, 0o755);
  return bin;
}

type Call = { argv: string[]; user: string | null; password: string | null };
const calls = (dir: string): Call[] =>
  existsSync(join(dir, 'calls.jsonl'))
    ? readFileSync(join(dir, 'calls.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Call)
    : [];

function cqlshrc(name: string, body: string): string {
  const path = join(tmp, `${name}.cqlshrc`);
  writeFileSync(path, body, { mode: 0o600 });
  return path;
}

const envWith = (rc: string, home: string) => ({ CQL_TUNER_HOME: home, PATH: '', HOME: tmp, CQL_TUNER_CQLSHRC: rc });

describe('latte argv with TLS', () => {
  const files = {
    workload: '/runs/r1/kv.rn',
    reportJson: '/runs/r1/latte.json',
    logDir: '/runs/r1',
    tls: { ca: '/etc/ca.pem', cert: '/etc/c.pem', key: '/etc/k.pem' },
  };
  const base = { tool: 'latte' as const, workload: 'read' as const, nodes: ['127.0.0.1'], durationS: 10 };

  it('every step gets --ssl and the PEM paths; the password only in latte’s environment', () => {
    const cmd = ARGV_BUILDERS.latte('/bin/latte', base, files, { username: 'bench', password: PASSWORD });
    expect(cmd.steps.map((s) => s.name)).toEqual(['schema', 'load', 'run']);
    for (const s of cmd.steps) {
      const at = s.argv.indexOf('--ssl');
      expect(at, s.name).toBeGreaterThan(0);
      expect(s.argv.slice(at, at + 7)).toEqual(['--ssl', '--ssl-ca', '/etc/ca.pem', '--ssl-cert', '/etc/c.pem', '--ssl-key', '/etc/k.pem']);
      expect(s.argv.at(-1)).toBe('127.0.0.1');
      expect(s.argv.join(' ')).not.toContain(PASSWORD);
    }
    expect(cmd.env).toEqual({ CASSANDRA_USER: 'bench', CASSANDRA_PASSWORD: PASSWORD });
  });

  it('a CA alone is enough; no TLS, no --ssl; a path that reads as an option is refused', () => {
    const caOnly = ARGV_BUILDERS.latte('/bin/latte', base, { ...files, tls: { ca: '/etc/ca.pem' } });
    expect(caOnly.steps[0]!.argv).toEqual(expect.arrayContaining(['--ssl', '--ssl-ca', '/etc/ca.pem']));
    expect(caOnly.steps[0]!.argv).not.toContain('--ssl-key');
    const { tls: _drop, ...plain } = files;
    void _drop;
    expect(ARGV_BUILDERS.latte('/bin/latte', base, plain).steps.every((s) => !s.argv.includes('--ssl'))).toBe(true);
    expect(() => ARGV_BUILDERS.latte('/bin/latte', base, { ...files, tls: { ca: '--help' } })).toThrow(/TLS file "--help" starts with "-"/);
  });
});

describe('stress credentials from cqlshrc', () => {
  it('latte gets the cqlshrc login through CASSANDRA_USER / CASSANDRA_PASSWORD, never on argv or in the run files', async () => {
    const dir = join(tmp, 'plain');
    const bin = fakeLatte(dir);
    const rc = cqlshrc('plain', `[authentication]\nusername = cql_tuner_bench\npassword = ${PASSWORD}\n`);
    const env = envWith(rc, join(tmp, 'home-plain'));
    const started = await startStress(
      { tool: 'latte', workload: 'write', nodes: ['127.0.0.1'], port: CLOSED_PORT, durationS: 2, binary: bin, snapshots: 'none' },
      { env },
    );
    const result = await waitForRun(started.id);
    expect(result.state).toBe('finished');
    const seen = calls(dir);
    expect(seen.map((c) => c.argv[2])).toEqual(['schema', 'run']);
    for (const c of seen) {
      expect(c.user).toBe('cql_tuner_bench');
      expect(c.password).toBe(PASSWORD);
      expect(c.argv.join(' ')).not.toContain(PASSWORD);
      expect(c.argv).not.toContain('--ssl');
    }
    for (const f of ['argv.json', 'status.json', 'result.json']) expect(readFileSync(join(started.dir, f), 'utf8')).not.toContain(PASSWORD);
  });

  it('a role without CREATE: the failed run names the GRANT to add', async () => {
    const dir = join(tmp, 'unauthorized');
    const refusal = 'Error: Failed to execute schema: Unauthorized: User cql_tuner has no CREATE permission on <all keyspaces> or any of its parents';
    const bin = fakeLatte(dir, refusal, 1);
    const rc = cqlshrc('tool-role', `[authentication]\nusername = cql_tuner\npassword = ${PASSWORD}\n`);
    const started = await startStress(
      { tool: 'latte', workload: 'write', nodes: ['127.0.0.1'], port: CLOSED_PORT, durationS: 2, binary: bin, snapshots: 'none' },
      { env: envWith(rc, join(tmp, 'home-unauth')) },
    );
    const result = await waitForRun(started.id);
    expect(result.state).toBe('failed');
    const failure = result.warnings.find((w) => w.startsWith('schema step exited with 1'));
    expect(failure).toContain('as a superuser run: GRANT CREATE ON ALL KEYSPACES TO cql_tuner');
  });

  it('a run whose requests were refused still finishes, and its warnings name the GRANT from latte’s JSON report', async () => {
    const dir = join(tmp, 'refused-requests');
    mkdirSync(dir, { recursive: true });
    const bin = join(dir, 'latte');
    // Writes a report with a request error as latte 0.29 does (run exit 0, errors only in the JSON).
    const error =
      "Database returned an error: The logged user doesn't have the right to perform the query, Error message: " +
      'User cql_tuner has no MODIFY permission on <table cql_tuner_stress.kv> or any of its parents';
    writeFileSync(
      bin,
      `#!${process.execPath}
const a = process.argv.slice(2);
const o = a.indexOf('-o');
if (o >= 0) require('node:fs').writeFileSync(a[o + 1], JSON.stringify({ result: { request_errors: [${JSON.stringify(error)}] } }));
`,
    );
    chmodSync(bin, 0o755);
    const rc = cqlshrc('refused', `[authentication]\nusername = cql_tuner\npassword = ${PASSWORD}\n`);
    const started = await startStress(
      { tool: 'latte', workload: 'write', nodes: ['127.0.0.1'], port: CLOSED_PORT, durationS: 2, binary: bin, snapshots: 'none' },
      { env: envWith(rc, join(tmp, 'home-refused')) },
    );
    const result = await waitForRun(started.id);
    expect(result.warnings).toContain(
      'requests were refused by authorization: the role cql_tuner lacks a permission the run needs; as a superuser run: GRANT MODIFY ON TABLE cql_tuner_stress.kv TO cql_tuner',
    );
  });

  it('TLS on with cassandra-stress: refused before anything runs, naming latte as the way', async () => {
    const dir = join(tmp, 'cs');
    mkdirSync(dir, { recursive: true });
    const bin = join(dir, 'cassandra-stress');
    writeFileSync(bin, `#!/bin/sh\necho ran > ${join(dir, 'ran')}\n`);
    chmodSync(bin, 0o755);
    const rc = cqlshrc('tls-cs', `[authentication]\nusername = u\npassword = ${PASSWORD}\n[connection]\nssl = true\n`);
    const run = startStress(
      { tool: 'cassandra-stress', workload: 'write', nodes: ['127.0.0.1'], n: 10, binary: bin, snapshots: 'none' },
      { env: envWith(rc, join(tmp, 'home-cs')) },
    );
    await expect(run).rejects.toMatchObject({ code: 'STRESS_TLS_UNSUPPORTED', fix: expect.stringContaining('tool: latte') });
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });
});

describe.skipIf(!haveOpenssl)('stress TLS: each node certificate is checked before latte gets the password', () => {
  let good: { key: string; cert: string };
  let other: { key: string; cert: string };
  const servers: TlsServer[] = [];

  async function serve(host: string, c: { key: string; cert: string }): Promise<number> {
    const server = createTlsServer({ key: readFileSync(c.key), cert: readFileSync(c.cert) }, (s) => s.destroy());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return (server.address() as { port: number }).port;
  }

  beforeAll(() => {
    good = selfSigned('node', '127.0.0.1');
    other = selfSigned('stranger', '127.0.0.1');
  });
  afterAll(async () => {
    for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
  });

  const tlsRc = (name: string, ca: string) =>
    cqlshrc(name, `[authentication]\nusername = cql_tuner_bench\npassword = ${PASSWORD}\n[connection]\nssl = true\n[ssl]\ncertfile = ${ca}\nvalidate = true\n`);

  it('a certificate signed by the configured CA for the address: latte runs with --ssl --ssl-ca', async () => {
    const port = await serve('127.0.0.1', good);
    const dir = join(tmp, 'tls-ok');
    const bin = fakeLatte(dir);
    const env = envWith(tlsRc('tls-ok', good.cert), join(tmp, 'home-tls-ok'));
    const started = await startStress({ tool: 'latte', workload: 'write', nodes: ['127.0.0.1'], port, durationS: 2, binary: bin, snapshots: 'none' }, { env });
    expect((await waitForRun(started.id)).state).toBe('finished');
    const seen = calls(dir);
    expect(seen).toHaveLength(2);
    for (const c of seen) {
      expect(c.argv).toEqual(expect.arrayContaining(['--ssl', '--ssl-ca', good.cert, `127.0.0.1:${port}`]));
      expect(c.argv.join(' ')).not.toContain(PASSWORD);
    }
  });

  it('a certificate from another CA: CQL_TLS_UNKNOWN_CA naming certfile, and latte never started', async () => {
    const port = await serve('127.0.0.1', other);
    const dir = join(tmp, 'tls-unknown-ca');
    const bin = fakeLatte(dir);
    const env = envWith(tlsRc('tls-unknown', good.cert), join(tmp, 'home-tls-ca'));
    const run = startStress({ tool: 'latte', workload: 'write', nodes: ['127.0.0.1'], port, durationS: 2, binary: bin, snapshots: 'none' }, { env });
    await expect(run).rejects.toMatchObject({
      code: 'CQL_TLS_UNKNOWN_CA',
      fix: expect.stringContaining('certfile'),
      message: expect.stringContaining('latte itself does not verify'),
    });
    expect(calls(dir)).toEqual([]);
  });

  it('the right CA but a certificate for another address: CQL_TLS_HOSTNAME, latte never started', async () => {
    const port = await serve('127.0.0.2', good);
    const dir = join(tmp, 'tls-hostname');
    const bin = fakeLatte(dir);
    const env = envWith(tlsRc('tls-host', good.cert), join(tmp, 'home-tls-host'));
    const run = startStress({ tool: 'latte', workload: 'write', nodes: ['127.0.0.2'], port, durationS: 2, binary: bin, snapshots: 'none' }, { env });
    await expect(run).rejects.toMatchObject({ code: 'CQL_TLS_HOSTNAME' });
    expect(calls(dir)).toEqual([]);
  });
});
