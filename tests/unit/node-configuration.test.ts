import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import { parseNodeConfiguration } from '../../mcp-server/src/core/parse/logs/node-configuration.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';
import { nodeConfigurationYaml } from '../../mcp-server/src/core/rules/log-node-configuration.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { analyzeLogFiles } from '../../mcp-server/src/ops/analyze-logs.js';

// A real start of Cassandra 4.1.10 in the local lab (tests/fixtures/lab-incident-outputs/README.md).
const LOG = readFileSync(join(FIXTURES_DIR, 'lab-incident-outputs', 'system-log-3node-start-4.1.10-node1.log'), 'utf8');
const LINE = LOG.split('\n').find((l) => l.includes('Node configuration:['))!;

describe('"Node configuration:[…]" start-up line', () => {
  it('Cassandra 4.1.10: every field, nested values whole, the Java array identity left out', () => {
    const r = parseLogs(LOG);
    if (!r.ok) throw new Error(r.reason);
    const c = r.value.startup.nodeConfiguration!;
    expect(c.complete).toBe(true);
    expect(Object.keys(c.settings).length).toBeGreaterThan(200);
    expect(c.settings['concurrent_reads']).toBe('32');
    expect(c.settings['num_tokens']).toBe('16');
    expect(c.settings['seed_provider']).toBe('org.apache.cassandra.locator.SimpleSeedProvider{seeds=127.0.0.1:7000}');
    // "AuditLogOptions{…, logger='BinAuditLogger{}', …}": braces inside quotes do not end the value
    expect(c.settings['audit_logging_options']).toMatch(/^AuditLogOptions\{enabled=false, logger='BinAuditLogger\{\}'.*\}$/);
    expect(c.settings['data_file_directories']).toBeUndefined();
    expect(c.settings['allocate_tokens_for_keyspace']).toBe('null');
  });

  it('a line cut mid-way keeps its whole pairs and says it is cut', () => {
    const at = LINE.indexOf('Node configuration:');
    const cut = LINE.slice(0, LINE.indexOf('concurrent_reads=') + 'concurrent_re'.length);
    const c = parseNodeConfiguration(cut, at + 19)!;
    expect(c.complete).toBe(false);
    expect(c.settings['concurrent_reads']).toBeUndefined();
    expect(c.settings['allocate_tokens_for_keyspace']).toBe('null');
    expect(parseNodeConfiguration('Node configuration: nothing', 0)).toBeNull();
  });

  it('secrets are not kept; hostile nesting stays linear and bounded', () => {
    const c = parseNodeConfiguration('[a=1; keystore_password=hunter2; trust_secret=x; b={[(; c=2]', 0)!;
    expect(c.settings).toEqual({ a: '1' });
    expect(c.complete).toBe(false);
    const big = `[${'x={'.repeat(100_000)}]`;
    const t0 = performance.now();
    expect(parseNodeConfiguration(big, 0)!.complete).toBe(false);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});

describe('the logged settings judged like a cassandra.yaml', () => {
  it('a healthy 4.1.10 lab node: value rules checked, nothing found', () => {
    const r = interpretText(LOG);
    expect(r.findings.filter((f) => f.id.startsWith('config.'))).toEqual([]);
    expect(r.checked.some((c) => c.rule.startsWith('config.') && c.checked)).toBe(true);
  });
  it('Apache Cassandra 3.11.5 (sperf test data): num_tokens 256 read from the log, with its source named', async () => {
    const r = await analyzeLogFiles([join(FIXTURES_DIR, 'sperf', 'cassandra311-system.log')]);
    const f = r.findings.find((x) => x.id === 'config.yaml.num-tokens-legacy');
    expect(f?.evidence.join('\n')).toContain('system.log "Node configuration" line');
  });
  it('structured values are left out, odd scalars quoted', () => {
    expect(nodeConfigurationYaml({ a: '1', b: 'x{y}', c: 'it is: odd', d: '64MiB/s', e: 'null' })).toBe('a: 1\nc: "it is: odd"\nd: 64MiB/s\ne: null');
  });
});
