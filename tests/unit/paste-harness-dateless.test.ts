/**
 * Pastes wrapped by test harnesses and loggers, fragments, and logs without dates (issue #14), on real samples of
 * the corpus's tuned split (tests/fixtures/real-world, provenance in SOURCES.tsv):
 * - SCT's log prefix without its leading `< t:` and with a remote host tag (`<10.4.11.228>: `) in front of nodetool;
 * - SCT's journal layout with the severity between host and program (`host !WARNING | scylla:  [shard 0] …`);
 * - Scylla's padded shard numbers (`[shard  7:comp]`);
 * - a journal pasted with the time of day only, and a journal line cut to its program (`scylla:  [shard 0] …`):
 *   the events are kept with no time, never dropped and never given a made-up date;
 * - a status table cut to its node rows.
 */
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { cleanPaste } from '../../mcp-server/src/core/parse/paste/clean.js';
import { newHeader, newHeaderState, parseLogs, readHeader, type LogFacts } from '../../mcp-server/src/core/parse/logs/index.js';
import type { NodetoolStatus } from '../../mcp-server/src/core/parse/nodetool/status.js';
import { fixture } from '../helpers/corpus.js';

const sample = (file: string) => fixture(`real-world/${file}`);

function logs(text: string): LogFacts {
  const d = detect(text);
  if (!d.ok) throw new Error(d.reason);
  expect(d.kind).toBe('logs');
  return d.parsed.value as LogFacts;
}

function header(line: string) {
  const h = newHeader();
  const ok = readHeader(line, h, newHeaderState());
  return { ok, ...h, msg: line.slice(h.msgStart) };
}

describe('SCT harness prefix without "< t:" and with a remote host tag (scylla-cluster-tests#7833)', () => {
  const file = 'status_sct-remote-host-prefix-decommission_sct7833.txt';

  it('is stripped as the SCT wrapper, host tag included, one cleaned line per pasted line', () => {
    const c = cleanPaste(sample(file));
    expect(c.applied).toEqual(['sct-prefix']);
    const lines = c.text.split('\n');
    expect(lines[1]).toBe('Datacenter: eu-west');
    expect(lines[6]).toMatch(/^UN 10\.4\.10\.130 23\.64 GB 256/);
    // no line dropped, each one the end of the line pasted
    const pasted = sample(file).split('\n');
    expect(c.lineMap).toEqual(pasted.map((_, i) => i + 1));
    lines.forEach((l, i) => expect(pasted[i]!.endsWith(l)).toBe(true));
  });

  it('reads as nodetool status with both node rows', () => {
    const d = detect(sample(file));
    expect(d.ok && d.kind).toBe('nodetool.status');
    if (!d.ok) return;
    expect(d.cleaned).toEqual(['sct-prefix']);
    const s = d.parsed.value as NodetoolStatus;
    expect(s.nodes.map((n) => `${n.code} ${n.address} ${n.rack}`)).toEqual(['UN 10.4.10.130 1c', 'UN 10.4.10.56 1c']);
    expect(s.datacenters).toEqual(['eu-west']);
  });
});

describe("SCT's journal layout: severity between host and program", () => {
  it('the marker gives level, node and program; the Scylla line under it gives shard and message', () => {
    const line = sample('log_sct-journald-repair-failed-sub-ranges_scylla7025.txt').split('\n')[0]!;
    const h = header(line);
    expect(h.ok).toBe(true);
    expect(h.format).toBe('journald');
    expect(h.node).toBe('longevity-tls-1tb-7d-2021-1-db-node-c9173d8a-1');
    expect(h.program).toBe('scylla');
    expect(h.shard).toBe(0);
    expect(h.level).toBe(4); // WARNING
    expect(h.basis).toBe('absolute');
    expect(h.msg.startsWith('repair id [id=1, uuid=e05cebcf-')).toBe(true);
  });

  it('the 4.x per-shard repair failures are repair failures, with the time and node of the journal (scylladb#7025)', () => {
    const f = logs(sample('log_sct-journald-repair-failed-sub-ranges_scylla7025.txt'));
    expect(f.lines.headed).toBe(3);
    expect(f.events.repairFailure.count).toBe(3);
    expect(f.repair.distinctSessions).toBe(1);
    expect(f.events.repairFailure.firstTime).toBe('2021-11-17T23:45:24.000Z');
    expect(f.events.repairFailure.worst[0]?.node).toBe('longevity-tls-1tb-7d-2021-1-db-node-c9173d8a-1');
  });

  it('one such line alone is recognised and read (scylladb#7965)', () => {
    const f = logs(sample('log_sct-journald-repair-removenode-failed_scylla7965.txt'));
    expect(f.events.repairFailure.count).toBe(1);
  });

  it('SCT journal lines inside the SCT log prefix, mixed with bare error lines, are a log (scylla-cluster-tests#11917)', () => {
    const d = detect(sample('log_sct-journald-nodetool-500-gossiper-not-ready_sct11917.txt'));
    expect(d.ok && d.kind).toBe('logs');
    if (!d.ok) return;
    expect(d.cleaned).toEqual(['sct-prefix']);
    const f = d.parsed.value as LogFacts;
    expect(f.lines.headed).toBe(2);
    expect(f.time.firstTime).toBe('2025-08-29T02:34:06.852Z');
  });
});

