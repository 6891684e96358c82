import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { inspectStorage, parseDirArgs } from '../../mcp-server/src/ops/storage.js';
import { renderStorageReport } from '../../mcp-server/src/render/storage.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';
import { RecordingTarget } from '../helpers/recording-target.js';
import { readHostStorage } from '../../mcp-server/src/collect/storage/read-host.js';

const tree = (name: string) => join(FIXTURES_DIR, 'storage', name);

describe('inspectStorage', () => {
  it('reads the directories from cassandra.yaml on the target and resolves them', async () => {
    const r = await inspectStorage({ root: tree('xfs-1k-on-4k'), product: 'cassandra' });
    expect(r.dirs.map((d) => [d.role, d.path, d.device, d.from])).toEqual([
      ['data', '/var/lib/cassandra/data', 'sdb', '/etc/cassandra/cassandra.yaml data_file_directories'],
      ['commitlog', '/var/lib/cassandra/commitlog', 'sdb', '/etc/cassandra/cassandra.yaml commitlog_directory'],
      ['hints', '/var/lib/cassandra/hints', 'sdb', '/etc/cassandra/cassandra.yaml hints_directory'],
    ]);
    expect(
      r.findings
        .filter((f) => f.severity === 'warning')
        .map((f) => f.id)
        .sort(),
    ).toEqual(['storage.rotational-virtual', 'storage.xfs-block-below-sector']);
    const text = renderStorageReport(r);
    expect(text).toMatch(/data \/var\/lib\/cassandra\/data → \/var\/lib\/cassandra \(xfs\) on sdb → sdb/);
    expect(text).toMatch(/xfs: \/var\/lib\/cassandra bsize 1024 sectsz 512/);
  });

  it('ScyllaDB defaults fill what scylla.yaml omits (data_file_directories)', async () => {
    const r = await inspectStorage({ root: tree('raid0-1m'), product: 'scylla' });
    expect(r.dirs.find((d) => d.role === 'data')).toMatchObject({ path: '/var/lib/scylla/data', device: 'md0' });
    expect(r.dirs.find((d) => d.role === 'data')!.from).toMatch(/^default/);
    expect(r.dirs.find((d) => d.role === 'commitlog')!.from).toBe('/etc/scylla/scylla.yaml commitlog_directory');
  });

  it('refuses bad directory arguments and bad targets with a fix', async () => {
    expect(() => parseDirArgs(['relative/path'])).toThrow(/absolute/);
    expect(() => parseDirArgs(['wal=/x'])).toThrow(/unknown directory role/);
    expect(parseDirArgs(['/d', 'commitlog=/c'])).toEqual([
      { role: 'data', path: '/d' },
      { role: 'commitlog', path: '/c' },
    ]);
    await expect(inspectStorage({ target: 'ftp://x' })).rejects.toMatchObject({ code: 'BAD_TARGET' });
  });

  it('runs only read-only argv on the target (no shell), and survives a target where everything fails', async () => {
    const t = new RecordingTarget(() => ({ exitCode: 1, stderr: 'Permission denied' }), 'ssh');
    const { facts } = await readHostStorage(t, { dirs: [{ role: 'data', path: '/var/lib/cassandra/data' }] });
    const tools = new Set(t.calls.map((c) => c.argv[0]));
    expect([...tools].every((x) => ['find', 'grep', 'cat', 'readlink', 'lsblk', 'xfs_info'].includes(x!))).toBe(true);
    expect(t.calls.every((c) => !c.argv.some((a) => /[;&|`$]/.test(a)))).toBe(true);
    expect(facts.devices).toEqual([]);
    expect(facts.unread.map((u) => u.what)).toEqual(expect.arrayContaining(['/sys/block', 'mounts (/proc/self/mountinfo)']));
    expect(facts.unread.find((u) => u.what === '/sys/block')!.why).toMatch(/permission denied/);
  });
});

describe('inspect_storage MCP tool', () => {
  it('is read-only and returns findings for a recorded tree', async () => {
    const server = createServer();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(b);
    const tools = await client.listTools();
    const tool = tools.tools.find((t) => t.name === 'inspect_storage')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const r = await client.callTool({ name: 'inspect_storage', arguments: { root: tree('readahead-8192'), product: 'cassandra' } });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as { findings: { id: string }[] };
    expect(s.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['storage.read-ahead-high', 'storage.discard-online']));
    await client.close();
  });
});

describe('plan_mkfs and plan_queue_depth MCP tools', () => {
  it('plan_mkfs is marked read-only (dry run) and plans from the recorded members; plan_queue_depth answers the issue example', async () => {
    const server = createServer();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(b);
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === 'plan_mkfs')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.find((t) => t.name === 'plan_mkfs')!.description).toMatch(/NEVER formats/);
    const r = await client.callTool({
      name: 'plan_mkfs',
      arguments: { root: tree('raid0-1m'), product: 'scylla', devices: ['nvme0n1', 'nvme1n1'], mdDevice: '/dev/md7' },
    });
    expect(r.isError).toBeFalsy();
    const plan = (r.structuredContent as { plan: { mkfsArgv: string[]; dryRunArgv: string[] } }).plan;
    // 4 KiB, not 1 KiB: scylla_raid_setup keeps the XFS default on kernels >= 5.12 since 2025.4 (kb:storage.xfs.block-size).
    expect(plan.mkfsArgv).toEqual(['mkfs.xfs', '-b', 'size=4096', '-s', 'size=512', '-d', 'su=1024k,sw=2', '/dev/md7']);
    expect(plan.dryRunArgv).toContain('-N');
    const mounted = await client.callTool({ name: 'plan_mkfs', arguments: { root: tree('raid0-1m'), product: 'scylla', devices: ['md0'] } });
    expect(mounted.isError).toBe(true);
    expect(JSON.stringify(mounted.content)).toContain('DEVICE_MOUNTED');
    for (const root of ['relative/tree', '/tmp/../etc', '/tmp/x\nid']) {
      const refused = await client.callTool({ name: 'plan_mkfs', arguments: { root, product: 'scylla', devices: ['nvme0n1'] } });
      expect(refused.isError, root).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/root must be an absolute directory path/);
    }
    const q = await client.callTool({ name: 'plan_queue_depth', arguments: { bandwidth: '14.5 GB/s', requestSize: '128 kB', latencyMs: 1 } });
    expect((q.structuredContent as { outstanding: number }).outstanding).toBeCloseTo(113.3, 1);
    const bad = await client.callTool({ name: 'plan_queue_depth', arguments: { bandwidth: '1 GB/s', latencyMs: 1 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('BAD_ARGUMENT');
    await client.close();
  });
});
