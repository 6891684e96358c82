import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseCqlshTables } from '../../mcp-server/src/core/parse/cqlsh-table.js';
import { fixture } from '../helpers/corpus.js';

describe('cqlsh result tables (real pastes)', () => {
  it('reads the Cassandra 4.0 docs example of system_views.clients, null cells as null', () => {
    const p = parseCqlshTables(fixture('clients/c40-docs-cqlsh-clients.txt'));
    if (!p.ok) throw new Error(p.reason);
    expect(p.warnings).toEqual([]);
    const [r] = p.value.results;
    expect(r!.from).toBe('system_views.clients');
    expect(r!.rowsDeclared).toBe(2);
    expect(r!.table.rows).toHaveLength(2);
    expect(r!.table.rows[0]).toMatchObject({
      address: '127.0.0.1',
      port: '50628',
      protocol_version: '4',
      request_count: '55',
      driver_name: null,
      ssl_enabled: 'False',
    });
  });
  it('reads a lab cqlsh output under its version warning', () => {
    const p = parseCqlshTables(fixture('ownership/c509-cluster3-cqlsh-peers.txt'));
    if (!p.ok) throw new Error(p.reason);
    expect(p.value.results[0]!.table.rows).toEqual([
      { peer: '127.0.0.1', data_center: 'datacenter1', rack: 'rack1', release_version: '5.0.9' },
      { peer: '127.0.0.2', data_center: 'datacenter1', rack: 'rack1', release_version: '5.0.9' },
    ]);
  });
  it('is detected as cql.table, and a TSV stays cql.tsv', () => {
    expect(detect(fixture('clients/c40-docs-cqlsh-clients.txt'))).toMatchObject({ ok: true, kind: 'cql.table' });
    expect(detect(fixture('clients/c4110-vt-clients.tsv'))).toMatchObject({ ok: true, kind: 'cql.tsv' });
  });
  it('keeps a "|" inside an aligned cell, and says when rows do not match the footer', () => {
    const text = [' name | value', '------+--------', ' a    | x | y  ', ' b    | z', '', '(3 rows)'].join('\n');
    const p = parseCqlshTables(text);
    if (!p.ok) throw new Error(p.reason);
    expect(p.value.results[0]!.table.rows).toEqual([
      { name: 'a', value: 'x | y' },
      { name: 'b', value: 'z' },
    ]);
    expect(p.warnings.join(' ')).toMatch(/footer says 3 row\(s\), 2 read/);
  });
  it('refuses text with no result table', () => {
    expect(parseCqlshTables('just words\nmore words').ok).toBe(false);
  });
});