describe('padded shard numbers (scylla-cdc-source-connector#47)', () => {
  const lines = sample('log_syslog-padded-shard-cdc-compaction_scylla-cdc47.txt').split('\n');

  it('"[shard  7:comp]" is shard 7, in a journal line and pasted bare', () => {
    expect(header(lines[0]!).shard).toBe(7);
    expect(header(lines[4]!).shard).toBe(3);
    expect(header(lines[1]!).shard).toBe(22);
    const bare = lines[0]!.slice(lines[0]!.indexOf('[shard'));
    const h = header(bare);
    expect(h.ok).toBe(true);
    expect(h.shard).toBe(7);
    expect(h.msg.startsWith('[Compact keyspace.')).toBe(true);
  });
});

describe('logs without a date', () => {
  it('a journal pasted with the time of day only: every line is read, the stalls kept with no time (scylladb#2893)', () => {
    const f = logs(sample('log_time-only-journal-stalls-restart_scylla2893.txt'));
    expect(f.lines.unrecognised).toBe(0);
    expect(f.lines.headed).toBe(12);
    expect(f.events.reactorStall.count).toBe(6);
    expect(f.reactorStalls.maxMs).toBe(4099);
    // no day is known: none is made up
    expect(f.time.basis).toBe('none');
    expect(f.time.firstT).toBeNull();
    expect(f.events.reactorStall.worst.every((e) => e.t === null)).toBe(true);
  });

  it('"11:26:23 scylla1 systemd[1]: …" is a journal line: node and program read, no time', () => {
    const line = sample('log_time-only-journal-stalls-restart_scylla2893.txt').split('\n')[7]!;
    const h = header(line);
    expect(h.ok).toBe(true);
    expect(h.format).toBe('journald');
    expect([h.node, h.program]).toEqual(['scylla1', 'systemd']);
    expect(h.basis).toBe('none');
    expect(h.msg).toBe('Stopping Scylla Server...');
  });

  it('a journal line cut to its program ("scylla:  [shard 0] repair - …") is read, its event kept with no time', () => {
    const line = sample('log_sct-journald-repair-failed-sub-ranges_scylla7025.txt').split('\n')[0]!;
    const cut = line.slice(line.indexOf('scylla:'));
    const d = detect(cut);
    expect(d.ok && d.kind).toBe('logs');
    const h = header(cut);
    expect([h.ok, h.program, h.shard, h.basis]).toEqual([true, 'scylla', 0, 'none']);
    const f = parseLogs(cut);
    expect(f.ok && f.value.lines.headed).toBe(1);
    expect(f.ok && f.value.events.repairFailure.count).toBe(1);
    expect(f.ok && f.value.events.repairFailure.worst[0]?.t).toBeNull();
  });

  it('text that only looks like "program: …" is not a journal line', () => {
    const text = sample('log_sct-journald-nodetool-500-gossiper-not-ready_sct11917.txt');
    const command = cleanPaste(text).text.split('\n')[2]!;
    expect(command).toBe("Command: '/usr/bin/nodetool  status '");
    expect(header(command).ok).toBe(false);
    expect(header('java.lang.OutOfMemoryError: Java heap space').ok).toBe(false);
  });

  it('a level-first Scylla line whose date was cut keeps level, shard and logger-free message', () => {
    // the line of scylladb#18887 ("WARN  2024-05-27 17:21:58,134 [shard  5:comp] large_data - …") without its date
    const h = header('WARN  [shard  5:comp] large_data - Writing large partition shenwei/velocity_partner_application_a');
    expect([h.ok, h.format, h.level, h.shard, h.basis]).toEqual([true, 'scylla', 4, 5, 'none']);
    expect(h.msg.startsWith('Writing large partition')).toBe(true);
  });
});

describe('a status table cut to its node rows', () => {
  it('node rows without the header or the Datacenter line are nodetool status (criteo/cassandra_exporter#79)', () => {
    const rows = sample('status_partitioned-node-dn_criteo-exporter79.txt')
      .split('\n')
      .filter((l) => /^[UD][NLJM] /.test(l))
      .slice(0, 4);
    expect(rows).toHaveLength(4);
    const d = detect(rows.join('\n'));
    expect(d.ok && d.kind).toBe('nodetool.status');
    if (!d.ok) return;
    const s = d.parsed.value as NodetoolStatus;
    expect(s.nodes.map((n) => n.code)).toEqual(['UN', 'UN', 'UN', 'DN']);
    expect(s.datacenters).toEqual([]);
  });
});
