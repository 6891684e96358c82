import { describe, expect, it } from 'vitest';
import { cgroupDir, latteArgv, nodetoolArgvFor } from '../../mcp-server/src/lab/incidents/context.js';
import { detectHost, skipReason, type HostProbe } from '../../mcp-server/src/lab/incidents/host.js';
import { INCIDENTS, findIncident } from '../../mcp-server/src/lab/incidents/registry.js';
import { INCIDENT_KEYSPACE, type IncidentContext, type LatteRun } from '../../mcp-server/src/lab/incidents/types.js';
import { hasKnowledge } from '../../mcp-server/src/core/knowledge/index.js';
import type { LabNode, LabState } from '../../mcp-server/src/lab/types.js';

const node = (i: number): LabNode => ({
  index: i,
  host: `127.0.0.${i}`,
  cqlPort: 9042,
  jmxPort: 7099 + 100 * i,
  pid: 1000 + i,
  dir: `/lab/node${i}`,
  logFile: `/lab/node${i}/logs/system.log`,
  datacenter: 'datacenter1',
  rack: 'rack1',
});
const labState = (n: number): LabState => {
  const nodes = Array.from({ length: n }, (_, i) => node(i + 1));
  return { version: '4.1', fullVersion: '4.1.10', nodes, heap: '1G', datacenters: 1, startedAt: '2026-01-01T00:00:00Z', stateDir: '/lab' };
};

/** Records every call an incident makes, in order: the argv-level contract of inject and heal. */
function recorder(n: number) {
  const calls: string[] = [];
  const lattes: LatteRun[] = [];
  const ctx: IncidentContext = {
    state: labState(n),
    cql: async (q, p, o) => void calls.push(`cql${o?.node ? `@${o.node}` : ''}: ${q}${p?.length ? ` [${p.length} params]` : ''}`),
    cqlMany: async (q, rows) => void calls.push(`cqlMany x${rows.length}: ${q}`),
    nodetool: async (i, args) => (calls.push(`nodetool@${i}: ${args.join(' ')}`), ''),
    latte: async (r) => void (lattes.push(r), calls.push(`latte ${r.fn} ${r.seconds}s`)),
    startLoad: async (tag, r) => void (lattes.push(r), calls.push(`load start ${tag}: ${r.fn}`)),
    stopLoad: async (tag) => void calls.push(`load stop ${tag}`),
    labPid: async (i) => 1000 + i,
    signal: async (i, s) => void calls.push(`signal@${i}: ${s}`),
    cgroupWrite: async (c, g, f, v) => void calls.push(`cgroup ${c}/${g}/${f} = ${v}`),
    cgroupRemove: async (c, g) => void calls.push(`cgroup rm ${c}/${g}`),
    sleep: async (ms) => void calls.push(`sleep ${ms}`),
    progress: () => {},
    disk: {
      moveDataToLoop: async (i, name) => (
        calls.push(`disk move@${i}: ${name}`),
        { device: '/dev/loop9', majMin: '7:9', fsType: 'xfs', mount: `/lab/node${i}/data` }
      ),
      fill: async (i, name, pct) => (calls.push(`disk fill@${i}: ${name} ${pct}`), { usedPct: pct }),
      restoreData: async (i, name) => void calls.push(`disk restore@${i}: ${name}`),
    },
  };
  return { ctx, calls, lattes };
}

