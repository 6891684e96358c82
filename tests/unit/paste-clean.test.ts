import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanPaste } from '../../mcp-server/src/core/parse/paste/clean.js';

// Paste hygiene (issue #14): the wrappers a paste adds are stripped, content never is, and every cleaned line
// says which pasted line it came from.

const STATUS = [
  'Datacenter: dc1',
  '===============',
  'Status=Up/Down',
  '|/ State=Normal/Leaving/Joining/Moving',
  '--  Address    Load       Tokens  Owns (effective)  Host ID                               Rack',
  'UN  10.0.0.1   1.2 GiB    16      66.7%             0b9c7a1e-0000-4000-8000-000000000001  r1',
  'DN  10.0.0.2   1.1 GiB    16      66.7%             0b9c7a1e-0000-4000-8000-000000000002  r1',
];
const LOG = [
  'INFO  [main] 2024-05-01 10:00:00,123 StorageService.java:123 - Node is ready',
  'WARN  [ReadStage-2] 2024-05-01 10:00:01,000 ReadCommand.java:569 - Read 10 live rows and 1001 tombstone cells for query SELECT * FROM ks.t',
  'ERROR [CompactionExecutor:1] 2024-05-01 10:00:02,000 CassandraDaemon.java:244 - Exception in thread',
];

