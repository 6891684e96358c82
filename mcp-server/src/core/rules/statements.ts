/**
 * Unprepared statements: system_views.cql_metrics (Cassandra 4.1+) counts prepared and regular (unprepared)
 * executions since the node started. A node where most executions are unprepared serves an application that
 * builds CQL text per request; system_views.clients names the connections that sent most requests.
 */
import type { ClientFact } from '../facts/node-facts.js';
import type { Finding } from '../findings.js';
import { numberOf } from '../knowledge/index.js';
import { fmtNum, grade, outcome, type Rule } from './rule.js';

/** Client connections named per finding: the busiest few are where to look. */
const TOP_CLIENTS = 3;

const fmtUptime = (s: number) => (s >= 86_400 ? `${fmtNum(s / 86_400)} d` : s >= 3600 ? `${fmtNum(s / 3600)} h` : `${Math.round(s / 60)} min`);

function busiestClients(clients: readonly ClientFact[]): string[] {
  return [...clients]
    .filter((c) => (c.requests ?? 0) > 0)
    .sort((a, b) => (b.requests ?? 0) - (a.requests ?? 0))
    .slice(0, TOP_CLIENTS)
    .map((c) => {
      const who = `${c.address}${c.port !== null ? `:${c.port}` : ''} ${c.driverName ?? '?'} ${c.driverVersion ?? ''}`.trim();
      return `${who}: ${c.requests} request(s) [system_views.clients]`;
    });
}

export const statementsRule: Rule = {
  id: 'statements',
  checks: 'share of unprepared statement executions per node (system_views.cql_metrics, Cassandra 4.1+)',
  dependsOn: ['facts:cqlMetrics'],
  run(input, ctx) {
    const withMetrics = input.nodes.filter((n) => n.facts.cqlMetrics);
    const floor = numberOf('client.unprepared-statements.floor');
    const findings: Finding[] = [];
    for (const n of withMetrics) {
      const m = n.facts.cqlMetrics!;
      const regular = m.regularExecuted ?? 0;
      const prepared = m.preparedExecuted ?? 0;
      if (regular < floor) continue;
      const share = (regular / (regular + prepared)) * 100;
      const sev = grade(ctx, share, 'client.unprepared-statements');
      if (!sev) continue;
      const up = n.facts.uptimeSeconds;
      const since = up ? `since the node started ${fmtUptime(up)} ago` : 'since the node started';
      findings.push({
        id: 'clients.unprepared-statements',
        severity: sev,
        title: `${fmtNum(share, 0)} % of the statements ${n.node} executed were not prepared (${regular} of ${regular + prepared})`,
        evidence: [
          `${n.node}: regular_statements_executed ${regular}, prepared_statements_executed ${prepared} ${since} [system_views.cql_metrics]`,
          ...busiestClients(n.facts.clients ?? []).map((l) => `${n.node}: ${l}`),
        ],
        node: n.node,
        when: since,
        recommendation:
          'Prepare each statement once (session.prepare) and execute it with bound values: the node then parses it once and a token-aware driver ' +
          'routes it to a replica. Look for CQL built by string concatenation in the clients that send most requests.',
        knowledgeIds: ['client.unprepared-statements', 'client.unprepared-statements.floor'],
        confidence: 'high',
      });
    }
    return outcome('statements', findings);
  },
};
