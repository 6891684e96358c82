import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { liveMatching } from '../faults/procs.js';
import { BUNDLE } from '../helpers/mcp-client.js';

// README's main job, exactly as written there: `node mcp-server/dist/cql-tuner.js demo`, against a real lab it
// starts itself in a throwaway data home (the jar cache is the user's, as on any machine that ran it once).
const home = mkdtempSync(join(tmpdir(), 'cql-tuner-demo-'));
const skip = process.env.CQL_TUNER_SKIP_LAB === '1';

afterAll(() => {
  for (const { pid } of liveMatching(home)) process.kill(pid, 'SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe.skipIf(skip)('the README demo', () => {
  it('starts a real node, reads it with nodetool version/status/info, diagnoses it, stops it, and leaves nothing running', async () => {
    const r = await execa(process.execPath, [BUNDLE, 'demo'], { env: { ...process.env, CQL_TUNER_HOME: home }, reject: false, timeout: 400_000 });
    expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
    // Progress on stderr, results on stdout.
    expect(r.stderr).toMatch(/^… Starting node 1\/1 on 127\.0\.0\.1 \(Cassandra 5\.0\.\d+/m);
    expect(r.stdout).toMatch(/^nodetool version @ 127\.0\.0\.1:7199 .*\nRelease 5\.0\.\d+ \(cassandra\)/m);
    expect(r.stdout).toMatch(/^nodetool status @ .*\n1 node\(s\) in 1 DC\(s\): 1 UN/m);
    expect(r.stdout).toMatch(/^nodetool info @ .*\nHost ID [0-9a-f-]{36} · DC datacenter1/m);
    expect(r.stdout).toMatch(/^Gossip up · native transport up/m);
    expect(r.stdout).toMatch(/^Diagnosis of local lab: 1 node\(s\) \[127\.0\.0\.1\], version\(s\) 5\.0\.\d+/m);
    expect(r.stdout).toMatch(/^Checked:/m);
    expect(r.stdout).toMatch(/Lab stopped/);
    expect(liveMatching(home)).toEqual([]);
  }, 420_000);
});
