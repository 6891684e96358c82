/** CQL_TUNER_CREDENTIAL_HOSTS: parsing and matching (core/credential-hosts.ts), and the env loader (collect/). */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryFor, isLoopback, matchIp, matchName, parseCredentialHosts, parseIp, splitEndpoint } from '../../mcp-server/src/core/credential-hosts.js';
import { loadCredentialHosts, withCommandLineHosts } from '../../mcp-server/src/collect/credential-hosts.js';

const list = (text: string) => parseCredentialHosts(text).entries;

describe('parseIp', () => {
  it('reads IPv4, IPv6 (compressed, full, with an IPv4 tail) and IPv4-mapped IPv6 as IPv4', () => {
    expect(parseIp('10.0.0.1')).toEqual({ family: 4, value: 0x0a000001n });
    expect(parseIp('::1')).toEqual({ family: 6, value: 1n });
    expect(parseIp('fd00:0:0:0:0:0:0:7')).toEqual({ family: 6, value: (0xfd00n << 112n) | 7n });
    expect(parseIp('fd00::7')).toEqual(parseIp('fd00:0:0:0:0:0:0:7'));
    expect(parseIp('64:ff9b::10.0.0.1')?.value).toBe((0x64n << 112n) | (0xff9bn << 96n) | 0x0a000001n);
    expect(parseIp('::ffff:10.0.0.1')).toEqual({ family: 4, value: 0x0a000001n });
  });
  it('refuses what is not an address', () => {
    const bad = ['10.0.0.256', '10.0.0', 'fd00:::1', '1:2:3:4:5:6:7:8:9', 'fe80::1%eth0', 'example.com', '', '::g', '1::2::3'];
    for (const b of bad) expect(parseIp(b), b).toBeNull();
  });
});

describe('parseCredentialHosts', () => {
  it('reads every documented form, with and without a port', () => {
    const { entries, errors } = parseCredentialHosts(
      ' 10.0.0.0/24 , 10.0.1.0/24:9042, fd00::/8, [fd00::/8]:9042, 10.0.0.7, 10.0.0.8:7199, fd00::7, [fd00::7]:9042, ' +
        'db1.example.com, db2.example.com:9042, *.db.example.com, *.db.example.com:9142 ',
    );
    expect(errors).toEqual([]);
    expect(entries.map((e) => [e.kind, e.port])).toEqual([
      ['cidr', null],
      ['cidr', 9042],
      ['cidr', null],
      ['cidr', 9042],
      ['cidr', null],
      ['cidr', 7199],
      ['cidr', null],
      ['cidr', 9042],
      ['name', null],
      ['name', 9042],
      ['pattern', null],
      ['pattern', 9142],
    ]);
  });
  it('reports bad entries and lets none of them widen into "everything"', () => {
    const { entries, errors } = parseCredentialHosts('*, *.com, 10.0.0.0/33, 10.0.0.1:0, 10.0.0.1:70000, fd00::/8:9042, -oProxyCommand=x, a b, 0.0.0.0/0x');
    expect(entries).toEqual([]);
    expect(errors).toHaveLength(9);
    expect(errors[0]).toContain('CQL_TUNER_CREDENTIAL_HOSTS');
  });
  it('an empty or unset variable allows nothing', () => {
    expect(parseCredentialHosts(undefined)).toEqual({ entries: [], errors: [] });
    expect(parseCredentialHosts(' , ')).toEqual({ entries: [], errors: [] });
  });
});