describe('incident registry', () => {
  it('names are unique CLI words; every incident says what diagnose should find and what it needs', () => {
    const names = INCIDENTS.map((i) => i.name);
    expect(new Set(names).size).toBe(names.length);
    for (const i of INCIDENTS) {
      expect(i.name).toMatch(/^[a-z][a-z0-9-]+$/);
      expect(i.expect.length, i.name).toBeGreaterThan(0);
      expect([1, 3]).toContain(i.nodes);
      expect(i.title.length).toBeGreaterThan(5);
    }
    expect(findIncident('tombstones')?.nodes).toBe(1);
    expect(findIncident('no-such')).toBeUndefined();
  });

  it('the finding ids expected are ones the rules can emit (knowledge ids or rule ids in core/rules)', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const dir = 'mcp-server/src/core/rules';
    const src = (await Promise.all((await readdir(dir)).map((f) => readFile(`${dir}/${f}`, 'utf8')))).join('\n');
    for (const i of INCIDENTS) for (const id of i.expect) expect(src.includes(`'${id}'`), `${i.name}: ${id}`).toBe(true);
    expect(hasKnowledge('table.sstable-count')).toBe(true);
  });

  it('every inject is undone by its heal: settings put back, freezes released, cgroups removed, tables dropped', async () => {
    for (const i of INCIDENTS) {
      const r = recorder(i.nodes);
      await i.inject(r.ctx);
      const injected = [...r.calls];
      r.calls.length = 0;
      await i.heal(r.ctx);
      const healed = r.calls;
      for (const c of injected.filter((x) => x.startsWith('load start '))) expect(healed, i.name).toContain(`load stop ${c.slice(11).split(':')[0]}`);
      if (injected.some((c) => c.includes('SIGSTOP')))
        expect(
          healed.some((c) => c.includes('SIGCONT')),
          i.name,
        ).toBe(true);
      if (injected.some((c) => c.startsWith('cgroup ') && !c.startsWith('cgroup rm')))
        expect(
          healed.some((c) => c.startsWith('cgroup rm')),
          i.name,
        ).toBe(true);
      if (injected.some((c) => c.includes('disableautocompaction'))) {
        expect(healed.some((c) => c.includes('enableautocompaction')) || healed.some((c) => /DROP TABLE/.test(c)), i.name).toBe(true);
      }
      if (injected.some((c) => c.includes('settimeout')))
        expect(
          healed.some((c) => /settimeout write 2000/.test(c)),
          i.name,
        ).toBe(true);
      if (injected.some((c) => c.includes('setcompactionthroughput'))) {
        expect(
          healed.some((c) => /setcompactionthroughput 64/.test(c)),
          i.name,
        ).toBe(true);
      }
      // Everything written lives in the incident keyspace: the user's own keyspaces are never touched.
      const dataStatements = [...injected, ...healed].filter((x) => /^cql/.test(x) && /INSERT|DELETE|DROP|CREATE TABLE|SELECT/.test(x));
      for (const c of dataStatements) expect(c, i.name).toMatch(new RegExp(`\\b${INCIDENT_KEYSPACE}(_[a-z0-9]+)?\\b`));
      if (injected.some((c) => c.startsWith('disk move')))
        expect(
          healed.some((c) => c.startsWith('disk restore')),
          i.name,
        ).toBe(true);
    }
  });

  it('sstable-pileup: autocompaction off, then 30 flushes of the same table, then reads', async () => {
    const r = recorder(1);
    await findIncident('sstable-pileup')!.inject(r.ctx);
    expect(r.calls.filter((c) => c === `nodetool@1: flush ${INCIDENT_KEYSPACE} piled`)).toHaveLength(30);
    expect(r.calls.indexOf(`nodetool@1: disableautocompaction ${INCIDENT_KEYSPACE} piled`)).toBeLessThan(r.calls.findIndex((c) => c.includes('flush')));
    expect(r.calls.filter((c) => c.startsWith('cql: SELECT'))).toHaveLength(50);
  });

  it('node-down freezes node 3 only, on a 3-node lab, and writes through node 1', async () => {
    const r = recorder(3);
    await findIncident('node-down')!.inject(r.ctx);
    expect(r.calls.filter((c) => c.startsWith('signal'))).toEqual(['signal@3: SIGSTOP']);
    expect(r.calls.some((c) => /replication_factor': 3/.test(c))).toBe(true);
  });

  it('slow-node puts node 3 into a 5 % CPU quota group and takes it out again', async () => {
    const r = recorder(3);
    await findIncident('slow-node')!.inject(r.ctx);
    expect(r.calls.filter((c) => c.startsWith('cgroup'))).toEqual([
      'cgroup cpu/cql-tuner-lab-node3/cpu.cfs_period_us = 100000',
      'cgroup cpu/cql-tuner-lab-node3/cpu.cfs_quota_us = 5000',
      'cgroup cpu/cql-tuner-lab-node3/cgroup.procs = 1003',
    ]);
  });
});

describe('argv and paths of what an incident runs', () => {
  it('latte run: workload, function, duration, rate, concurrency, parameters, then every lab node', () => {
    const run = { workload: '', fn: 'write', seconds: 30, rate: 500, concurrency: 64, params: { rows: 1000 } };
    expect(latteArgv('/bin/latte', '/tmp/w.rn', run, ['127.0.0.1', '127.0.0.2'])).toEqual([
      '/bin/latte',
      'run',
      '/tmp/w.rn',
      '-f',
      'write',
      '-d',
      '30s',
      '-w',
      '1',
      '-q',
      '-r',
      '500',
      '-p',
      '64',
      '-P',
      'rows=1000',
      '127.0.0.1',
      '127.0.0.2',
    ]);
  });

  it('nodetool goes to the node’s own JMX port on loopback', () => {
    const argv = nodetoolArgvFor(['java', '-cp', 'x', 'NodeTool'], node(2), ['flush', 'ks', 't']);
    expect(argv).toEqual(['java', '-cp', 'x', 'NodeTool', '-h', '127.0.0.1', '-p', '7299', 'flush', 'ks', 't']);
  });

  it('cgroup paths are only the lab’s own groups', () => {
    expect(cgroupDir('cpu', 'cql-tuner-lab-node3')).toBe('/sys/fs/cgroup/cpu/cql-tuner-lab-node3');
    expect(() => cgroupDir('cpu', '../../etc')).toThrow(/not one of the lab's/);
    expect(() => cgroupDir('blkio', 'system.slice')).toThrow(/not one of the lab's/);
  });
});

describe('host capabilities', () => {
  const probe = (o: Partial<{ uid: number; writable: string[]; dirs: string[]; path: string[]; latte: boolean }>): HostProbe => ({
    uid: () => o.uid ?? 1000,
    writable: async (p) => (o.writable ?? []).includes(p),
    isDir: async (p) => (o.dirs ?? []).includes(p),
    onPath: async (n) => (o.path ?? []).includes(n),
    latte: async () => o.latte ?? false,
  });

  it('a root host with cgroup v1 cpu and blkio, loop devices and mkfs.xfs offers everything', async () => {
    const caps = await detectHost(
      probe({
        uid: 0,
        dirs: ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/blkio'],
        writable: [
          '/sys/fs/cgroup/cpu',
          '/sys/fs/cgroup/cpu/cpu.cfs_quota_us',
          '/sys/fs/cgroup/blkio',
          '/sys/fs/cgroup/blkio/blkio.throttle.read_bps_device',
          '/dev/loop-control',
        ],
        path: ['losetup', 'mkfs.xfs'],
        latte: true,
      }),
    );
    expect(caps).toEqual({ root: true, 'cgroup-v1-cpu': true, 'cgroup-v1-blkio': true, 'loop-devices': true, 'mkfs-xfs': true, latte: true });
    expect(skipReason(findIncident('slow-node')!, caps)).toBeNull();
  });

  it('a non-root cgroup v2 host without latte: the slow node is skipped with every reason, tombstones still run', async () => {
    const caps = await detectHost(probe({ uid: 1000, dirs: [], path: ['losetup'] }));
    expect(caps.root).toBe(false);
    expect(caps['cgroup-v1-cpu']).toBe(false);
    expect(caps['loop-devices']).toBe(false);
    const why = skipReason(findIncident('slow-node')!, caps);
    expect(why).toMatch(/needs root/);
    expect(why).toMatch(/cgroup v1 cpu/);
    expect(why).toMatch(/latte/);
    expect(skipReason(findIncident('tombstones')!, caps)).toBeNull();
  });

  it('a cgroup v1 cpu hierarchy that is mounted but read-only does not count', async () => {
    const caps = await detectHost(probe({ uid: 0, dirs: ['/sys/fs/cgroup/cpu'], writable: [] }));
    expect(caps['cgroup-v1-cpu']).toBe(false);
  });
});
