import { describe, expect, it } from 'vitest';
import { parseStatus } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { renderStatus } from '../../mcp-server/src/render/nodetool.js';
import { fixture } from '../helpers/corpus.js';

// `nodetool -pp` (print port, 4.0+) prints `address:storage_port`; the address is still an address.
describe('nodetool -pp status', () => {
  const text = fixture('nodetool-edge/status-pp-storage-ports.txt');

  it('splits the storage port off the address: no address problem, both nodes kept', () => {
    const r = parseStatus(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.nodes.map((n) => [n.address, n.storagePort, n.addressProblem, n.ownsPercent])).toEqual([
      ['127.0.0.1', 7000, undefined, 48.8],
      ['127.0.0.1', 8000, undefined, 51.2],
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('interpret raises no address warning; the status table shows host:port', async () => {
    const r = interpretText(text);
    expect(r.kind).toBe('nodetool.status');
    expect(r.warnings.join('\n')).not.toMatch(/address/);
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const p = parseStatus(text);
    expect(p.ok && renderStatus(p.value)).toMatch(/\| 127\.0\.0\.1:8000 \|/);
  });

  it('a bare IPv6 address keeps its colons; an out-of-range port stays part of the address', () => {
    const row = (addr: string) =>
      `--  Address  Load  Tokens  Owns (effective)  Host ID  Rack\nUN  ${addr}  1 KiB  16  100.0%  9147128a-dd9e-4909-966d-f849e6ce2206  rack1\n`;
    const v6 = parseStatus(row('::1'));
    const v6port = parseStatus(row('[::1]:7000'));
    const bad = parseStatus(row('10.0.0.1:99999'));
    expect(v6.ok && v6.value.nodes[0]).toMatchObject({ address: '::1' });
    expect(v6.ok && v6.value.nodes[0]!.storagePort).toBeUndefined();
    expect(v6port.ok && v6port.value.nodes[0]).toMatchObject({ address: '::1', storagePort: 7000 });
    expect(bad.ok && bad.value.nodes[0]!.addressProblem).toMatch(/not an IP address/);
  });
});
