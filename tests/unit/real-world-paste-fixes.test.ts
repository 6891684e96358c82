/**
 * Real pastes of the tuned real-world split that were not read (tests/fixtures/real-world, SOURCES.tsv has the
 * threads): an anonymised status table, an SCT scylla-bench Results block without its title, a quoted
 * compactionhistory without its title line, and a cassandra.yaml excerpt of keys no head-of-file signature knew.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseStatus } from '../../mcp-server/src/core/parse/nodetool/status.js';
import { parseScyllaBench } from '../../mcp-server/src/core/parse/stress/scylla-bench.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { fixture } from '../helpers/corpus.js';

const rw = (f: string) => fixture(join('real-world', f));

describe('anonymised nodetool status (cass-operator#911)', () => {
  const text = rw('status_kubectl-anonymised-dn_cass-operator911.txt');

  it('reads every row, keeps the anonymised host IDs as printed and never uses them as identities', () => {
    const r = interpretText(text);
    expect(r.kind).toBe('nodetool.status');
    expect(r.findings.find((f) => f.id === 'topology.node-down')?.title).toContain('172.0.XYZ.WZY');
    const p = parseStatus(text.split('\n').slice(2).join('\n'));
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.value.nodes.map((n) => [n.code, n.address, n.hostId, n.hostIdAsPrinted, n.rack])).toEqual([
      ['UN', '172.0.123.456', null, 'xxxxxxxxx-yyyyy-zzzz-aaaaa-12345abc', 'eu-central-1c'],
      ['DN', '172.0.XYZ.WZY', null, '12345abc-aaaaa-zzzz-ba0b-yyyyyxxxxx', 'eu-central-1b'],
      ['UN', '172.0.345.567', null, '0123456abc-45zzz-ccccccc-dddddd77', 'eu-central-1a'],
    ]);
    expect(p.value.rowsNotParsed).toEqual([]);
  });

  it('a redacted <host-id> and `<ip>` still make a row; a real UUID is still an identity', () => {
    const t = [
      '--  Address  Load       Tokens  Owns (effective)  Host ID                               Rack',
      'UN  <ip>     1.2 GiB    16      100.0%            <redacted>                            r1',
      'UN  10.0.0.2 1.1 GiB    16      100.0%            C474C29E-1A2B-4C3D-8E9F-0123456789AB  r1',
    ].join('\n');
    const p = parseStatus(t);
    expect(p.ok && p.value.nodes.map((n) => [n.address, n.hostId, n.hostIdAsPrinted ?? null])).toEqual([
      ['<ip>', null, '<redacted>'],
      ['10.0.0.2', 'c474c29e-1a2b-4c3d-8e9f-0123456789ab', null],
    ]);
  });
});

describe('scylla-bench Results block pasted without its title (scylla-bench#95, SCT harness prefix)', () => {
  it('reads the totals and the errors, and says the +Inf rates are unknown', () => {
    const r = interpretText(rw('scyllabench_sct-results-inf-rate-errors_sb95.txt'));
    expect(r.kind).toBe('stress.scylla-bench');
    expect(r.findings.map((f) => f.id)).toContain('stress.errors');
    const block = [
      'Time (avg):      2h49m59.979177235s',
      'Total ops:       433555346',
      'Total errors:    7202',
      'Operations/s:    +Inf',
      'Rows/s:          +Inf',
    ];
    const p = parseScyllaBench(block.join('\n'));
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect([p.value.totalOps, p.value.totalErrors, p.value.opRate]).toEqual([433555346, 7202, null]);
    expect(p.warnings.join('\n')).toMatch(/Operations\/s and Rows\/s printed as \+Inf/);
  });
});

describe('compactionhistory quoted without its "Compaction History:" title (scylladb#1520)', () => {
  it('is read from its column header', () => {
    const r = interpretText(rw('compactionhistory_quoted-no-title-elided-id_scylla1520.txt'));
    expect(r.kind).toBe('nodetool.compactionhistory');
    expect(r.cleaned).toEqual(['md-quote']);
  });
});

describe('a cassandra.yaml excerpt of backup/snapshot keys (instaclustr cassandra-operator#390)', () => {
  it('is recognised as a config excerpt (pre-4.1 names), not left unrecognised', () => {
    const r = interpretText(rw('config_yaml-backup-snapshot-fragment_instaclustr-operator390.txt'));
    expect(r.kind).toBe('config.cassandra-yaml');
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('an excerpt whose settings are all commented out is a config that sets nothing, said so', () => {
    const d = detect('# how many tokens this node takes\n# num_tokens: 16\n\n#hinted_handoff_enabled: true\n# max_hint_window_in_ms: 10800000\n');
    expect(d.ok && d.kind).toBe('config.cassandra-yaml');
    if (!d.ok) return;
    expect((d.parsed.value as { settings: object }).settings).toEqual({});
    expect(d.parsed.warnings.join('\n')).toMatch(/only comments: every setting .*num_tokens, hinted_handoff_enabled, max_hint_window_in_ms.* sets nothing/);
    expect(detect('# just a note\n# another: thing\n').ok).toBe(false);
  });

  it('the wider signature does not take a gossipinfo or a log line for a yaml', () => {
    expect(interpretText('/10.0.0.1\n  generation:1700000000\n  RPC_ADDRESS:10.0.0.1\n  STATUS:14:NORMAL,-1').kind).toBe('nodetool.gossipinfo');
  });
});

describe('nodetool ring with Down nodes, cut after a few vnodes (scylladb#2254)', () => {
  const text = rw('ring_two-nodes-down-observer-cut_scylla2254.txt');

  it("the ring's own Up/Down column names each down node when no status was given; a cut ring says nothing on balance", () => {
    const r = interpretText(text);
    expect(r.kind).toBe('nodetool.ring');
    const down = r.findings.filter((f) => f.id === 'topology.node-down');
    expect(down.map((f) => [f.node, f.severity])).toEqual([
      ['10.240.0.23', 'critical'],
      ['10.240.0.26', 'critical'],
    ]);
    expect(down[0]!.evidence).toEqual(['nodetool ring from this node: 10.240.0.23 DN']);
    // 10.240.0.23 appears with 1 token, 10.240.0.28 with dozens: a cut paste, not a ring to judge primary ranges on.
    expect(r.findings.map((f) => f.id)).not.toContain('ownership.primary-range-skew');
  });
});

describe('Seastar AIO start-up failure in a Docker cluster on macOS (scylladb#16806)', () => {
  it('the fix names both ways out: raise fs.aio-max-nr, or where it cannot be raised start with --reactor-backend=epoll', () => {
    const r = interpretText(rw('log_supervisord-aio-setup-fatal-macos-docker-cut_scylla16806.txt'));
    const f = r.findings.find((x) => x.id === 'scylla-host.aio-max-nr-below-need');
    expect(f?.severity).toBe('critical');
    expect(f?.recommendation).toMatch(/Docker Desktop on macOS\), start ScyllaDB with --reactor-backend=epoll/);
    expect(f?.knowledgeIds).toContain('scylla-host.reactor-backend-epoll');
  });
});

describe('nodetool status with the address column blanked out of the paste (scylladb/scylladb#2631)', () => {
  const text = [
    '$ nodetool status',
    'Datacenter: datacenter1',
    '=======================',
    'Status=Up/Down',
    '|/ State=Normal/Leaving/Joining/Moving',
    '--  Address        Load       Tokens       Owns    Host ID                               Rack',
    'UN      141.35 GB  256          ?       ccda8c3f-ec55-4020-9591-945fad0c100c  rack1',
    'DN      184.49 GB  256          ?       e1465f3a-9d8b-48ef-9b16-4c6ff5557c50  rack1',
    'UN      165.21 GB  256          ?       <redacted>  rack1',
  ].join('\n');

  it('reads every row, names each by its host ID (or row), marks it never to be contacted, and says so once', () => {
    const r = parseStatus(text);
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.nodes.map((n) => [n.address, n.code, n.loadText, n.addressProblem])).toEqual([
      ['(no address) ccda8c3f', 'UN', '141.35 GB', 'the address column is blank (removed from the paste)'],
      ['(no address) e1465f3a', 'DN', '184.49 GB', 'the address column is blank (removed from the paste)'],
      ['(no address) row 3', 'UN', '165.21 GB', 'the address column is blank (removed from the paste)'],
    ]);
    expect(r.warnings.filter((w) => w.includes('have no address'))).toEqual([
      '3 node row(s) have no address (the address column is blank (removed from the paste)): named "(no address)" and their host ID\'s first group; nothing connects to them',
    ]);
  });

  it('a down node without an address is still reported down', () => {
    const down = interpretText(text).findings.filter((f) => f.id === 'topology.node-down');
    expect(down.map((f) => f.node)).toEqual(['(no address) e1465f3a']);
  });
});

describe('nodetool status rows pasted without a header, every address masked as "<ip>" (scylladb/scylladb#1731)', () => {
  const rows = [
    'UN  <ip>   ?          256     ?       e54bd15e-ca1b-47dd-b32b-fef60db019a4  RAC2',
    'UJ  <ip>   0 bytes    256     ?       b2a21f57-7900-4cc4-ad28-fe2455fa4103  RAC1',
    'UN  <ip>   ?          256     ?       618bf929-4a48-4208-93ea-94bded2ac20d  RAC1',
  ].join('\n');

  it('tells the rows apart by host ID, warns once for the masked address and once for the missing header', () => {
    const r = parseStatus(rows);
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.nodes.map((n) => n.address)).toEqual(['<ip> (host e54bd15e)', '<ip> (host b2a21f57)', '<ip> (host 618bf929)']);
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toContain('(3 rows, told apart by host ID): kept as printed, but nothing connects to them');
    expect(r.warnings[1]).toContain('3 node row(s) without the "Datacenter:" and "-- Address" header');
  });

  it('the joining node is named by its host ID, and unequal racks are qualified as counted among the rows pasted', () => {
    const f = interpretText(rows).findings;
    expect(f.find((x) => x.id === 'topology.node-transition')?.node).toBe('<ip> (host b2a21f57)');
    const racks = f.find((x) => x.id === 'ownership.unequal-racks');
    expect(racks?.title).toBe('Racks in the DC have different node counts among the rows pasted (RAC2: 1, RAC1: 2)');
    expect(racks?.confidence).toBe('low');
  });
});

describe('load imbalance while a node joins, ownership not shown (scylladb/scylladb#1269)', () => {
  const text = [
    'Datacenter: datacenter1',
    '=======================',
    'Status=Up/Down',
    '|/ State=Normal/Leaving/Joining/Moving',
    '--  Address       Load       Tokens  Owns    Host ID                               Rack',
    'UN  172.30.0.178  859.58 MB  256     ?       a840f703-5417-474a-9926-faf4551cd890  rack1',
    'UN  172.30.0.179  1019.47 MB  256     ?       b98fe02f-bb57-424e-86bd-e5efa4c3552a  rack1',
    'UJ  172.30.0.225  ?          256     ?       5a1ce44c-8bac-4c27-b3ea-dd4c9127a955  rack1',
    'UN  172.30.0.177  4.96 GB    256     ?       4a0c7876-f6e2-4908-94fd-b8d1fece5eed  rack1',
  ].join('\n');

  it('is a warning, not critical, and the fix names the joining node, the unknown ownership and cleanup', () => {
    const f = interpretText(text).findings.find((x) => x.id === 'topology.load-imbalance');
    expect(f?.severity).toBe('warning');
    expect(f!.recommendation).toContain('172.30.0.225 is UJ: data is moving');
    expect(f!.recommendation).toContain('Ownership is not shown');
    expect(f!.recommendation).toContain('nodetool cleanup');
  });

  it('without a node in transition the same spread stays critical', () => {
    const f = interpretText(text.replace('UJ  172.30.0.225', 'UN  172.30.0.225')).findings.find((x) => x.id === 'topology.load-imbalance');
    expect(f?.severity).toBe('critical');
  });
});

describe('tablehistograms pasted without its "ks/table histograms" title', () => {
  it('names the table as not named in the output, not "?.?"', () => {
    const text = [
      'Percentile SSTables Write Latency Read Latency Partition Size Cell Count',
      '(micros) (micros) (bytes)',
      '50% 2.00 0.00 8239.00 924 20',
      '75% 4.00 0.00 9887.00 1109 20',
      '95% 4.00 0.00 51012.00 1916 24',
      '98% 4.00 0.00 61214.00 2299 29',
      '99% 4.00 0.00 73457.00 2759 35',
      'Min 0.00 0.00 36.00 150 3',
      'Max 4.00 0.00 88148.00 3311 42',
    ].join('\n');
    const f = interpretText(text).findings.find((x) => x.id === 'table.sstables-per-read');
    expect(f?.title).toBe('Reads of the table (not named in the output) touch 4 SSTables at p99');
  });
});

describe('nodetool status: a hostile paste of one masked address on 50,000 rows', () => {
  it('is read in linear time (a copy per row made this quadratic: minutes for 100,000 rows)', () => {
    const rows = ['Datacenter: dc1', '--  Address  Load  Tokens  Owns  Host ID  Rack'];
    for (let i = 0; i < 50_000; i++) rows.push(`UN  <ip>  1.0 GB  16  ?  ${String(i).padStart(8, '0')}-1111-2222-3333-444444444444  r1`);
    const t0 = performance.now();
    const r = parseStatus(rows.join('\n'));
    const ms = performance.now() - t0;
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.nodes).toHaveLength(50_000);
    expect(r.value.nodes[49_999]!.address).toBe('<ip> (host 00049999)');
    expect(ms).toBeLessThan(3000);
  });
});

describe('every node DN but the one that ran nodetool (scylladb/scylladb#2015)', () => {
  const text = rw('status_prompt-eight-dn-seen-from-sick-node_scylla2015.txt');

  it('points at the observer first and marks the eight DN rows unconfirmed', () => {
    const r = interpretText(text);
    const iso = r.findings.filter((f) => f.id === 'topology.observer-isolated');
    expect(iso).toHaveLength(1);
    expect(iso[0]!.severity).toBe('critical');
    expect(iso[0]!.title).toMatch(/^Only 10\.14\.101\.6 is up .* the other 8 of 9 nodes are DN/);
    const down = r.findings.filter((f) => f.id === 'topology.node-down');
    expect(down).toHaveLength(8);
    expect(down.every((f) => f.severity === 'warning' && f.title.endsWith(', unconfirmed'))).toBe(true);
    expect(r.findings.filter((f) => f.severity === 'critical').map((f) => f.id)).toEqual(['topology.observer-isolated']);
  });

  it('one node down of three, or two views that disagree, keep node-down critical', () => {
    const three = [
      '--  Address    Load       Tokens  Owns    Host ID                               Rack',
      'UN  10.0.0.1   1.1 GiB    16      ?       11111111-1111-1111-1111-111111111111  r1',
      'DN  10.0.0.2   1.2 GiB    16      ?       22222222-2222-2222-2222-222222222222  r1',
      'DN  10.0.0.3   1.0 GiB    16      ?       33333333-3333-3333-3333-333333333333  r1',
    ].join('\n');
    const r = interpretText(three);
    expect(r.findings.some((f) => f.id === 'topology.observer-isolated')).toBe(false); // 3 nodes: two crashes are as likely
    expect(r.findings.filter((f) => f.id === 'topology.node-down').map((f) => f.severity)).toEqual(['critical', 'critical']);
    const four = `${three}\nUN  10.0.0.4   1.0 GiB    16      ?       44444444-4444-4444-4444-444444444444  r1`;
    expect(interpretText(four).findings.some((f) => f.id === 'topology.observer-isolated')).toBe(false); // two nodes up
  });
});

describe('nodetool ring of Cassandra 1.0, quoted, with its DC column and markdown bold (apache/whirr#4)', () => {
  it('reads both rows, each with its datacenter, and the bold ownership as a number', () => {
    const r = interpretText(rw('ring_two-node-initial-token_whirr4.txt'));
    expect(r.kind).toBe('nodetool.ring');
    expect(r.summary).toMatch(/^2 node\(s\) in 1 DC\(s\), 2 token row\(s\): 2 up normal/);
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const text = [
      'Address         DC          Rack        Status State   Load            Owns    Token',
      '10.0.0.1        dc-east     rack1       Up     Normal  13.48 KB        50.00%  1',
      '10.0.0.2        dc-west     rack1       Down   Normal  6.67 KB         50.00%  2',
    ].join('\n');
    const d = detect(text);
    expect(d.ok && d.kind).toBe('nodetool.ring');
    const p = d.ok
      ? (d.parsed.value as { datacenters: string[]; nodes: { address: string; datacenter: string; ownsPercent: number | null; status: string }[] })
      : null;
    expect(p?.datacenters).toEqual(['dc-east', 'dc-west']);
    expect(p?.nodes.map((n) => [n.address, n.datacenter, n.ownsPercent, n.status])).toEqual([
      ['10.0.0.1', 'dc-east', 50, 'up'],
      ['10.0.0.2', 'dc-west', 50, 'down'],
    ]);
  });
});

describe('nodetool status pasted as the added lines of a diff (openebs/openebs#887)', () => {
  it("strips the diff's '+' and reads the two UN nodes; a '+++ b/file' header is not taken for a marked line", () => {
    const r = interpretText(rw('status_diff-readme-two-un_openebs887.txt'));
    expect(r.kind).toBe('nodetool.status');
    expect(r.summary).toMatch(/2 UN \(read after stripping a diff's '\+' marks\)/);
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const withHeader = `+++ b/README.md\n${rw('status_diff-readme-two-un_openebs887.txt')}`;
    expect(interpretText(withHeader).kind).toBe('nodetool.status');
  });
});
