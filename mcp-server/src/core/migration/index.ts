/** migration_review: the checklist for one migration, dispatched on products and versions. PURE. */
import { cassandraUpgradeChecklist } from './cassandra-upgrade.js';
import { countAndVerdict } from './common.js';
import { toScyllaChecklist } from './to-scylla.js';
import { postgresToCqlChecklist } from './postgres-to-cql.js';
import { toTabletsChecklist } from './to-tablets.js';
import type { MigrationInput, MigrationKind, MigrationReview } from './types.js';

export type { ChecklistItem, ChecklistStatus, ClusterFacts, Endpoint, MigrationInput, MigrationKind, MigrationReview } from './types.js';
export { upgradePath } from './cassandra-upgrade.js';
export { cqlIdent, mapPgType, postgresToCqlChecklist } from './postgres-to-cql.js';
export { describePattern, parseAccessPattern, patternName, type AccessPattern } from './postgres-patterns.js';
export type { CqlProposal, ProposedColumn, ProposedTable } from './types.js';

export function migrationKind(input: MigrationInput): MigrationKind {
  if (input.kind) return input.kind;
  const { from, to } = input;
  if (from.product === 'postgres') {
    if (to.product === 'postgres') throw new RangeError('PostgreSQL → PostgreSQL is not a migration this review covers');
    return 'postgres-to-cql';
  }
  if (to.product === 'postgres') throw new RangeError('a move to PostgreSQL is not a migration this review covers');
  if (from.product === 'cassandra' && to.product === 'cassandra') return 'cassandra-upgrade';
  if (from.product === 'cassandra' && to.product === 'scylla') return 'cassandra-to-scylla';
  if (from.product === 'scylla' && to.product === 'scylla') return 'vnodes-to-tablets';
  throw new RangeError('ScyllaDB → Cassandra is not a migration this review covers');
}

/** Throws RangeError on impossible inputs (unknown versions, unsupported direction). */
export function reviewMigration(input: MigrationInput): MigrationReview {
  const kind = migrationKind(input);
  if (kind === 'postgres-to-cql') return reviewPostgres(input);
  if (input.from.product === 'postgres' || input.to.product === 'postgres') throw new RangeError(`${kind} does not take a PostgreSQL endpoint`);
  if (kind === 'cassandra-upgrade' && (input.from.product !== 'cassandra' || input.to.product !== 'cassandra'))
    throw new RangeError('a Cassandra upgrade goes from cassandra to cassandra');
  if (kind === 'cassandra-to-scylla' && (input.from.product !== 'cassandra' || input.to.product !== 'scylla'))
    throw new RangeError('cassandra-to-scylla goes from cassandra to scylla');
  if (kind === 'vnodes-to-tablets' && input.to.product !== 'scylla') throw new RangeError('vnodes-to-tablets needs a ScyllaDB target');
  const { path, items } =
    kind === 'cassandra-upgrade' ? cassandraUpgradeChecklist(input) : kind === 'cassandra-to-scylla' ? toScyllaChecklist(input) : toTabletsChecklist(input);
  const order = { blocker: 0, action: 1, ok: 2 } as const;
  const sorted = [...items].sort((a, b) => order[a.status] - order[b.status] || (a.step ?? 99) - (b.step ?? 99));
  const warnings: string[] = [];
  if (!input.configText && kind !== 'vnodes-to-tablets') warnings.push('no cassandra.yaml: config items not checked');
  if (!input.schema) warnings.push('no schema: schema items not checked');
  if (!input.cluster) warnings.push('no snapshot: clients, schema agreement and versions not checked');
  return {
    kind,
    from: input.from,
    to: input.to,
    path,
    items: sorted,
    ...countAndVerdict(items),
    inputs: { config: input.configText !== undefined, schema: input.schema !== undefined, cluster: input.cluster !== undefined },
    warnings,
  };
}

function reviewPostgres(input: MigrationInput): MigrationReview {
  if (input.from.product !== 'postgres' || input.to.product === 'postgres') throw new RangeError('postgres-to-cql goes from postgres to cassandra or scylla');
  const r = postgresToCqlChecklist(input);
  const order = { blocker: 0, action: 1, ok: 2 } as const;
  const items = [...r.items].sort((a, b) => order[a.status] - order[b.status]);
  return {
    kind: 'postgres-to-cql',
    from: input.from,
    to: input.to,
    path: r.path,
    items,
    ...countAndVerdict(items),
    inputs: { config: false, schema: false, cluster: false, ddl: input.postgres !== undefined, patterns: input.postgres?.patterns.length ?? 0 },
    ...(r.proposal ? { proposal: r.proposal } : {}),
    warnings: r.warnings,
  };
}
