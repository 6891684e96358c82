/**
 * The log reader's fast lane (plain logback lines counted in place, LogAccumulator.plainLine) must give exactly the
 * facts the full reader gives: every log this project holds — real logs from sperf's test data, the real-world corpus,
 * the shared corpus, the lab's captures — and lines built to sit on each edge of the lane, read both ways in chunks
 * of several sizes (so lines and the lane's decisions straddle chunk ends), must compare equal.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LogAccumulator } from '../../mcp-server/src/core/parse/logs/index.js';
import { corpusFiles, CORPUS_DIR, FIXTURES_DIR } from '../helpers/corpus.js';

function read(text: string, fastLane: boolean, chunk: number): string {
  const acc = new LogAccumulator({ source: 'x', sources: 1, fastLane });
  for (let i = 0; i < text.length; i += chunk) acc.push(text.slice(i, i + chunk));
  return JSON.stringify(acc.end());
}

function same(text: string, label: string): void {
  for (const chunk of [1 << 20, 4096, 777]) expect(read(text, true, chunk), `${label}, chunks of ${chunk}`).toBe(read(text, false, chunk));
}

/** Every file under dir (recursive) whose name says it is a log. */
function logFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/(^log_|\.log(\.\d+)?(\.current)?(\.gz)?$|log\.txt$|^systemlog|^statuslogger)/.test(e.name) && statSync(p).size < 64 << 20) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

const text = (p: string) => (p.endsWith('.gz') ? gunzipSync(readFileSync(p)) : readFileSync(p)).toString('utf8');

const c = (level: string, thread: string, date: string, file: string, msg: string) => `${level.padEnd(5)} [${thread}] ${date} ${file} - ${msg}`;
const D = '2024-05-01 10:00:00,123';

