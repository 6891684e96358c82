/**
 * Class 10 (issue #13), the stress / mkfs / storage items:
 * - plan_mkfs accepted any disk as mdDevice (so the printed `mdadm --create /dev/sda …` would overwrite it),
 *   duplicate members and labels starting with "-";
 * - scylla-bench got the CQL password on its argv without a warning, and a failed step's stderr tail (which may
 *   echo the argv) went into status.json unscrubbed;
 * - an ssh target that refused the login gave "No storage findings" instead of an error.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { planMkfs, type MkfsDevice } from '../../mcp-server/src/core/planners/mkfs.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { planMkfsOnHost } from '../../mcp-server/src/ops/plan-mkfs.js';
import { inspectStorage } from '../../mcp-server/src/ops/storage.js';
import { startStress, stressStatus, waitForRun } from '../../mcp-server/src/ops/stress.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';
import { record } from './stats.js';

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-sec10-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const dev = (name: string): MkfsDevice => ({ name, logicalSectorSize: 512, physicalSectorSize: 4096, sizeBytes: 1e12 });
const text = (res: object) => (((res as { content?: unknown }).content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('\n');

async function mcpClient(): Promise<Client> {
  const server = createServer();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'security-10', version: '0' });
  await client.connect(b);
  return client;
}

describe('class 10: plan_mkfs names', () => {
  it('refuses a non-md mdDevice, duplicate members and labels or names that start an option', async () => {
    const two = [dev('nvme0n1'), dev('nvme1n1')];
    const bad: [string, Parameters<typeof planMkfs>[0]][] = [
      ['mdDevice = a disk', { product: 'scylla', devices: two, mdDevice: 'sda' }],
      ['mdDevice = /dev/sdb', { product: 'scylla', devices: two, mdDevice: '/dev/sdb' }],
      ['mdDevice = a member', { product: 'scylla', devices: two, mdDevice: 'nvme0n1' }],
      ['mdDevice = /dev/mapper/x', { product: 'scylla', devices: two, mdDevice: '/dev/mapper/vg-data' }],
      ['mdDevice = -md0', { product: 'scylla', devices: two, mdDevice: '--md0' }],
      ['mdDevice = /dev/md/../sda', { product: 'scylla', devices: two, mdDevice: '/dev/md/../sda' }],
      ['duplicate member', { product: 'scylla', devices: [dev('sdb'), dev('sdb')] }],
      ['duplicate member by path', { product: 'scylla', devices: [dev('sdb'), dev('/dev/sdb'), dev('sdc')] }],
      ['label -f', { product: 'cassandra', devices: [dev('sdb')], label: '-f' }],
      ['label --force', { product: 'cassandra', devices: [dev('sdb')], label: '--force' }],
      ['label -L', { product: 'cassandra', devices: [dev('sdb')], label: '-Ldata' }],
      ['member -f', { product: 'cassandra', devices: [dev('-f'), dev('sdb')] }],
      ['member ../', { product: 'cassandra', devices: [dev('/dev/../etc/passwd')] }],
    ];
    const unsafe: string[] = [];
    for (const [what, input] of bad) {
      try {
        const p = planMkfs(input);
        unsafe.push(`${what}: planned ${[...(p.mdadmArgv ?? []), '&&', ...p.mkfsArgv].join(' ')}`);
      } catch (e) {
        expect((e as { code?: string }).code, what).toBe('BAD_MKFS_INPUT');
        expect((e as { fix?: string }).fix, what).toBeTruthy();
      }
    }
    // Through the MCP tool too (recorded tree: nothing on this machine is read).
    const client = await mcpClient();
    const tree = join(FIXTURES_DIR, 'storage', 'raid0-1m');
    for (const args of [{ mdDevice: 'sda' }, { label: '-f' }, { devices: ['nvme0n1', 'nvme0n1'] }]) {
      const base = { root: tree, product: 'scylla', devices: ['nvme0n1', 'nvme1n1'], dryRun: false };
      const res = await client.callTool({ name: 'plan_mkfs', arguments: { ...base, ...args } });
      if (res.isError !== true) unsafe.push(`plan_mkfs ${JSON.stringify(args)}: ${text(res).slice(0, 200)}`);
    }
    await client.close();
    record({ section: 'attack', cls: '10 plan_mkfs names', tried: bad.length + 3, unsafe: unsafe.length });
    expect(unsafe).toEqual([]);
  });

  it('honest names still plan: md0, /dev/md5, /dev/md/data and a short label', () => {
    for (const md of ['md0', '/dev/md5', '/dev/md/data']) {
      const p = planMkfs({ product: 'scylla', devices: [dev('nvme0n1'), dev('/dev/nvme1n1')], mdDevice: md, label: 'data' });
      const path = md.startsWith('/') ? md : `/dev/${md}`;
      expect(p.mdadmArgv).toEqual(['mdadm', '--create', path, '--level=0', '--raid-devices=2', '--chunk=1024', '/dev/nvme0n1', '/dev/nvme1n1']);
      expect(p.mkfsArgv.slice(-3)).toEqual(['-L', 'data', path]);
    }
  });
});

describe('class 10: scylla-bench password', () => {
  const SECRET = 'SeNtInEl-sb-4c7e91';
  const OTHER = 'OtHeR-pw-77aa12';
  const env = { CQL_TUNER_HOME: join(tmp, 'home'), PATH: '', CQL_TUNER_CQL_USERNAME: 'bench', CQL_TUNER_CQL_PASSWORD: SECRET };

  /** A scylla-bench that fails the way Go's flag package does: it prints what it was given, password included. */
  function fakeScyllaBench(): string {
    const dir = join(tmp, 'sb');
    mkdirSync(dir, { recursive: true });
    const bin = join(dir, 'scylla-bench');
    writeFileSync(
      bin,
      `#!${process.execPath}
const a = process.argv.slice(2);
process.stderr.write('gocql: unable to create session: authentication failed for user bench\\n');
process.stderr.write('args: ' + a.join(' ') + '\\n');
process.stderr.write('retrying with -pw ${OTHER} and password=${OTHER}\\n');
process.stderr.write('-password=' + a[a.indexOf('-password') + 1] + '\\n');
process.exit(1);
`,
    );
    chmodSync(bin, 0o755);
    return bin;
  }

  it('warns that the password is on the command line and keeps it out of status.json, result.json and the status', async () => {
    const bin = fakeScyllaBench();
    const started = await startStress({ tool: 'scylla-bench', workload: 'write', nodes: ['127.0.0.1'], durationS: 5, binary: bin, snapshots: 'none' }, { env });
    const result = await waitForRun(started.id);
    expect(result.state).toBe('failed');
    // The step really got (and printed) the password: the raw err file is the tool's own output.
    expect(readFileSync(join(started.dir, 'run.err.txt'), 'utf8')).toContain(SECRET);
    const status = await stressStatus(started.id, env);
    const stored = [
      ...['status.json', 'result.json', 'argv.json'].map((f) => readFileSync(join(started.dir, f), 'utf8')),
      JSON.stringify(status),
      JSON.stringify(started),
    ];
    const unsafe: string[] = [];
    for (const [i, t] of stored.entries()) {
      if (t.includes(SECRET)) unsafe.push(`artefact ${i} holds the CQL password`);
      if (t.includes(OTHER)) unsafe.push(`artefact ${i} holds a -pw/password= value`);
    }
    const warned = started.warnings.some((w) => /scylla-bench/.test(w) && /command line/.test(w) && /`ps`/.test(w));
    if (!warned) unsafe.push(`no warning about the password on scylla-bench's command line: ${JSON.stringify(started.warnings)}`);
    if (!status.warnings.some((w) => /scylla-bench/.test(w))) unsafe.push('the warning is not in the status');
    record({ section: 'attack', cls: '10 scylla-bench password', tried: stored.length * 2 + 2, unsafe: unsafe.length });
    expect(unsafe).toEqual([]);
    expect(status.error).toMatch(/run step exited with 1/);
    expect(status.error).toMatch(/authentication failed/); // the useful part of the tail stays
  });
});

