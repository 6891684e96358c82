import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labNodetoolArgv } from '../../mcp-server/src/lab/index.js';
import { takeSnapshot } from '../../mcp-server/src/ops/snapshot.js';
import { findSshd, SSHD_MISSING_MESSAGE, startSshd, type TestSshd } from '../helpers/sshd.js';
import { tempLabHome } from '../helpers/lab-home.js';

// A cluster whose JMX only listens locally is read by running nodetool on each node over ssh: here the
// "node" is the 1-node lab, reached through a real sshd on a loopback port, with a nodetool on the far side.
const sshdPath = findSshd();
const skip = process.env.CQL_TUNER_SKIP_LAB === '1' || !sshdPath;
if (!sshdPath) process.stderr.write(`${SSHD_MISSING_MESSAGE}\n`);

const lab = tempLabHome('cql-tuner-via-');
const { home } = lab;
let sshd: TestSshd | undefined;
let remoteNodetool = '';

beforeAll(async () => {
  if (skip) return;
  await lab.start({ nodes: 1, version: '5.0' });
  sshd = await startSshd(sshdPath);
  // The remote side's nodetool: a script that runs Cassandra's NodeTool from the lab jars.
  const argv = (await labNodetoolArgv())!;
  const binDir = join(home, 'remote-bin');
  remoteNodetool = join(binDir, 'nodetool');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(binDir, { recursive: true });
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  writeFileSync(remoteNodetool, `#!/bin/sh\nexec ${argv.map(q).join(' ')} "$@"\n`);
  chmodSync(remoteNodetool, 0o755);
}, 300_000);

afterAll(async () => {
  if (skip) return;
  await sshd?.stop();
  await lab.stop();
}, 120_000);

describe.skipIf(skip)('sweep with nodetool over ssh', () => {
  it('collects heap, GC and dropped messages through ssh with JMX on the node’s 127.0.0.1', async () => {
    const via = `ssh://${sshd!.user}@{host}:${sshd!.port}?identity=${sshd!.clientKey}&knownHosts=${sshd!.knownHosts}`;
    // The user's own --nodetool-via (trusted) may name the key and known_hosts file.
    const s = await takeSnapshot({ hosts: ['127.0.0.1'], nodetoolVia: via, nodetoolPath: remoteNodetool, targetOrigin: 'trusted' });
    const n = s.nodes[0]!;
    const nodetool = n.sources.filter((x) => x.via === 'nodetool');
    expect(nodetool.map((x) => [x.name, x.ok, x.error?.message ?? ''])).toEqual([
      ['nodetool:info', true, ''],
      ['nodetool:gcstats', true, ''],
      ['nodetool:tpstats', true, ''],
    ]);
    expect(n.facts.heap?.maxMb).toBeGreaterThan(400);
    expect(n.facts.droppedMessages).toBeDefined();
  }, 120_000);

  it('a template without {host} is refused before anything connects', async () => {
    await expect(takeSnapshot({ hosts: ['127.0.0.1'], nodetoolVia: 'ssh://ops@db1' })).rejects.toMatchObject({ code: 'BAD_TARGET' });
  });
});