/** Lines on each edge of the lane: each must either take it and count the same, or be left to the full reader. */
const EDGES = [
  c('INFO', 'main', D, 'StorageService.java:1', 'Joining ring'),
  c('INFO', 'main', D, ' CassandraDaemon.java:2', 'two spaces before the file (DSE)'),
  `${c('INFO', 'main', D, 'A.java:1', 'msg')}\r`,
  'INFO  [main] 2024-05-01 10:00:00,123 A.java:1 -',
  'INFO  [main] 2024-05-01 10:00:00,123 A.java:1 - ',
  'INFO  [main] 2024-05-01 10:00:00 A.java:1 - no millis',
  'INFO  [main] 2024-05-01 10:00:00,1234567 A.java:1 - long fraction',
  'INFO  [main] 2024-05-01T10:00:00,123Z A.java:1 - zoned',
  'INFO  [main] 2024-05-01 10:00:00,123+0200 A.java:1 - offset',
  'INFO  [main] 2024-05-01 10:00:00,1 2 A.java:1 - a space inside the fraction',
  'INFO  [main] 10:00:00,123 A.java:1 - time of day',
  'INFO  [main] 2024-05-01 10:00:00,123 StatusLogger.java (line 53) Pool Name   Active',
  'INFO  [main]  2024-05-01 10:00:00,123 A.java:1 - two spaces before the date',
  'INFO  [shard 1] compaction - scylla without a date',
  'INFO [main] 2024-05-01 10:00:00,123 A.java:1 - one space after the level',
  'WARNING [main] 2024-05-01 10:00:00,123 A.java:1 - WARNING is not WARN',
  'ERROR] [main] 2024-05-01 10:00:00,123 A.java:1 - lost bracket',
  c('TRACE', 'main', D, 'A.java:1', 'trace'),
  c('DEBUG', 'main', D, 'A.java:1', 'G1 Young Generation GC in 999ms (debug lines are never events)'),
  c('ERROR', 'main', D, 'A.java:1', 'Exception in thread'),
  c('INFO', 'main', D, 'A.java:1', 'a thread named HintsDispatcher or a hint'),
  c('INFO', 'HintsDispatcher:1', D, 'A.java:1', 'the gate matches the prefix only'),
  c('WARN', 'GossipTasks:1', D, 'Gossiper.java:1', 'Stopping gossip by operator request'),
  c('WARN', 'GossipTasks:1', D, 'Gossiper.java:1', 'Starting gossip by operator request'),
  c('INFO', 'main', D, 'CassandraDaemon.java:1', 'JVM Arguments: [-Xmx4G, -Xms4G, -XX:+UseG1GC]'),
  c('INFO', 'main', D, 'CassandraDaemon.java:1', 'JVM vendor/version: OpenJDK 64-Bit Server VM/17.0.9'),
  c('INFO', 'main', D, 'CassandraDaemon.java:1', 'Heap size: 1.0GiB/3.9GiB'),
  c('INFO', 'main', D, 'DseDaemon.java:1', 'DSE version: 6.8.1'),
  c('INFO', 'main', D, 'DatabaseDescriptor.java:1', "DiskAccessMode 'auto' determined to be mmap, indexAccessMode is mmap"),
  c('INFO', 'main', D, 'DatabaseDescriptor.java:1', 'Auto DiskAccessMode determined to be mmap'),
  c('INFO', 'main', D, 'StorageService.java:1', 'Cassandra version: 4.1.10'),
  c('INFO', 'main', D, 'CassandraDaemon.java:1', 'Classpath: /a/b.jar:/c/d.jar'),
  c('INFO', 'main', D, 'YamlConfigurationLoader.java:1', 'Node configuration:[concurrent_reads=32; num_tokens=16]'),
  c('INFO', 'main', D, 'CassandraDaemon.java:1', 'This instance appears to have 2 threads per CPU core and 8 total CPU threads.'),
  c('INFO', 'main', D, 'CassandraDaemon.java:1', 'Startup complete'),
  c('INFO', 'main', D, 'Server.java:1', 'Starting listening for CQL clients on /127.0.0.1:9042'),
  c('INFO', 'ScheduledTasks:1', D, 'NoSpamLogger.java:91', 'Some operations were slow, details available at debug level (debug.log)'),
  c('INFO', 'ScheduledTasks:1', D, 'NoSpamLogger.java:91', '3 operations were slow in the last 5000 msecs:'),
  c('INFO', 'ReadStage-1', D, 'NoSpamLogger.java:91', 'Maximum memory usage reached (512MiB), cannot allocate chunk of 1MiB'),
  c('INFO', 'CoreThread-1', D, 'MonitoringTask.java:92', 'Scheduling monitoring task with report interval of 5000 ms, max operations 50'),
  c('INFO', 'CoreThread-1', D, 'MonitoringTask.java:173', '2 operations were slow in the last 5003 msecs:'),
  '<SELECT * FROM ks.t LIMIT 100>, time 700 msec - slow timeout 500 msec',
  c('INFO', 'ScheduledTasks:1', D, 'StatusLogger.java:47', 'Pool Name                    Active   Pending      Completed   Blocked  All Time Blocked'),
  'MutationStage                     0         3          12345         0                 0',
  c('INFO', 'ScheduledTasks:1', D, 'DroppedMessages.java:1', 'MUTATION messages were dropped in the last 5 s: 3 internal and 4 cross node'),
  c('INFO', 'ScheduledTasks:1', D, 'MessagingService.java:1', 'MUTATION messages were dropped in last 5000 ms: 3 internal and 4 cross node'),
  'ks.t - 3 messages',
  c('INFO', 'GCInspector:1', D, 'GCInspector.java:284', 'G1 Young Generation GC in 250ms.  G1 Eden Space: 1 -> 0'),
  c('INFO', 'ScheduledTasks:1', D, 'FailureDetector.java:1', 'Not marking nodes down due to local pause of 8000000000ns > 5000000000ns'),
  '\tat org.apache.cassandra.A.b(A.java:1)',
  'Caused by: java.io.IOException: No space left on device',
  '`INFO  [main] 2024-05-01 10:00:00,123 A.java:1 - backticked`',
  '',
  '   ',
  '[2024-05-01T10:00:00.123+0000][0.5s][info][gc] GC(1) Pause Young (Normal) 10M->5M(100M) 22.050ms',
];

