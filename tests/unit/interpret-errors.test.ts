import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const lab = (rel: string) => readFileSync(join(FIXTURES_DIR, 'lab', rel), 'utf8');

describe('pasted nodetool failures are explained, not "not recognised"', () => {
  it('4.1 idle-node proxyhistograms → info trap with its knowledge id', () => {
    const r = interpretText(lab('cassandra-4.1-1node/node1/nodetool-proxyhistograms-before-reads.txt'));
    expect(r).toMatchObject({ ok: true, kind: 'nodetool.error' });
    expect(r.findings).toEqual([
      expect.objectContaining({ id: 'trap.nodetool.proxyhistograms-idle-node', severity: 'info', knowledgeIds: ['trap.nodetool.proxyhistograms-idle-node'] }),
    ]);
    expect(r.summary).not.toMatch(/the node:0/);
  });

  it('4.1+/5.0 getstreamthroughput without -d → info trap', () => {
    const r = interpretText(lab('cassandra-5.0-1node/node1/nodetool-getstreamthroughput.txt'));
    expect(r.findings[0]).toMatchObject({ id: 'trap.nodetool.getstreamthroughput-d-flag', severity: 'info' });
  });

  it('5.0 "Server is not initialized yet" → the node is still starting', () => {
    const r = interpretText(lab('cassandra-5.0-1node/node1/nodetool-proxyhistograms-while-starting.txt'));
    expect(r.findings[0]).toMatchObject({ id: 'trap.nodetool.server-not-initialized', severity: 'info' });
    expect(r.summary).toMatch(/still starting/);
  });

  it('a refused JMX connection is a warning with the fix', () => {
    const r = interpretText("nodetool: Failed to connect to '10.0.0.9:7199' - ConnectException: 'Connection refused (Connection refused)'.\n");
    expect(r.findings[0]).toMatchObject({ id: 'nodetool.error.jmx-unreachable', severity: 'warning' });
    expect(r.findings[0]!.recommendation).toMatch(/JMX/);
  });

  it('jstat that cannot read the JVM (a real JDK 17 capture; Cassandra runs with -XX:+PerfDisableSharedMem) → info trap, no sample', () => {
    const r = interpretText(readFileSync(join(FIXTURES_DIR, 'tool-errors', 'jstat-perf-shared-mem-disabled-jdk17.txt'), 'utf8'));
    expect(r).toMatchObject({ ok: true, kind: 'jvm.jstat', summary: 'jstat could not read JVM 3547: no sample was taken' });
    expect(r.findings).toEqual([
      expect.objectContaining({
        id: 'trap.jstat.perf-shared-mem-disabled',
        severity: 'info',
        evidence: ['MonitorException: 3547 not found'],
        knowledgeIds: ['trap.jstat.perf-shared-mem-disabled'],
      }),
    ]);
    expect(r.findings[0]!.recommendation).toMatch(/PerfDisableSharedMem.*nodetool gcstats.*jcmd <pid> GC\.heap_info/s);
    // JDK 8 prints the message alone: taken when the paste names jstat, not from any text ending in "not found"
    expect(interpretText('$ jstat -gc 4242 1000\n4242 not found\n').findings[0]).toMatchObject({ id: 'trap.jstat.perf-shared-mem-disabled' });
    expect(interpretText('4242 not found\n').ok).toBe(false);
  });

  it('ordinary prose mentioning an error stays unrecognised', () => {
    expect(interpretText('the error was in my coffee').ok).toBe(false);
  });
});