describe('class 10: a target that refuses the login is an error, not an empty report', () => {
  /** An ssh client that fails like OpenSSH does: one line on stderr, exit 255. */
  function fakeSsh(line: string): string {
    const dir = mkdtempSync(join(tmp, 'ssh-'));
    writeFileSync(join(dir, 'ssh'), `#!/bin/sh\necho ${JSON.stringify(line)} >&2\nexit 255\n`);
    chmodSync(join(dir, 'ssh'), 0o755);
    return dir;
  }

  async function withPath<T>(dir: string, fn: () => Promise<T>): Promise<T> {
    const saved = process.env['PATH'];
    process.env['PATH'] = `${dir}:${saved ?? ''}`;
    try {
      return await fn();
    } finally {
      process.env['PATH'] = saved;
    }
  }

  it("inspect_storage and plan_mkfs over ssh with a refused key say AUTH_FAILED with ssh's line and a fix", async () => {
    const auth = fakeSsh('ops@db1.example: Permission denied (publickey,password).');
    const unsafe: string[] = [];
    const attempts: [string, () => Promise<unknown>][] = [
      ['inspectStorage', () => inspectStorage({ target: 'ssh://ops@db1.example' })],
      ['inspectStorage product', () => inspectStorage({ target: 'ssh://ops@db1.example', product: 'cassandra' })],
      ['inspectStorage dirs', () => inspectStorage({ target: 'ssh://ops@db1.example', dirs: ['/var/lib/cassandra/data'] })],
      ['planMkfsOnHost', () => planMkfsOnHost({ target: 'ssh://ops@db1.example', product: 'cassandra', devices: ['sdb'] })],
      ['planMkfsOnHost md', () => planMkfsOnHost({ target: 'ssh://ops@db1.example', product: 'cassandra', devices: ['md0'] })],
    ];
    await withPath(auth, async () => {
      for (const [what, run] of attempts) {
        const r = await run().then(
          () => null,
          (e: { code?: string; message?: string; fix?: string }) => e,
        );
        if (!r) unsafe.push(`${what}: reported as if the host had been read`);
        else if (r.code !== 'AUTH_FAILED' || !/Permission denied \(publickey,password\)/.test(r.message ?? '') || !r.fix) {
          unsafe.push(`${what}: ${r.code}: ${r.message}`);
        }
      }
      const client = await mcpClient();
      const res = await client.callTool({ name: 'inspect_storage', arguments: { target: 'ssh://ops@db1.example' } });
      if (res.isError !== true || /No storage findings/.test(text(res))) unsafe.push(`inspect_storage tool: ${text(res).slice(0, 200)}`);
      await client.close();
    });
    const down = fakeSsh('ssh: connect to host db1.example port 22: No route to host');
    await withPath(down, async () => {
      const r = await inspectStorage({ target: 'ssh://ops@db1.example' }).then(
        () => null,
        (e: { code?: string; message?: string }) => e,
      );
      if (r?.code !== 'TARGET_UNREACHABLE' || !/No route to host/.test(r.message ?? '')) unsafe.push(`unreachable host: ${JSON.stringify(r)}`);
    });
    record({ section: 'attack', cls: '10 ssh auth failure', tried: attempts.length + 2, unsafe: unsafe.length });
    expect(unsafe).toEqual([]);
  });

  it('a reachable host with nothing to read still reports (recorded tree, local target)', async () => {
    const r = await inspectStorage({ root: join(FIXTURES_DIR, 'storage', 'raid0-1m'), product: 'scylla' });
    expect(r.devices.length).toBeGreaterThan(0);
  });
});
