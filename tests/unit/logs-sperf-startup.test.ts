/**
 * Startup facts read from real DSE 6.7.7 logs (datastax-labs/sperf testdata, see tests/fixtures/sperf/SOURCES.tsv).
 * sperf's tests/parser/test_outputlog.py:134-138 asserts, for the same output.log: 8 CPU cores, 1 thread per core,
 * 15038 MB of RAM, G1GC and heap 3759M. The JVM arguments are printed as a Java list ("[-Xms3759M, -Xmx3759M, …]"),
 * so every value but the last is followed by a comma that is not part of it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLogFile } from '../../mcp-server/src/collect/log-reader.js';
import { readNodeLogs } from '../../mcp-server/src/ops/node-logs.js';
import { jvmArgumentList } from '../../mcp-server/src/core/parse/logs/startup.js';
import { parseJvmOptions } from '../../mcp-server/src/core/parse/config/index.js';
import { jvmRules } from '../../mcp-server/src/core/rules/config.js';
import { readFileSync } from 'node:fs';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const SPERF = join(import.meta.dirname, '..', 'fixtures', 'sperf');

describe('startup facts from real DSE logs (sperf testdata)', () => {
  it('output.log: heap, collector, cores and memory as sperf asserts', async () => {
    const r = await readLogFile(join(SPERF, 'dse677-output.log'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = r.value.startup;
    expect(s.heapMaxBytes).toBe(3759 * 1024 ** 2); // sperf: heap_size "3759M"
    expect(s.heapFrom).toBe('jvm-arguments');
    expect(s.heapMinBytes).toBe(3759 * 1024 ** 2);
    expect(s.gc).toBe('G1'); // sperf: gc_type "G1GC"
    expect(s.maxGcPauseMillis).toBe(500);
    expect(s.cpuThreads).toBe(8); // sperf: cpu_cores 8
    expect(s.threadsPerCore).toBe(1); // sperf: threads_per_core 1
    expect(s.memoryMb).toBe(15038); // sperf: ram_in_mb "15038"
    expect(s.dseVersion).toBe('6.7.7');
    expect(s.jvm).toBe('OpenJDK 64-Bit Server VM/1.8.0_232');
    expect(r.value.source.product).toBe('dse');
  });

  it('system.log and debug.log of one node: one start, same figures', async () => {
    const node = '10.101.35.102';
    const r = await readNodeLogs(node, [join(SPERF, `dse677-${node}-system.log.gz`), join(SPERF, `dse677-${node}-debug.log.gz`)]);
    const s = r.logs!.startup;
    expect(s.starts).toBe(1);
    expect(s.heapMaxBytes).toBe(3759 * 1024 ** 2);
    expect(s.gc).toBe('G1');
    expect(s.dseVersion).toBe('6.7.7');
  });

  it('the JDK 8 gc.log header names the JVM, the heap, the collector and the memory (dse 6.8.1 gc.log)', async () => {
    const r = await readLogFile(join(SPERF, 'dse681-gc.log.0.current.gz'));
    if (!r.ok) throw new Error(r.reason);
    const s = r.value.startup;
    expect(s.jvm).toBe('OpenJDK 64-Bit Server VM/1.8.0_252-b09');
    expect(s.heapMaxBytes).toBe(1958739968); // -XX:MaxHeapSize=1958739968
    expect(s.heapFrom).toBe('gc-log-flags');
    expect(s.gc).toBe('G1');
    expect(s.memoryMb).toBe(Math.floor(7651440 / 1024)); // "physical 7651440k"
  });

  it('the JVM Arguments line given as JVM options (audit-config, interpret): -Xmx3759M, is 3759M, not "heap not set"', () => {
    const line = readFileSync(join(SPERF, 'dse677-output.log'), 'utf8')
      .split('\n')
      .find((l) => l.includes('JVM Arguments: ['))!;
    const r = parseJvmOptions(line);
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.heap.xmxBytes).toBe(3759 * 1024 ** 2);
    expect(r.value.heap.xmsBytes).toBe(3759 * 1024 ** 2);
    expect(r.value.flags.find((f) => f.name === 'UseG1GC')?.enabled).toBe(true);
    const titles = jvmRules(r.value).flatMap((o) => o.findings.map((f) => f.title));
    expect(titles.join('\n')).not.toMatch(/Heap size not set/);
  });

  it('splits a Java list, the last element included', () => {
    expect(jvmArgumentList('JVM Arguments: [-Xms3759M, -Xmx3759M, -XX:+UseG1GC]', 0)).toEqual(['-Xms3759M', '-Xmx3759M', '-XX:+UseG1GC']);
  });
});

describe('disk access mode from the start-up line (real logs)', () => {
  it('Cassandra 0.6 "Auto DiskAccessMode determined to be mmap" (a paste with a shell prompt before it): mmap, no index mode', () => {
    const r = parseLogs(readFileSync(join(FIXTURES_DIR, 'real-world', 'log_c06-startup-then-oom_twissandra3.txt'), 'utf8'));
    if (!r.ok) throw new Error(r.reason);
    expect([r.value.startup.diskAccessMode, r.value.startup.indexAccessMode]).toEqual(['mmap', null]);
  });

  it('a line that only mentions the words is not the start-up line', () => {
    const r = parseLogs('INFO  [main] 2024-01-01 00:00:00,000 Foo.java:1 - DiskAccessMode is what this cluster tuned last year\n');
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.startup.diskAccessMode).toBeNull();
  });
});
