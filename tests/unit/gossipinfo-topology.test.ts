/**
 * A pasted or collected `nodetool gossipinfo` is a gossip view like system_views.gossip_info: the topology rule judges
 * its states (issue #14). A node marked shut down (STATUS shutdown, heartbeat forced to Integer.MAX_VALUE by
 * Gossiper.markAsShutdown) is critical; LEFT (decommissioned or removed) is information, not a fault.
 */
import { describe, expect, it } from 'vitest';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const block = (addr: string, status: string, heartbeat = 1234) =>
  [`/${addr}`, '  generation:1700000000', `  heartbeat:${heartbeat}`, `  STATUS:${status}`, '  DC:dc1', '  RACK:r1', '  RELEASE_VERSION:3.11.17', ''].join(
    '\n',
  );

const gossip = (text: string) => {
  const r = interpretText(text);
  expect(r.kind).toBe('nodetool.gossipinfo');
  return r.findings.filter((f) => f.id === 'topology.gossip-state');
};

describe('nodetool gossipinfo → topology', () => {
  it('a node marked shut down is critical, and the evidence names nodetool gossipinfo and the forced heartbeat', () => {
    const f = gossip(block('10.0.0.1', 'NORMAL,-1') + block('10.0.0.2', 'shutdown,true', 2147483647));
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'critical', node: '10.0.0.2', title: '10.0.0.2 is shutdown in gossip' });
    expect(f[0]!.evidence[0]).toBe('this node: nodetool gossipinfo state of 10.0.0.2 = shutdown (heartbeat at its maximum: the node announced its shutdown)');
  });

  it('all NORMAL gives no gossip-state finding; LEFT is information; LEAVING is a warning', () => {
    expect(gossip(block('10.0.0.1', 'NORMAL,-1') + block('10.0.0.2', 'NORMAL,5'))).toHaveLength(0);
    const f = gossip(block('10.0.0.1', 'NORMAL,-1') + block('10.0.0.3', 'LEFT,-3,1700100000000') + block('10.0.0.4', 'LEAVING,9'));
    expect(f.map((x) => [x.node, x.severity]).sort()).toEqual([
      ['10.0.0.3', 'info'],
      ['10.0.0.4', 'warning'],
    ]);
    expect(f.find((x) => x.node === '10.0.0.3')!.title).toBe('10.0.0.3 has left the ring (LEFT in gossip)');
  });
});
