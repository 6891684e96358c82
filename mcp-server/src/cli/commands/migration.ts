import { Command } from 'commander';
import type { Endpoint } from '../../core/migration/index.js';
import { migrationReview, migrationReviewInputSchema } from '../../ops/migration.js';
import { renderMigrationReview } from '../../render/migration-review.js';
import { failWith, printJson, printText } from '../output.js';
import { parseFlags } from '../validate-flags.js';

/** "cassandra:3.11.16", "scylla:2025.1", "postgres[:16]" or a bare version (Cassandra). */
function endpoint(v: string): Endpoint {
  const t = v.trim();
  const pg = /^(?:postgres(?:ql)?|pg)(?:[:@ ](.+))?$/i.exec(t);
  if (pg) return { product: 'postgres', version: pg[1] ?? 'unknown' };
  const m = /^(?:(cassandra|scylla)[:@ ])?(.+)$/i.exec(t);
  const product = (m?.[1]?.toLowerCase() ?? 'cassandra') as Endpoint['product'];
  return { product, version: m?.[2] ?? v };
}

const collect = (v: string, acc: string[] = []) => [...acc, v];

export function migrationReviewCommand(): Command {
  return new Command('migration-review')
    .description(
      'checklist (ok / action / blocker with evidence) for a Cassandra upgrade, Cassandra → ScyllaDB, ScyllaDB vnodes → tablets, or a PostgreSQL → CQL data-model review (--from postgres --ddl FILE --pattern …)',
    )
    .requiredOption('--from <product:version>', 'current version, e.g. 3.11.16, cassandra:4.1.10 or postgres[:16]')
    .requiredOption('--to <product:version>', 'target, e.g. 5.0 or scylla:2025.1')
    .option('--kind <kind>', 'cassandra-upgrade | cassandra-to-scylla | vnodes-to-tablets | postgres-to-cql (default: from the products)')
    .option('--config <file>', 'cassandra.yaml of a node')
    .option('--schema <file>', 'DESCRIBE SCHEMA output')
    .option('--bundle <dir>', 'snapshot bundle (clients, versions, schema versions)')
    .option('--ddl <file>', 'PostgreSQL: pg_dump --schema-only output')
    .option('--pattern <text>', 'PostgreSQL: an access pattern, e.g. "orders by user_id order by created_at desc limit 20 ~40/day" (repeatable)', collect)
    .option('--keyspace <name>', 'PostgreSQL: keyspace for the proposed tables')
    .option('--json', 'print the review as JSON')
    .action(
      async (o: {
        from: string;
        to: string;
        kind?: string;
        config?: string;
        schema?: string;
        bundle?: string;
        ddl?: string;
        pattern?: string[];
        keyspace?: string;
        json?: boolean;
      }) => {
        try {
          const input = parseFlags(
            'migration-review',
            migrationReviewInputSchema,
            {
              from: endpoint(o.from),
              to: endpoint(o.to),
              kind: o.kind,
              configFile: o.config,
              schemaFile: o.schema,
              bundleDir: o.bundle,
              ddlFile: o.ddl,
              accessPatterns: o.pattern?.length ? o.pattern : undefined,
              keyspace: o.keyspace,
            },
            { configFile: '--config', schemaFile: '--schema', bundleDir: '--bundle', ddlFile: '--ddl', accessPatterns: '--pattern' },
          );
          const r = await migrationReview(input);
          if (o.json) printJson(r);
          else printText(renderMigrationReview(r));
          if (r.verdict === 'blocked') process.exitCode = 1;
        } catch (e) {
          failWith(e, o);
        }
      },
    );
}
