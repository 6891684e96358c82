import { describe, expect, it } from 'vitest';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { fixture } from '../helpers/corpus.js';

// ScyllaDB's unpaged-read tombstone limit (query_tombstone_page_limit), as pasted in scylladb/scylladb#16564.
const LINE =
  'ERROR 2023-12-29 21:44:10,790 [shard  6] storage_proxy - Exception when communicating with 192.168.56.47, to read from keyspace1.candidates: ' +
  'std::runtime_error (Tombstones processed by unpaged query exceeds limit of 10000 (configured via query_tombstone_page_limit))';

describe('ScyllaDB unpaged query tombstone limit', () => {
  it('is a tombstone abort on the table read, with the limit', () => {
    const r = parseLogs(`${LINE}\n`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.tombstones.aborts).toBe(1);
    expect(r.value.tombstones.byTable[0]).toMatchObject({ table: 'keyspace1.candidates', aborts: 1, maxTombstones: 10000 });
  });

  it('the Kibana-prefixed paste of the thread gives log.tombstones', async () => {
    const r = interpretText(fixture('real-world/log_kibana-prefix-unpaged-tombstones_scylla16564.txt'));
    expect(r.findings.map((f) => f.id)).toContain('log.tombstones');
  });
});

describe('ScyllaDB repair failure lines', () => {
  it('"repair_tracker run for repair id N failed" in a journald paste gives log.repair-failures', async () => {
    const r = interpretText(fixture('real-world/log_journal-repair-failed-all-shards_scylla6120.txt'));
    expect(r.findings.map((f) => f.id)).toContain('log.repair-failures');
  });

  it('a successful repair line is not a failure', () => {
    const r = parseLogs('INFO  2023-03-31 16:25:08,000 [shard 0] repair - repair id 4 on shard 0 completed successfully\n');
    expect(r.ok && r.value.events.repairFailure.count).toBe(0);
  });
});
