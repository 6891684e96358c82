import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNodetool } from '../../mcp-server/src/ops/nodetool.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';
import { RecordingTarget } from '../helpers/recording-target.js';

// A file named nodetool that is never executed: the RecordingTarget answers instead.
const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-nt-'));
const fakeNodetool = join(dir, 'nodetool');
writeFileSync(fakeNodetool, '#!/bin/sh\nexit 99\n', { mode: 0o755 });
const env = { PATH: '' } as NodeJS.ProcessEnv;

describe('runNodetool', () => {
  it.skipIf(!HAVE_CORPUS)('runs argv without a shell and parses status', async () => {
    const t = new RecordingTarget(() => ({ stdout: corpus('local-runs/cassandra-5.0.9-cluster3/nodetool_status_jmx7199.txt') }));
    const r = await runNodetool({ subcommand: 'status', host: '127.0.0.2', port: 7299, nodetoolPath: fakeNodetool }, { target: t, env });
    expect(t.calls[0]!.argv).toEqual([fakeNodetool, '-h', '127.0.0.2', '-p', '7299', 'status']);
    expect(r.ok).toBe(true);
    expect(r.nodetool.source).toBe('explicit');
    expect(r.parsed?.ok).toBe(true);
    expect((r.parsed?.value as { nodes: unknown[] }).nodes).toHaveLength(3);
    expect(r.output.raw).toBeUndefined();
  });

  it('passes the JMX password through a 0600 file, never argv, and scrubs it from output', async () => {
    const secret = 'S3ntinel-Pa55';
    const t = new RecordingTarget(() => ({
      exitCode: 1,
      stderr: `nodetool: Failed to connect to '127.0.0.1:7199' - ConnectException: 'Connection refused (Connection refused)'. debug: ${secret}\n`,
    }));
    const r = await runNodetool(
      { subcommand: 'info', nodetoolPath: fakeNodetool, raw: true },
      { target: t, env: { ...env, CQL_TUNER_JMX_USERNAME: 'ops', CQL_TUNER_JMX_PASSWORD: secret, CQL_TUNER_CREDENTIAL_HOSTS: '127.0.0.1' } },
    );
    const call = t.calls[0]!;
    expect(call.argv.join(' ')).not.toContain(secret);
    const pwf = call.argv[call.argv.indexOf('-pwf') + 1]!;
    expect(call.argv.slice(5, 9)).toEqual(['-u', 'ops', '-pwf', pwf]);
    expect(call.files[pwf]).toBe(`ops ${secret}\n`);
    expect(existsSync(pwf)).toBe(false); // removed after the call
    expect(JSON.stringify(r)).not.toContain(secret);
    expect(r.ok).toBe(false);
    expect(r.error?.code).toBe('JMX_UNREACHABLE');
  });

  it('explains the 4.1 proxyhistograms InstanceNotFoundException on an idle node', async () => {
    const t = new RecordingTarget(() => ({
      exitCode: 1,
      stderr:
        'error: org.apache.cassandra.metrics:type=ClientRequest,scope=Read,name=Latency\n-- StackTrace --\njavax.management.InstanceNotFoundException: org.apache.cassandra.metrics:type=ClientRequest,scope=Read,name=Latency\n',
    }));
    const r = await runNodetool({ subcommand: 'proxyhistograms', nodetoolPath: fakeNodetool }, { target: t, env });
    expect(r.error?.code).toBe('NO_METRIC_YET');
    expect(r.error?.fix).toMatch(/no reads/);
  });

  it('reports a timeout as such', async () => {
    const t = new RecordingTarget(() => ({ exitCode: null, timedOut: true }));
    const r = await runNodetool({ subcommand: 'tpstats', nodetoolPath: fakeNodetool, timeoutMs: 1000 }, { target: t, env });
    expect(t.calls[0]!.opts.timeoutMs).toBe(1000);
    expect(r.error?.code).toBe('TIMEOUT');
  });

  it('refuses before running anything', async () => {
    const t = new RecordingTarget(() => ({}));
    await expect(runNodetool({ subcommand: 'repair', nodetoolPath: fakeNodetool }, { target: t, env })).rejects.toMatchObject({ code: 'NOT_ALLOWED' });
    await expect(runNodetool({ subcommand: 'status', nodetoolPath: '/bin/sh' }, { target: t, env })).rejects.toMatchObject({ code: 'NODETOOL_NOT_FOUND' });
    await expect(runNodetool({ subcommand: 'status', nodetoolPath: 'nodetool' }, { target: t, env })).rejects.toThrow(/absolute path/);
    expect(t.calls).toHaveLength(0);
  });

  it('finds nodetool under CASSANDRA_HOME', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cql-tuner-home-'));
    const bin = join(home, 'bin');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(bin);
    writeFileSync(join(bin, 'nodetool'), '#!/bin/sh\n', { mode: 0o755 });
    const t = new RecordingTarget(() => ({ stdout: 'ReleaseVersion: 4.1.10\n' }));
    const r = await runNodetool({ subcommand: 'version' }, { target: t, env: { ...env, CASSANDRA_HOME: home } });
    expect(r.nodetool).toEqual({ source: 'CASSANDRA_HOME', path: join(bin, 'nodetool') });
    expect(r.parsed?.value).toMatchObject({ release: '4.1.10' });
  });
});

