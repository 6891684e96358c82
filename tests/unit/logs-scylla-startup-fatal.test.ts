/**
 * ScyllaDB's start-up failure (main.cc@scylla-6.2.3: "FATAL: Exception during startup, aborting: <exception>" on
 * stderr, exit status 7; kb logs.scylla-startup-fatal) read from a log, as supervisord puts it between the log lines
 * (scylladb/scylladb#16806, tests/fixtures/real-world/log_supervisord-aio-setup-fatal-macos-docker-cut_scylla16806.txt).
 */
import { describe, expect, it } from 'vitest';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { fixture } from '../helpers/corpus.js';

const fatal = fixture('real-world/log_supervisord-aio-setup-fatal-macos-docker-cut_scylla16806.txt')
  .split('\n')
  .find((l) => l.startsWith('FATAL:'))!;
const judge = (text: string) => {
  const p = parseLogs(text);
  if (!p.ok) throw new Error(p.reason);
  return { facts: p.value, findings: runRules({ origin: 't', nodes: [{ ...nodeEvidence('n1', true, { facts: {}, nodetool: {} }), logs: p.value }] }).findings };
};
const scyllaLines = (n: number) =>
  Array.from({ length: n }, (_, i) => `INFO  2024-01-16 18:40:${String(i % 60).padStart(2, '0')},000 [shard 0] init - starting step ${i}`);

describe('ScyllaDB start-up failure in a log (log.startup-failure)', () => {
  it('the FATAL line among the log lines is a start-up failure, and Async I/O gets the fs.aio-max-nr fix', () => {
    const { facts, findings } = judge([...scyllaLines(90), fatal].join('\n'));
    expect(facts.startupFailures.count).toBe(1);
    expect(facts.startupFailures.exceptions[0]).toMatch(/^std::runtime_error \(Could not setup Async I\/O: Resource temporarily unavailable/);
    const f = findings.find((x) => x.id === 'log.startup-failure')!;
    expect(f.severity).toBe('critical');
    expect(f.recommendation).toMatch(/^ScyllaDB exits \(status 7\) when it cannot set up Async I\/O/);
    expect(f.recommendation).toMatch(/--reactor-backend=epoll/);
    expect(f.knowledgeIds).toEqual(['logs.scylla-startup-fatal', 'scylla-host.aio-per-shard', 'scylla-host.reactor-backend-epoll']);
  });

  it('another ScyllaDB exception gets the general advice; a Cassandra one keeps Cassandra’s', () => {
    const other = 'FATAL: Exception during startup, aborting: std::system_error (error system:13, Permission denied)';
    const s = judge([...scyllaLines(5), other].join('\n')).findings.find((x) => x.id === 'log.startup-failure')!;
    expect(s.knowledgeIds).toEqual(['logs.scylla-startup-fatal']);
    expect(s.title).toMatch(/stopped at startup: std::system_error \(error system:13, Permission denied\)/);
    const c = judge(
      'ERROR [main] 2024-01-16 18:40:44,263 CassandraDaemon.java:911 - Exception encountered during startup\njava.lang.RuntimeException: Cannot replace address with a node that is already bootstrapped',
    ).findings.find((x) => x.id === 'log.startup-failure')!;
    expect(c.knowledgeIds).toEqual(['logs.startup-exception']);
  });

  it('any exception on the FATAL line is ScyllaDB’s (exceptions::configuration_exception, not only std::)', () => {
    const cfg = 'FATAL: Exception during startup, aborting: exceptions::configuration_exception (Invalid value for num_tokens)';
    const { facts, findings } = judge([...scyllaLines(5), cfg].join('\n'));
    expect(facts.startupFailures).toMatchObject({ count: 1, scylla: 1 });
    const f = findings.find((x) => x.id === 'log.startup-failure')!;
    expect(f.knowledgeIds).toEqual(['logs.scylla-startup-fatal']);
    expect(f.recommendation).toMatch(/^ScyllaDB exits \(status 7\)/);
  });

  it('prose that merely mentions the words is not a failure', () => {
    const { facts } = judge([...scyllaLines(5), 'INFO  2024-01-16 18:41:00,000 [shard 0] init - no Exception during startup, aborting nothing'].join('\n'));
    expect(facts.startupFailures.count).toBe(0);
  });
});
