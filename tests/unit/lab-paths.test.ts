import { describe, expect, it } from 'vitest';
import { labPaths, nodeAddress, nodeFiles } from '../../mcp-server/src/lab/paths.js';

describe('lab paths', () => {
  it('defaults under the home directory', () => {
    expect(labPaths({}, '/home/u')).toEqual({
      stateDir: '/home/u/.local/share/cql-tuner/lab',
      cacheDir: '/home/u/.cache/cql-tuner',
    });
  });

  it('follows XDG dirs', () => {
    expect(labPaths({ XDG_DATA_HOME: '/x/data', XDG_CACHE_HOME: '/x/cache' }, '/home/u')).toEqual({
      stateDir: '/x/data/cql-tuner/lab',
      cacheDir: '/x/cache/cql-tuner',
    });
  });

  it('lets CQL_TUNER_HOME / CQL_TUNER_CACHE win', () => {
    expect(labPaths({ CQL_TUNER_HOME: '/t/home', CQL_TUNER_CACHE: '/t/cache', XDG_DATA_HOME: '/x', XDG_CACHE_HOME: '/y' }, '/h')).toEqual({
      stateDir: '/t/home/lab',
      cacheDir: '/t/cache',
    });
  });

  it('ignores empty variables', () => {
    expect(labPaths({ CQL_TUNER_HOME: '', XDG_CACHE_HOME: ' ' }, '/h').stateDir).toBe('/h/.local/share/cql-tuner/lab');
  });

  it('reads the environment at call time', () => {
    const old = process.env.CQL_TUNER_HOME;
    process.env.CQL_TUNER_HOME = '/late/bound';
    try {
      expect(labPaths().stateDir).toBe('/late/bound/lab');
    } finally {
      if (old === undefined) delete process.env.CQL_TUNER_HOME;
      else process.env.CQL_TUNER_HOME = old;
    }
  });

  it('lays out nodes on 127.0.0.N with JMX 7199/7299/7399', () => {
    expect([1, 2, 3].map(nodeAddress)).toEqual([
      { host: '127.0.0.1', jmxPort: 7199 },
      { host: '127.0.0.2', jmxPort: 7299 },
      { host: '127.0.0.3', jmxPort: 7399 },
    ]);
    const f = nodeFiles('/s', 2);
    expect(f.yaml).toBe('/s/node2/conf/cassandra.yaml');
    expect(f.systemLog).toBe('/s/node2/logs/system.log');
  });
});
