import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderCassandraYaml, renderRackDcProperties } from '../../mcp-server/src/lab/config-files.js';
import { LabError } from '../../mcp-server/src/lab/errors.js';
import { RACKDC_PROPERTY, serverJvmFlags, type ServerJvmParams } from '../../mcp-server/src/lab/jvm-flags.js';
import { startLab } from '../../mcp-server/src/lab/lab.js';
import { nodeFiles } from '../../mcp-server/src/lab/paths.js';
import { checkTopology, nodePlacement } from '../../mcp-server/src/lab/topology.js';
import { labRows, renderLabStatus, type LabStatusView } from '../../mcp-server/src/render/lab.js';

describe('lab topology', () => {
  it('one DC: every node in datacenter1/rack1; two DCs: nodes 1–2 in datacenter1, node 3 in datacenter2', () => {
    expect([1, 2, 3].map((i) => nodePlacement(i, 1))).toEqual([
      { datacenter: 'datacenter1', rack: 'rack1' },
      { datacenter: 'datacenter1', rack: 'rack1' },
      { datacenter: 'datacenter1', rack: 'rack1' },
    ]);
    expect([1, 2, 3].map((i) => nodePlacement(i, 2).datacenter)).toEqual(['datacenter1', 'datacenter1', 'datacenter2']);
    expect(nodePlacement(3, 2).rack).toBe('rack1');
  });

  it('two DCs need three nodes: a usage error (BAD_* code, exit 2 on the CLI) that names the command to run', () => {
    expect(checkTopology(3, 2)).toBe(2);
    expect(checkTopology(1, 1)).toBe(1);
    let err: unknown;
    try {
      checkTopology(1, 2);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LabError);
    expect((err as LabError).code).toBe('BAD_TOPOLOGY');
    expect((err as LabError).message).toMatch(/needs 3 nodes.*1 node\(s\)/);
    expect((err as LabError).fix).toContain('lab start --nodes 3 --dcs 2');
    expect(() => checkTopology(3, 3)).toThrow(/1 or 2 datacenters/);
  });

  it('startLab refuses 2 DCs with 1 node before touching anything (no lock, no Java, no ports)', async () => {
    await expect(startLab({ nodes: 1, datacenters: 2, version: '5.0' })).rejects.toMatchObject({ code: 'BAD_TOPOLOGY' });
  });
});

describe('2-DC node files', () => {
  const one = renderCassandraYaml({ version: '5.0', host: '127.0.0.3', nodeDir: '/lab/node3' });
  const two = renderCassandraYaml({ version: '5.0', host: '127.0.0.3', nodeDir: '/lab/node3', snitch: 'GossipingPropertyFileSnitch' });

  it('a 1-DC cassandra.yaml is the SimpleSnitch one, and the 2-DC one differs from it only in endpoint_snitch', () => {
    expect(one).toBe(renderCassandraYaml({ version: '5.0', host: '127.0.0.3', nodeDir: '/lab/node3', snitch: 'SimpleSnitch' }));
    expect((parse(one) as Record<string, unknown>).endpoint_snitch).toBe('SimpleSnitch');
    expect((parse(two) as Record<string, unknown>).endpoint_snitch).toBe('GossipingPropertyFileSnitch');
    const a = one.split('\n');
    const b = two.split('\n');
    expect(b.length).toBe(a.length);
    expect(a.filter((l, i) => l !== b[i])).toEqual(['endpoint_snitch: SimpleSnitch']);
  });

  it('cassandra-rackdc.properties holds the node’s dc and rack, and sits next to cassandra.yaml', () => {
    const text = renderRackDcProperties(nodePlacement(3, 2));
    const props = Object.fromEntries(
      text
        .split('\n')
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => l.split('=') as [string, string]),
    );
    expect(props).toEqual({ dc: 'datacenter2', rack: 'rack1' });
    const f = nodeFiles('/lab', 3);
    expect(f.rackDc).toBe('/lab/node3/conf/cassandra-rackdc.properties');
    expect(f.rackDc.replace(/[^/]+$/, '')).toBe(f.yaml.replace(/[^/]+$/, ''));
  });

  const base: ServerJvmParams = {
    version: '5.0',
    heap: '512M',
    nodeDir: '/lab/node3',
    logDir: '/lab/node3/logs',
    configUrl: 'file:///lab/node3/conf/cassandra.yaml',
    logbackPath: '/lab/node3/conf/logback.xml',
    jmxPort: 7399,
    index: 3,
    jammJar: null,
  };

  it('points the daemon at its own rackdc file with -Dcassandra-rackdc.properties=<file URL>, only in a 2-DC lab', () => {
    expect(RACKDC_PROPERTY).toBe('cassandra-rackdc.properties');
    const url = 'file:///lab/node3/conf/cassandra-rackdc.properties';
    const flags = serverJvmFlags({ ...base, rackDcUrl: url });
    expect(flags).toContain(`-Dcassandra-rackdc.properties=${url}`);
    const plain = serverJvmFlags(base);
    expect(plain.some((f) => f.includes('rackdc'))).toBe(false);
    // Everything else is the same command line.
    expect(flags.filter((f) => !f.includes('rackdc'))).toEqual(plain);
  });
});

describe('lab status rendering', () => {
  const node = (index: number, datacenter: string) => ({
    index,
    host: `127.0.0.${index}`,
    cqlPort: 9042,
    jmxPort: 7099 + 100 * index,
    pid: 100 + index,
    alive: true,
    cqlUp: true,
    logFile: `/lab/node${index}/logs/system.log`,
    datacenter,
    rack: 'rack1',
  });

  it('shows each node’s DC and rack, and says when the lab spans 2 datacenters', () => {
    const view: LabStatusView = {
      running: true,
      version: '5.0.9',
      datacenters: 2,
      nodes: [node(1, 'datacenter1'), node(2, 'datacenter1'), node(3, 'datacenter2')],
    };
    expect(labRows(view)[2]).toEqual(['node3', '127.0.0.3', 'datacenter2', 'rack1', 9042, 7399, 103, 'up']);
    const text = renderLabStatus(view);
    expect(text).toMatch(/^Lab: Cassandra 5\.0\.9, 3 node\(s\) in 2 datacenters, 3 answering CQL/);
    expect(text).toMatch(/\| DC \|/);
    const single = renderLabStatus({ running: true, version: '5.0.9', datacenters: 1, nodes: [node(1, 'datacenter1')] });
    expect(single).toMatch(/^Lab: Cassandra 5\.0\.9, 1 node\(s\), 1 answering CQL/);
  });
});
