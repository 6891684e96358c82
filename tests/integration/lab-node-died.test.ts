import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LabError } from '../../mcp-server/src/lab/errors.js';
import { labStatus, startLab } from '../../mcp-server/src/lab/index.js';
import { resolveCassandraJars } from '../../mcp-server/src/lab/resolve.js';
import { liveMatching } from '../faults/procs.js';

// A node that dies during start-up, for real: the lab runs its usual argv, but JAVA_HOME points at a `java`
// that answers -version like JDK 17 and, started as the daemon, prints what a failing Cassandra prints and
// exits 3. The jars come from the user's cache (the lab needs them resolved once, as any start does).
const root = mkdtempSync(join(tmpdir(), 'cql-tuner-died-'));
const jdk = join(root, 'jdk');
mkdirSync(join(jdk, 'bin'), { recursive: true });
writeFileSync(
  join(jdk, 'bin', 'java'),
  [
    '#!/bin/sh',
    'for a in "$@"; do [ "$a" = "-version" ] && { echo \'openjdk version "17.0.15" 2025-04-15\' >&2; exit 0; }; done',
    'echo "INFO  [main] 2026-11-22 03:00:00,000 CassandraDaemon.java:600 - JVM vendor/version: fake/17"',
    'echo "ERROR [main] 2026-11-22 03:00:01,000 CassandraDaemon.java:911 - Exception encountered during startup: Invalid yaml (sentinel-line-7f3a)"',
    'exit 3',
    '',
  ].join('\n'),
);
chmodSync(join(jdk, 'bin', 'java'), 0o755);
const saved = { JAVA_HOME: process.env.JAVA_HOME, CQL_TUNER_HOME: process.env.CQL_TUNER_HOME };
const skip = process.env.CQL_TUNER_SKIP_LAB === '1';

beforeAll(async () => {
  // On a fresh machine this file may run first: resolve the jars with the real Java and Maven beforehand.
  if (!skip) await resolveCassandraJars('5.0');
}, 1_200_000);

afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skip)('a lab node that dies during start-up', () => {
  it('fails with NODE_DIED quoting the node’s last output lines and a fix, and leaves no process or running lab', async () => {
    process.env.JAVA_HOME = jdk;
    process.env.CQL_TUNER_HOME = join(root, 'home');
    const t0 = Date.now();
    const e = await startLab({ nodes: 1, version: '5.0' }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LabError);
    const err = e as LabError;
    expect(err.code).toBe('NODE_DIED');
    expect(err.message).toMatch(/Cassandra node 1 \(127\.0\.0\.1\) exited with code 3 during startup/);
    expect(err.message).toContain('Exception encountered during startup: Invalid yaml (sentinel-line-7f3a)');
    expect(err.message).toMatch(/Last lines of .*console\.log/);
    expect(err.fix).toMatch(/Read the log lines above/);
    // Noticed at once, not after the start timeout.
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(liveMatching(root)).toEqual([]);
    expect((await labStatus()).running).toBe(false);
  }, 120_000);
});