describe('cleanPaste: wrappers are stripped', () => {
  it('markdown quotes, nested ones included, and keeps the line map', () => {
    const c = cleanPaste(STATUS.map((l) => `> > ${l}`).join('\n'));
    expect(c.text).toBe(STATUS.join('\n'));
    expect(c.applied).toEqual(['md-quote', 'md-quote']);
    expect(c.lineMap).toEqual(STATUS.map((_, i) => i + 1));
  });

  it('drops code-fence lines and maps the rest to their pasted line numbers', () => {
    const c = cleanPaste(['```text', ...STATUS, '```'].join('\n'));
    expect(c.text).toBe(STATUS.join('\n'));
    expect(c.applied).toEqual(['code-fence']);
    expect(c.lineMap).toEqual(STATUS.map((_, i) => i + 2));
  });

  it('a quoted fence: the fence under the quote goes too', () => {
    const c = cleanPaste(['> ```', ...STATUS.map((l) => `> ${l}`), '> ```'].join('\n'));
    expect(c.text).toBe(STATUS.join('\n'));
    expect(c.applied).toEqual(['md-quote', 'code-fence']);
    expect(c.lineMap[0]).toBe(2);
  });

  it('backticks around a one-liner, single or triple', () => {
    expect(cleanPaste('`' + LOG[1] + '`').text).toBe(LOG[1]);
    expect(cleanPaste('```' + LOG[1] + '```').text).toBe(LOG[1]);
    // A backtick inside the line is content.
    expect(cleanPaste('`a` and `b`').applied).toEqual([]);
  });

  it('a common indentation, tabs or spaces, and only the common part', () => {
    const c = cleanPaste(['    Keyspace : ks', '    \tRead Count: 1', '', '    \tWrite Count: 2'].join('\n'));
    expect(c.text).toBe(['Keyspace : ks', '\tRead Count: 1', '', '\tWrite Count: 2'].join('\n'));
    expect(c.applied).toEqual(['indent']);
  });

  it('the SCT harness prefix (a real scylla-cluster-tests line)', () => {
    const line = '< t:2022-05-22 18:51:57,373 f:base.py         l:228  c:RemoteLibSSH2CmdRunner p:DEBUG > Total ops:       433555346';
    const c = cleanPaste([line, line.replace('Total ops:       433555346', 'Total errors:    7202')].join('\n'));
    expect(c.text).toBe('Total ops:       433555346\nTotal errors:    7202');
    expect(c.applied).toEqual(['sct-prefix']);
  });

  it('syslog (with and without pid), journald short-iso, and SCT’s `!LEVEL |` journald form', () => {
    // scylla's journal lines have two spaces after the colon: the second is a common indentation, stripped next.
    const journal = cleanPaste('Mar  3 10:00:01 host scylla[123]:  [shard 0] repair - x\nMar  3 10:00:02 host scylla[123]:  [shard 1] repair - y');
    expect(journal.text).toBe('[shard 0] repair - x\n[shard 1] repair - y');
    expect(journal.applied).toEqual(['syslog', 'indent']);
    expect(cleanPaste('Apr  4 08:56:24 db01 scylla: [shard 5] compaction - Compacted 10 sstables').applied).toEqual(['syslog']);
    expect(cleanPaste('2024-05-01T10:00:00+0000 host scylla[1]: [shard 0] seastar - msg').text).toBe('[shard 0] seastar - msg');
    expect(cleanPaste('2019-09-05T18:04:20+00:00  ip-10-0-76-1 !WARNING | scylla: [shard 1] storage_proxy - x').text).toBe('[shard 1] storage_proxy - x');
  });

  it('kubectl --prefix, Kibana time columns (old and new formats), grep -H / -n, gutters, CRLF', () => {
    expect(cleanPaste(LOG.map((l) => `[pod/cass-dc1-rack1-sts-0/cassandra] ${l}`).join('\n')).text).toBe(LOG.join('\n'));
    expect(cleanPaste(`December 29th 2023, 21:44:10.791${LOG[2]}`).text).toBe(LOG[2]);
    expect(cleanPaste(`Dec 29, 2023 @ 21:44:10.791\t${LOG[2]}`).text).toBe(LOG[2]);
    expect(cleanPaste(LOG.map((l, i) => `/var/log/cassandra/system.log:${10 + i}:${l}`).join('\n')).text).toBe(LOG.join('\n'));
    expect(cleanPaste(LOG.map((l, i) => `${10 + i * 7}:${l}`).join('\n')).applied).toEqual(['grep-prefix']);
    expect(cleanPaste(STATUS.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n')).text).toBe(STATUS.join('\n'));
    const crlf = cleanPaste(STATUS.join('\r\n'));
    expect(crlf.text).toBe(STATUS.join('\n'));
    expect(crlf.applied).toEqual(['crlf']);
  });

  it('layers come off one at a time, each stage kept (detection tries them in turn)', () => {
    const c = cleanPaste(LOG.map((l) => `> Mar  3 10:00:01 host cassandra[9]: ${l}`).join('\n'));
    expect(c.stages.map((s) => s.applied)).toEqual([['md-quote'], ['md-quote', 'syslog']]);
    expect(c.stages[0]!.text.startsWith('Mar  3 10:00:01 host cassandra[9]: INFO')).toBe(true);
    expect(c.text).toBe(LOG.join('\n'));
  });
});

describe('cleanPaste: content is never eaten', () => {
  it('clean captures come back unchanged: nodetool rows, log levels, gossip fields, YAML comments', () => {
    const gossip = ['/10.0.0.1', '  generation:1700000000', '  heartbeat:123', '  STATUS:15:NORMAL,-123', '  LOAD:13:1.2E9', '  DC:6:dc1'];
    const yaml = ['# Cassandra storage config', '# nodetool drain before stopping', 'cluster_name: x', 'num_tokens: 16'];
    for (const text of [STATUS, LOG, gossip, yaml].map((l) => l.join('\n'))) {
      const c = cleanPaste(text);
      expect(c.applied, text.slice(0, 40)).toEqual([]);
      expect(c.text).toBe(text);
    }
  });

  it('a wrapper carried by a minority of lines stays (two quoted lines in five)', () => {
    const text = ['> UN  10.0.0.1', '> DN  10.0.0.2', 'UN  10.0.0.3', 'UN  10.0.0.4', 'UN  10.0.0.5'].join('\n');
    expect(cleanPaste(text).applied).toEqual([]);
  });

  it('prompt lines are separators: kept as they are and not counted against a wrapper', () => {
    const sct = (l: string) => `< t:2022-12-02 13:11:02,137 f:db_log_reader.py l:113  c:sdcm.db_log_reader   p:DEBUG > ${l}`;
    const c = cleanPaste(['$ grep tombstone sct.log', ...LOG.map(sct)].join('\n'));
    expect(c.applied).toEqual(['sct-prefix']);
    expect(c.text.split('\n')).toEqual(['$ grep tombstone sct.log', ...LOG]);
  });

  it('line numbers that go down are no grep -n / gutter prefix', () => {
    const text = ['30:a', '20:b', '10:c'].join('\n');
    expect(cleanPaste(text).applied).toEqual([]);
    const gutter = ['1\tx', '2\ty', '5\tz'].join('\n');
    expect(cleanPaste(gutter).applied).toEqual([]);
  });
});

describe('cleanPaste: properties', () => {
  const wrappers = [
    (l: string) => `> ${l}`,
    (l: string) => `    ${l}`,
    (l: string) => `< t:2023-01-02 10:00:00,123 f:base.py l:228 c:sdcm.remote p:INFO > ${l}`,
    (l: string) => `Mar  3 10:00:01 host scylla[123]: ${l}`,
    (l: string) => `[pod/p-0/cassandra] ${l}`,
    (l: string) => `\`${l}\``,
  ];
  const contentLine = fc.oneof(
    fc.constantFrom(...STATUS, ...LOG, '', '```', '$ nodetool status', '  Read Count: 5', '#', '> ', '`', '12:34:56 x'),
    fc.string({ maxLength: 40 }),
  );
  const wrapperChoice = fc.array(fc.integer({ min: 0, max: wrappers.length - 1 }), { maxLength: 3 });
  const paste = fc
    .tuple(fc.array(contentLine, { maxLength: 30 }), wrapperChoice, fc.array(fc.boolean(), { maxLength: 30 }), fc.boolean())
    .map(([lines, ws, which, crlf]) => {
      // Each line gets the wrappers or, now and then, not (a preamble, a continuation line).
      const wrapped = lines.map((l, i) => (which[i] === false ? l : ws.reduce((acc, w) => wrappers[w]!(acc), l)));
      return wrapped.join(crlf ? '\r\n' : '\n');
    });

  it('never loses a line: every non-fence line is mapped, the map is increasing, each cleaned line is inside its original', () => {
    fc.assert(
      fc.property(paste, (text) => {
        const c = cleanPaste(text);
        const original = text.split('\n').map((l) => l.replace(/\r+$/, ''));
        // A paste of nothing but fences cleans to no line at all.
        const cleaned = c.lineMap.length === 0 ? [] : c.text.split('\n');
        if (cleaned.length === 0) expect(c.text).toBe('');
        expect(cleaned.length).toBe(c.lineMap.length);
        for (let i = 1; i < c.lineMap.length; i++) expect(c.lineMap[i]!).toBeGreaterThan(c.lineMap[i - 1]!);
        cleaned.forEach((l, i) => expect(original[c.lineMap[i]! - 1]!.includes(l)).toBe(true));
        const mapped = new Set(c.lineMap);
        const dropped = original.map((_, i) => i + 1).filter((n) => !mapped.has(n));
        // Only code-fence lines may go, and only the fence markup is in them.
        for (const n of dropped) expect(original[n - 1]!).toMatch(/(?:`{3,}|~{3,})[\w+.-]*[ \t]*$/);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the content under the wrappers: each wrapped output line is still whole in its cleaned line', () => {
    const real = fc.oneof(fc.constantFrom(...STATUS, ...LOG, '  Read Count: 5', '$ nodetool status'), fc.stringMatching(/^[A-Za-z][A-Za-z ,.()=-]{0,39}$/));
    const wrappedPaste = fc.tuple(fc.array(real, { minLength: 1, maxLength: 20 }), wrapperChoice);
    fc.assert(
      fc.property(wrappedPaste, ([lines, ws]) => {
        const c = cleanPaste(lines.map((l) => ws.reduce((acc, w) => wrappers[w]!(acc), l)).join('\n'));
        const cleaned = c.text.split('\n');
        lines.forEach((l, i) => {
          const at = c.lineMap.indexOf(i + 1);
          expect(at, `line ${i + 1} was dropped`).toBeGreaterThanOrEqual(0);
          expect(cleaned[at]).toContain(l.trim());
        });
      }),
      { numRuns: 400 },
    );
  });

  it('is idempotent: clean(clean(x)) == clean(x)', () => {
    fc.assert(
      fc.property(paste, (text) => {
        const once = cleanPaste(text);
        const twice = cleanPaste(once.text);
        expect(twice.text).toBe(once.text);
        expect(twice.applied).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});
