import { Command } from 'commander';
import type { Endpoint, MigrationKind } from '../../core/migration/index.js';
import { migrationReview, renderMigrationReview } from '../../ops/migration.js';
import { failWith, printJson, printText } from '../output.js';

/** "cassandra:3.11.16", "scylla:2025.1" or a bare version (Cassandra). */
function endpoint(v: string): Endpoint {
  const m = /^(?:(cassandra|scylla)[:@ ])?(.+)$/i.exec(v.trim());
  const product = (m?.[1]?.toLowerCase() ?? 'cassandra') as Endpoint['product'];
  return { product, version: m?.[2] ?? v };
}

export function migrationReviewCommand(): Command {
  return new Command('migration-review')
    .description('checklist (ok / action / blocker with evidence) for a Cassandra upgrade, Cassandra → ScyllaDB, or ScyllaDB vnodes → tablets')
    .requiredOption('--from <product:version>', 'current version, e.g. 3.11.16 or cassandra:4.1.10')
    .requiredOption('--to <product:version>', 'target, e.g. 5.0 or scylla:2025.1')
    .option('--kind <kind>', 'cassandra-upgrade | cassandra-to-scylla | vnodes-to-tablets (default: from the products)')
    .option('--config <file>', 'cassandra.yaml of a node')
    .option('--schema <file>', 'DESCRIBE SCHEMA output')
    .option('--bundle <dir>', 'snapshot bundle (clients, versions, schema versions)')
    .option('--json', 'print the review as JSON')
    .action(async (o: { from: string; to: string; kind?: string; config?: string; schema?: string; bundle?: string; json?: boolean }) => {
      try {
        if (o.kind !== undefined && !['cassandra-upgrade', 'cassandra-to-scylla', 'vnodes-to-tablets'].includes(o.kind)) {
          throw Object.assign(new Error(`--kind ${o.kind}`), { code: 'BAD_ARGUMENT', fix: 'Use cassandra-upgrade, cassandra-to-scylla or vnodes-to-tablets.' });
        }
        const r = await migrationReview({
          from: endpoint(o.from),
          to: endpoint(o.to),
          ...(o.kind ? { kind: o.kind as MigrationKind } : {}),
          ...(o.config ? { configFile: o.config } : {}),
          ...(o.schema ? { schemaFile: o.schema } : {}),
          ...(o.bundle ? { bundleDir: o.bundle } : {}),
        });
        if (o.json) printJson(r);
        else printText(renderMigrationReview(r));
        if (r.verdict === 'blocked') process.exitCode = 1;
      } catch (e) {
        failWith(e, o);
      }
    });
}