describe('log fast lane', () => {
  it('gives the same facts as the full reader on every real log held here', () => {
    const files = [...logFiles(FIXTURES_DIR), ...corpusFiles('logs', /./).map((f) => join(CORPUS_DIR, f))];
    expect(files.length).toBeGreaterThan(100);
    let lines = 0;
    for (const f of files) {
      const t = text(f);
      lines += t.split('\n').length;
      same(t, f);
    }
    expect(lines).toBeGreaterThan(100_000);
    // the files one after another: what one file leaves open (an entry, a snapshot) meets the next one's lines
    same(files.map(text).join('\n'), 'all files in one stream');
  });

  it('gives the same facts on lines built on each edge of the lane, alone and mixed', () => {
    for (const e of EDGES) same([c('INFO', 'main', D, 'A.java:1', 'first'), e, c('INFO', 'main', D, 'A.java:2', 'after'), ''].join('\n'), JSON.stringify(e));
    same(EDGES.join('\n'), 'all edges');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EDGES), { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 300 }), (picked, chunk) => {
        const t = `${c('INFO', 'main', D, 'A.java:1', 'first')}\n${picked.join('\n')}\n`;
        expect(read(t, true, chunk)).toBe(read(t, false, chunk));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same start-up window: a ready line bounds the safepoint stops set aside', () => {
    const sp = (t: string, up: string, ttspNs: number) =>
      `[2024-05-01T${t}.000+0000][${up}s][info][safepoint] Safepoint "G1CollectForAllocation", Time since last: 1 ns, ` +
      `Reaching safepoint: ${ttspNs} ns, Cleanup: 1 ns, At safepoint: 1000000 ns, Total: ${ttspNs + 1000000} ns`;
    const t = [
      c('INFO', 'main', '2024-05-01 10:00:00,000', 'CassandraDaemon.java:1', 'JVM Arguments: [-Xmx4G, -XX:+UseG1GC]'),
      c('INFO', 'main', '2024-05-01 10:00:01,000', 'A.java:1', 'plain'),
      sp('10:00:02', '2.0', 900_000_000),
      c('INFO', 'main', '2024-05-01 10:00:03,000', 'CassandraDaemon.java:1', 'Startup complete'),
      c('INFO', 'main', '2024-05-01 10:00:04,000', 'A.java:1', 'plain'),
      sp('10:00:05', '5.0', 800_000_000),
      c('INFO', 'main', '2024-05-01 10:01:00,000', 'A.java:1', 'plain'),
      sp('10:01:01', '61.0', 700_000_000),
      c('INFO', 'main', '2024-05-01 10:01:02,000', 'Server.java:1', 'Starting listening for CQL clients on /127.0.0.1:9042'),
      '',
    ].join('\n');
    same(t, 'start-up window');
  });

  it("an event in the lines under a plain line takes that line's time, not the time of the event before it", () => {
    const t = [
      c('INFO', 'GCInspector:1', '2024-05-01 10:00:00,000', 'GCInspector.java:284', 'G1 Young Generation GC in 250ms.  G1 Eden Space: 1 -> 0'),
      c('INFO', 'main', '2024-05-01 10:05:00,000', 'A.java:1', 'plain'),
      'java.lang.OutOfMemoryError: Java heap space',
      '',
    ].join('\n');
    same(t, 'continuation under a plain line');
    expect(read(t, true, 1 << 20)).toContain('10:05:00');
  });

  it('takes most lines of an ordinary log', () => {
    // the lane is worth having only if it applies: count the lines the full reader is given
    const acc = new LogAccumulator({ sources: 1 }) as unknown as { line: (s: string) => void; push: (t: string) => void };
    let slow = 0;
    const line = acc.line.bind(acc);
    acc.line = (s: string) => {
      slow++;
      line(s);
    };
    const t = text(join(FIXTURES_DIR, 'sperf/cassandra311-system.log'));
    acc.push(t);
    const total = t.split('\n').length;
    expect(slow / total).toBeLessThan(0.5);
  });
});
