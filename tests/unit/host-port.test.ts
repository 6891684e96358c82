import { describe, expect, it } from 'vitest';
import { splitHostPort } from '../../mcp-server/src/core/host-port.js';

describe('splitHostPort (status -pp rows, describecluster endpoints)', () => {
  it("splits IPv4 and bracketed IPv6 with a port, with or without Java's leading slash", () => {
    expect(splitHostPort('10.0.0.1:7000')).toEqual({ host: '10.0.0.1', port: 7000 });
    expect(splitHostPort('/10.0.0.1:7000')).toEqual({ host: '10.0.0.1', port: 7000 });
    expect(splitHostPort('[::1]:7000')).toEqual({ host: '::1', port: 7000 });
    expect(splitHostPort('/10.0.0.1')).toEqual({ host: '10.0.0.1' });
  });

  it('keeps anything else whole: a bare IPv6 address, a masked address, an out-of-range port', () => {
    expect(splitHostPort('fe80::1')).toEqual({ host: 'fe80::1' });
    expect(splitHostPort('10.x.x.x:7000')).toEqual({ host: '10.x.x.x:7000' });
    expect(splitHostPort('10.0.0.1:70000')).toEqual({ host: '10.0.0.1:70000' });
    expect(splitHostPort('node-1')).toEqual({ host: 'node-1' });
  });
});