describe('nodetool on PATH', () => {
  it('takes the first executable nodetool on PATH, skipping relative and non-executable entries, after CASSANDRA_HOME', async () => {
    const { mkdirSync } = await import('node:fs');
    const root = mkdtempSync(join(tmpdir(), 'cql-tuner-path-'));
    const [notExec, good, later] = ['a', 'b', 'c'].map((d) => join(root, d));
    for (const d of [notExec!, good!, later!]) mkdirSync(d);
    writeFileSync(join(notExec!, 'nodetool'), '#!/bin/sh\n', { mode: 0o644 });
    writeFileSync(join(good!, 'nodetool'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(later!, 'nodetool'), '#!/bin/sh\n', { mode: 0o755 });
    const t = new RecordingTarget(() => ({ stdout: 'ReleaseVersion: 5.0.9\n' }));
    const pathEnv = { PATH: ['relative/bin', notExec, good, later].join(':'), CASSANDRA_HOME: join(root, 'no-such-home') };
    const r = await runNodetool({ subcommand: 'version' }, { target: t, env: pathEnv });
    expect(r.nodetool).toEqual({ source: 'PATH', path: join(good!, 'nodetool') });
    expect(t.calls[0]!.argv[0]).toBe(join(good!, 'nodetool'));
  });
});

describe('version-adaptive retries', () => {
  it('asks 4.1+ getstreamthroughput again with -d when it insists, and parses that answer', async () => {
    const t = new RecordingTarget((argv) =>
      argv.includes('-d')
        ? { stdout: 'Current stream throughput: 201.32659 megabits per second\n' }
        : { exitCode: 2, stderr: 'error: Use the -d flag to quiet this error and get the exact throughput in megabits/s\n' },
    );
    const r = await runNodetool({ subcommand: 'getstreamthroughput', nodetoolPath: fakeNodetool }, { target: t, env });
    expect(t.calls.map((c) => c.argv.slice(5))).toEqual([['getstreamthroughput'], ['getstreamthroughput', '-d']]);
    expect(r.ok).toBe(true);
    expect(r.parsed?.ok).toBe(true);
  });

  it('does not retry other failures', async () => {
    const t = new RecordingTarget(() => ({ exitCode: 1, stderr: "nodetool: Failed to connect to '127.0.0.1:7199' - ConnectException" }));
    await runNodetool({ subcommand: 'getstreamthroughput', nodetoolPath: fakeNodetool }, { target: t, env });
    expect(t.calls).toHaveLength(1);
  });
});

describe('nodetool on a remote target', () => {
  it('uses the remote host’s nodetool, never a local path, and no local password file', async () => {
    const t = new RecordingTarget(() => ({ stdout: 'ReleaseVersion: 5.0.9\n' }), 'ssh');
    // JMX on 127.0.0.1 of the remote node: the node's address is what the credentials are bound to.
    const env = {
      PATH: '/nonexistent',
      CQL_TUNER_JMX_USERNAME: 'ops',
      CQL_TUNER_JMX_PASSWORD_FILE: '/etc/cassandra/jmx.pw',
      CQL_TUNER_CREDENTIAL_HOSTS: '10.0.0.5',
    };
    const r = await runNodetool({ subcommand: 'version' }, { target: t, credentialHost: '10.0.0.5', env });
    expect(t.calls[0]!.argv).toEqual(['nodetool', '-h', '127.0.0.1', '-p', '7199', '-u', 'ops', '-pwf', '/etc/cassandra/jmx.pw', 'version']);
    expect(r.nodetool).toEqual({ source: 'remote', path: 'nodetool' });
  });

  it('refuses a password from the environment rather than put it in remote argv', async () => {
    const t = new RecordingTarget(() => ({}), 'ssh');
    const env = { CQL_TUNER_JMX_USERNAME: 'ops', CQL_TUNER_JMX_PASSWORD: 'pw', CQL_TUNER_CREDENTIAL_HOSTS: '10.0.0.5' };
    await expect(runNodetool({ subcommand: 'version' }, { target: t, credentialHost: '10.0.0.5', env })).rejects.toMatchObject({ code: 'JMX_PASSWORD_REMOTE' });
    expect(t.calls).toHaveLength(0);
  });
});

describe('refusals name what was wrong and what to do about it', () => {
  const refused = (input: Parameters<typeof runNodetool>[0]) =>
    runNodetool(input, { target: new RecordingTarget(() => ({})), env }).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; fix: string },
    );

  it('gives each refusal its own fix', async () => {
    const notAllowed = await refused({ subcommand: 'repair' });
    const badHost = await refused({ subcommand: 'status', host: '-oProxyCommand=x' });
    const badPort = await refused({ subcommand: 'status', port: 70000 });
    const badName = await refused({ subcommand: 'tablestats', keyspace: 'ks; drop', table: 't' });
    expect([notAllowed?.code, badHost?.code, badPort?.code, badName?.code]).toEqual(['NOT_ALLOWED', 'BAD_HOST', 'BAD_PORT', 'BAD_IDENTIFIER']);
    expect(badHost?.fix).toMatch(/hostname or an IPv4\/IPv6 address/);
    expect(badPort?.fix).toMatch(/between 1 and 65535/);
    expect(badName?.fix).toMatch(/exactly as in the schema/);
    expect(new Set([notAllowed?.fix, badHost?.fix, badPort?.fix, badName?.fix]).size).toBe(4);
  });

  it('refuses a JMX password without a username instead of connecting without one', async () => {
    for (const extra of [{ CQL_TUNER_JMX_PASSWORD: 'pw' }, { CQL_TUNER_JMX_PASSWORD_FILE: '/etc/cassandra/jmx.pw' }]) {
      const t = new RecordingTarget(() => ({}));
      const e = await runNodetool({ subcommand: 'version', nodetoolPath: fakeNodetool }, { target: t, env: { ...env, ...extra } }).then(
        () => null,
        (x: unknown) => x as { code: string; message: string; fix: string },
      );
      expect(e?.code).toBe('JMX_USERNAME_MISSING');
      expect(e?.message).toContain(Object.keys(extra)[0]);
      expect(e?.fix).toContain('CQL_TUNER_JMX_USERNAME');
      expect(t.calls).toHaveLength(0);
    }
  });
});
