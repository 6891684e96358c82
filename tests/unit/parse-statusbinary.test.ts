import { describe, expect, it } from 'vitest';
import { parseStatusbinary } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseStatusbinary(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool statusbinary', () => {
  it.skipIf(!HAVE_CORPUS)('reads every capture as running', () => {
    const files = corpusFiles('local-runs', /_statusbinary\.txt$/);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      const r = parseStatusbinary(corpus(f));
      expect(r.ok && r.value.running, f).toBe(true);
      expectTotalOnEveryTruncation(corpus(f));
    }
  });

  it('"not running" (Cassandra and ScyllaDB print the same words), with prompt and CRLF', () => {
    expect(parseStatusbinary('not running\n')).toMatchObject({ ok: true, value: { running: false } });
    expect(parseStatusbinary('$ nodetool -h 10.0.0.9 statusbinary\r\n  running\r\n')).toMatchObject({ ok: true, value: { running: true }, warnings: [] });
    expect(parseStatusbinary('2026-01-01T00:00:00Z not running')).toMatchObject({ ok: true, value: { running: false } });
  });

  it('drops shell prompt lines of the usual styles (nothing else is left over)', () => {
    for (const prompt of [
      '$ nodetool statusbinary',
      '[root@db1 ~]# nodetool statusbinary',
      '(venv) ops@db1:~$ /opt/cassandra/bin/nodetool -h db1 -p 7199 statusbinary',
      'PS C:\\> C:\\cassandra\\bin\\nodetool.bat statusbinary',
      'sudo nodetool -u cassandra statusbinary',
      'kubectl exec -n db cass-0 -- nodetool statusbinary',
      'nodetool statusbinary',
    ]) {
      expect(parseStatusbinary(`${prompt}\nrunning`), prompt).toMatchObject({ ok: true, value: { running: true }, warnings: [] });
    }
  });

  it('says why on empty, unrelated and error text', () => {
    for (const bad of ['', 'runningish', 'Mode: NORMAL', 'the node is not running?']) {
      const r = parseStatusbinary(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/empty|running/);
    }
    const e = parseStatusbinary("nodetool: Failed to connect to '127.0.0.1:7199' - ConnectException");
    expect(e.ok === false && e.reason).toMatch(/error instead/);
  });

  it('is total on every truncation of a pasted session', () => {
    expectTotalOnEveryTruncation('$ nodetool statusbinary\nrunning\n');
  });
});