describe('matching', () => {
  it('CIDR blocks, single addresses and ports', () => {
    const e = list('10.0.0.0/24, 10.0.9.9:7199, [fd00::/16]:9042');
    expect(matchIp(e, '10.0.0.200', 9042)?.text).toBe('10.0.0.0/24');
    expect(matchIp(e, '10.0.1.1', 9042)).toBeNull();
    expect(matchIp(e, '10.0.9.9', 7199)?.text).toBe('10.0.9.9:7199');
    expect(matchIp(e, '10.0.9.9', 9042)).toBeNull();
    expect(matchIp(e, 'fd00:1::5', 9042)?.text).toBe('[fd00::/16]:9042');
    expect(matchIp(e, 'fd00:1::5', 9043)).toBeNull();
    expect(matchIp(e, 'fd01::5', 9042)).toBeNull();
    // IPv4-mapped IPv6 is the IPv4 address it maps.
    expect(matchIp(e, '::ffff:10.0.0.3', 9042)?.text).toBe('10.0.0.0/24');
    expect(matchIp(list('0.0.0.0/0'), '8.8.8.8', 1)).not.toBeNull();
  });
  it('names and patterns match names only, case-insensitively, never the bare domain or a look-alike', () => {
    const e = list('db1.example.com, *.db.example.com:9042');
    expect(matchName(e, 'DB1.example.com', 1)?.text).toBe('db1.example.com');
    expect(matchName(e, 'a.db.example.com', 9042)?.text).toBe('*.db.example.com:9042');
    expect(matchName(e, 'a.b.db.example.com', 9042)).not.toBeNull();
    expect(matchName(e, 'db.example.com', 9042)).toBeNull();
    expect(matchName(e, 'evildb.example.com', 9042)).toBeNull();
    expect(matchName(e, 'a.db.example.com.evil.net', 9042)).toBeNull();
    expect(matchName(e, 'a.db.example.com', 9043)).toBeNull();
    expect(matchName(e, '10.0.0.1', 9042)).toBeNull();
  });
  it('endpoints as the driver writes them, loopback, and the entry to suggest', () => {
    expect(splitEndpoint('10.0.0.1:9042')).toEqual({ host: '10.0.0.1', port: 9042 });
    expect(splitEndpoint('fd00::1:9042')).toEqual({ host: 'fd00::1', port: 9042 });
    expect(splitEndpoint('[fd00::1]:9042')).toEqual({ host: 'fd00::1', port: 9042 });
    expect(splitEndpoint('nonsense')).toBeNull();
    expect(isLoopback('127.0.0.2')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
    expect(entryFor('fd00::1', 9042)).toBe('[fd00::1]:9042');
  });
});

describe('loadCredentialHosts', () => {
  it('allows what the variable lists and nothing else; problems are reported', async () => {
    const h = await loadCredentialHosts({ CQL_TUNER_CREDENTIAL_HOSTS: '10.0.0.0/24:9042, localhost, *.db.example.com, bogus/1' });
    expect(h.allows('10.0.0.5', 9042)).toContain('10.0.0.0/24:9042');
    expect(h.allows('10.0.0.5', 7199)).toBeNull();
    expect(h.allows('10.0.1.5', 9042)).toBeNull();
    // "localhost" resolves (hosts file) to loopback: its addresses are allowed; a JMX host given by name must be listed by name.
    expect(h.allows('127.0.0.1', 9042)).toContain('localhost');
    expect(h.allows('localhost', 7199)).toContain('localhost');
    expect(h.allows('x.db.example.com', 7199)).toContain('*.db.example.com');
    expect(h.allows('evil.example.net', 7199)).toBeNull();
    expect(h.problems.join('\n')).toContain('bogus/1');
  });
  it('command-line hosts are allowed only inside their run', async () => {
    const env = {};
    expect((await loadCredentialHosts(env)).allows('10.9.9.9', 9042)).toBeNull();
    const inside = await withCommandLineHosts(['10.9.9.9:9142', 'node7.example.org'], () => loadCredentialHosts(env));
    expect(inside.allows('10.9.9.9', 7199)).toContain('command line');
    expect(inside.allows('node7.example.org', 7199)).toContain('command line');
    expect(inside.allows('10.9.9.8', 9042)).toBeNull();
    expect((await loadCredentialHosts(env)).allows('10.9.9.9', 9042)).toBeNull();
  });
});

describe('the local lab', () => {
  it("its running nodes' CQL and JMX ports are allowed; a lab whose processes are gone, or other loopback ports, are not", async () => {
    const home = mkdtempSync(join(tmpdir(), 'cql-tuner-credlab-'));
    const lab = (pid: number) => {
      mkdirSync(join(home, 'lab'), { recursive: true });
      const node = (i: number) => ({ index: i, host: `127.0.0.${i}`, cqlPort: 9042, jmxPort: 7099 + 100 * i, pid, dir: '/x', logFile: '/x/l' });
      const state = { version: '5.0', fullVersion: '5.0.9', nodes: [node(1), node(2)], heap: '1G', datacenters: 1, startedAt: new Date().toISOString() };
      writeFileSync(join(home, 'lab', 'lab.json'), JSON.stringify(state));
    };
    try {
      lab(process.pid);
      const live = await loadCredentialHosts({ CQL_TUNER_HOME: home });
      expect(live.allows('127.0.0.2', 9042)).toContain('local lab');
      expect(live.allows('127.0.0.1', 7299)).toContain('local lab');
      expect(live.allows('127.0.0.1', 9043)).toBeNull();
      expect(live.allows('127.0.0.3', 9042)).toBeNull();
      lab(spawnSync(process.execPath, ['-e', '0']).pid);
      expect((await loadCredentialHosts({ CQL_TUNER_HOME: home })).allows('127.0.0.2', 9042)).toBeNull();
      // A lab.json that is not JSON, or holds a node record the lab never writes, is no lab: nothing is trusted.
      writeFileSync(join(home, 'lab', 'lab.json'), '{"nodes": [');
      expect((await loadCredentialHosts({ CQL_TUNER_HOME: home })).allows('127.0.0.1', 9042)).toBeNull();
      writeFileSync(
        join(home, 'lab', 'lab.json'),
        JSON.stringify({ nodes: [{ index: 1, host: '127.0.0.1', cqlPort: 9042, jmxPort: '7199', pid: process.pid, dir: '/x', logFile: '/x/l' }] }),
      );
      expect((await loadCredentialHosts({ CQL_TUNER_HOME: home })).allows('127.0.0.1', 9042)).toBeNull();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
