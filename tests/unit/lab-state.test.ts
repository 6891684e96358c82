import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tailLines } from '../../mcp-server/src/lab/fs-util.js';
import { cachedJars } from '../../mcp-server/src/lab/resolve.js';
import { readLabState, removeLabState, writeLabState } from '../../mcp-server/src/lab/state.js';
import type { LabState } from '../../mcp-server/src/lab/types.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lab-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const state = (stateDir: string): LabState => ({
  version: '5.0',
  fullVersion: '5.0.9',
  heap: '512M',
  datacenters: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  stateDir,
  nodes: [
    {
      index: 1,
      host: '127.0.0.1',
      cqlPort: 9042,
      jmxPort: 7199,
      pid: 1234,
      dir: `${stateDir}/node1`,
      logFile: `${stateDir}/node1/logs/system.log`,
      datacenter: 'datacenter1',
      rack: 'rack1',
    },
  ],
});

describe('lab.json', () => {
  it('round-trips and leaves no temp files behind', async () => {
    await writeLabState(state(dir));
    expect(await readLabState(dir)).toEqual(state(dir));
    expect(await readdir(dir)).toEqual(['lab.json']);
    await removeLabState(dir);
    expect(await readLabState(dir)).toBeNull();
  });

  it('treats corrupt or foreign files as no lab', async () => {
    await writeFile(join(dir, 'lab.json'), '{"version":"5.0", "nodes": [');
    expect(await readLabState(dir)).toBeNull();
    await writeFile(join(dir, 'lab.json'), JSON.stringify({ ...state(dir), version: '3.0' }));
    expect(await readLabState(dir)).toBeNull();
    await writeFile(join(dir, 'lab.json'), JSON.stringify({ ...state(dir), nodes: [{ index: 1, pid: 'x' }] }));
    expect(await readLabState(dir)).toBeNull();
  });

  it('keeps each node’s datacenter, and reads a lab.json from before 2-DC labs as single-DC', async () => {
    const twoDc: LabState = { ...state(dir), datacenters: 2, nodes: [{ ...state(dir).nodes[0]!, index: 3, host: '127.0.0.3', datacenter: 'datacenter2' }] };
    await writeLabState(twoDc);
    expect(await readLabState(dir)).toEqual(twoDc);
    const { datacenters: _d, ...legacy } = state(dir);
    const legacyNodes = legacy.nodes.map(({ datacenter: _dc, rack: _r, ...n }) => n);
    await writeFile(join(dir, 'lab.json'), JSON.stringify({ ...legacy, nodes: legacyNodes }));
    expect(await readLabState(dir)).toEqual(state(dir));
    await writeFile(join(dir, 'lab.json'), JSON.stringify({ ...state(dir), datacenters: 3 }));
    expect(await readLabState(dir)).toBeNull();
  });

  it('reports where it was found as stateDir', async () => {
    await writeFile(join(dir, 'lab.json'), JSON.stringify(state('/moved/elsewhere')));
    expect((await readLabState(dir))?.stateDir).toBe(dir);
  });
});

describe('jar cache', () => {
  it('only counts a lib dir that holds cassandra-all', async () => {
    const lib = join(dir, 'cassandra', '5.0.9', 'lib');
    await mkdir(lib, { recursive: true });
    await writeFile(join(lib, 'zstd-jni-1.5.5.jar'), '');
    expect(await cachedJars('5.0', dir)).toBeNull();
    await writeFile(join(lib, 'cassandra-all-5.0.9.jar'), '');
    await writeFile(join(lib, 'agrona-1.17.1.jar'), '');
    await writeFile(join(lib, 'README.txt'), '');
    const r = await cachedJars('5.0', dir);
    expect(r?.fullVersion).toBe('5.0.9');
    expect(r?.classpath).toEqual([join(lib, 'cassandra-all-5.0.9.jar'), join(lib, 'agrona-1.17.1.jar'), join(lib, 'zstd-jni-1.5.5.jar')]);
    expect(await cachedJars('4.1', dir)).toBeNull();
  });
});

describe('tailLines', () => {
  it('returns the last lines, or [] for a missing file', async () => {
    const f = join(dir, 'x.log');
    await writeFile(f, Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    expect(await tailLines(f, 3)).toEqual(['line 48', 'line 49', 'line 50']);
    expect(await tailLines(join(dir, 'nope.log'), 3)).toEqual([]);
  });
});
