import { describe, expect, it } from 'vitest';
import { parseGossipinfo } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const C50 = 'local-runs/cassandra-5.0.9-cluster3/nodetool/nodetool_node2_gossipinfo.txt';
const C41 = 'local-runs/cassandra-4.1.10-single/nodetool_n41_gossipinfo.txt';

// 3.x layout (GossipInfo.java, cassandra-3.11: "KEY:value"), with a resolved hostname and a node leaving.
const V3 = [
  'db1.example.com/10.0.0.1',
  '  generation:1700000000',
  '  heartbeat:4242',
  '  STATUS:NORMAL,-9223372036854775808',
  '  LOAD:1.6700000127E11',
  '  SCHEMA:aaaa0000-0000-3000-8000-000000000001',
  '  DC:eu',
  '  RACK:r1',
  '  RELEASE_VERSION:3.11.16',
  '  RPC_ADDRESS:10.0.0.1',
  '  HOST_ID:11111111-2222-4333-8444-555555555555',
  '  RPC_READY:true',
  '/10.0.0.2',
  '  generation:1700000100',
  '  heartbeat:17',
  '  STATUS:LEAVING,3074457345618258602',
  '  LOAD:1.2E11',
  '  SCHEMA:bbbb0000-0000-3000-8000-000000000002',
  '  DC:eu',
  '  RACK:r2',
  '  RELEASE_VERSION:3.11.16',
  '  HOST_ID:66666666-2222-4333-8444-555555555555',
  '  RPC_READY:false',
].join('\n');

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseGossipinfo(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool gossipinfo', () => {
  it.skipIf(!HAVE_CORPUS)('5.0.9: three endpoints, KEY:version:value states, values with colons', () => {
    const r = parseGossipinfo(corpus(C50));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.versionedStates).toBe(true);
    expect(r.value.endpoints.map((e) => e.address)).toEqual(['127.0.0.1', '127.0.0.2', '127.0.0.3']);
    const n1 = r.value.endpoints[0]!;
    expect(n1).toMatchObject({
      generation: 1795295448,
      heartbeat: 236,
      status: 'NORMAL',
      datacenter: 'datacenter1',
      rack: 'rack1',
      releaseVersion: '5.0.9',
      hostId: 'c474c29e-f16d-49e0-a4fd-b8989fe524a4',
      loadBytes: 121362,
      rpcReady: true,
    });
    expect(n1.states['NATIVE_ADDRESS_AND_PORT']).toEqual({ version: 3, value: '127.0.0.1:9042' });
    expect(n1.states['STATUS']).toBeUndefined(); // only STATUS_WITH_PORT on this node
    expect(r.value.endpoints[1]!.states['STATUS']).toEqual({ version: 37, value: 'NORMAL,-2227116313782123537' });
    expect(r.value.schemaVersions).toEqual(['7ae779d6-fcf7-3d32-955c-6500cce16fb1']);
    expect(r.value.releaseVersions).toEqual(['5.0.9']);
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('4.1.10 single node', () => {
    const r = parseGossipinfo(corpus(C41));
    expect(r.ok && r.value.endpoints[0]).toMatchObject({ address: '127.0.0.1', status: 'NORMAL', releaseVersion: '4.1.10', loadBytes: 106861 });
  });

  it('3.x unversioned states, hostname/ip headers, schema disagreement', () => {
    const r = parseGossipinfo(V3);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.versionedStates).toBe(false);
    expect(r.value.endpoints[0]).toMatchObject({ hostname: 'db1.example.com', address: '10.0.0.1', status: 'NORMAL', loadBytes: 167000001270 });
    expect(r.value.endpoints[1]).toMatchObject({ hostname: null, status: 'LEAVING', rpcReady: false });
    expect(r.value.endpoints[1]!.states['STATUS']).toEqual({ version: null, value: 'LEAVING,3074457345618258602' });
    expect(r.value.schemaVersions).toHaveLength(2);
  });

  it('prompt, CRLF; ok:false on unrelated, empty, error and header-less text; warns on a cut tail', () => {
    const r = parseGossipinfo(`$ nodetool gossipinfo\r\n${V3.replace(/\n/g, '\r\n')}`);
    expect(r.ok && r.value.endpoints).toHaveLength(2);
    for (const bad of ['', 'Mode: NORMAL', '  generation:1\n  heartbeat:2\n  STATUS:NORMAL,1']) expect(parseGossipinfo(bad).ok).toBe(false);
    expect(parseGossipinfo('error: Authentication failed').ok).toBe(false);
    const cut = parseGossipinfo(V3.split('\n').slice(0, 16).join('\n'));
    expect(cut.ok && cut.warnings.join(' ')).toMatch(/truncated/);
  });

  it('is total on every truncation of the synthetic sample', () => {
    expectTotalOnEveryTruncation(V3);
  });

  it.skipIf(!HAVE_CORPUS)('is total on every truncation of every real gossipinfo sample', () => {
    const files = corpusFiles('local-runs', /_gossipinfo\.txt$/);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      expect(parseGossipinfo(corpus(f)).ok, f).toBe(true);
      expectTotalOnEveryTruncation(corpus(f));
    }
  });
});
