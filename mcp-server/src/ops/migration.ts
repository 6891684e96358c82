import { readNamedFile } from '../collect/safe-file.js';
import {
  parseAccessPattern,
  reviewMigration,
  type AccessPattern,
  type ClusterFacts,
  type Endpoint,
  type MigrationKind,
  type MigrationReview,
} from '../core/migration/index.js';
import { OpError } from './errors.js';
import { parseOffThread } from './off-thread.js';
import { fileRefusedError } from './saved-output.js';
import { analyzeBundle, type ClusterSnapshot } from './snapshot.js';
import { z } from 'zod';
import { MAX_INPUT_TEXT_CHARS } from './input-schemas.js';

const endpointSchema = z.object({ product: z.enum(['cassandra', 'scylla', 'postgres']), version: z.string().min(1).max(40) });

const accessPatternSchema = z.object({
  name: z.string().max(48).optional(),
  table: z.string().min(1).max(128),
  where: z.array(z.string().max(128)).max(16).describe('equality columns: the partition key'),
  range: z.array(z.string().max(128)).max(8).optional(),
  orderBy: z
    .array(z.object({ col: z.string().max(128), desc: z.boolean().optional() }))
    .max(8)
    .optional(),
  limit: z.number().int().positive().optional(),
  frequency: z.string().max(40).optional(),
  join: z.array(z.string().max(128)).max(8).optional().describe('related tables joined by foreign key'),
  rowsPerKeyPerDay: z.number().nonnegative().optional().describe('rows added per partition key per day (most active key): sizes the time bucket'),
  maxRowsPerKey: z.number().int().positive().optional(),
});

/** migration_review's input, registered by the MCP tool and checked by `cql-tuner migration-review`. */
export const migrationReviewInputSchema = z.object({
  from: endpointSchema.describe('Current product and version, e.g. {product: cassandra, version: 3.11.16}'),
  to: endpointSchema.describe('Target product and version'),
  kind: z.enum(['cassandra-upgrade', 'cassandra-to-scylla', 'vnodes-to-tablets', 'postgres-to-cql']).optional().describe('Default: from the products'),
  configText: z.string().max(MAX_INPUT_TEXT_CHARS).optional(),
  configFile: z.string().max(4096).optional(),
  schemaText: z.string().max(MAX_INPUT_TEXT_CHARS).optional(),
  schemaFile: z.string().max(4096).optional(),
  bundleDir: z.string().max(4096).optional().describe('Snapshot bundle (cluster_snapshot bundle: true)'),
  ddlText: z.string().max(MAX_INPUT_TEXT_CHARS).optional().describe('PostgreSQL → CQL: pg_dump --schema-only output'),
  ddlFile: z.string().max(4096).optional().describe('PostgreSQL → CQL: path of a pg_dump --schema-only file'),
  accessPatterns: z
    .array(z.union([z.string().max(500), accessPatternSchema]))
    .max(64)
    .optional()
    .describe('PostgreSQL → CQL: the queries, e.g. "orders by user_id order by created_at desc limit 20 ~40/day"'),
  keyspace: z.string().max(48).optional().describe('PostgreSQL → CQL: keyspace for the proposed tables (default: the PostgreSQL schema, or app)'),
});

export interface MigrationReviewInput {
  from: Endpoint;
  to: Endpoint;
  kind?: MigrationKind;
  configText?: string;
  configFile?: string;
  schemaText?: string;
  schemaFile?: string;
  bundleDir?: string;
  /** PostgreSQL → CQL: pg_dump --schema-only text or file, the access patterns and the keyspace name. */
  ddlText?: string;
  ddlFile?: string;
  accessPatterns?: (string | AccessPattern)[];
  keyspace?: string;
}

const MAX_BYTES = 32 * 1024 * 1024;

/** A file named by a caller, read through collect/safe-file.ts (the policy every tool shares for named files). */
async function readText(path: string, what: string): Promise<string> {
  const r = await readNamedFile(path, { maxBytes: MAX_BYTES });
  if (r.ok) return r.text;
  throw fileRefusedError(path, r, `Give the path of the ${what}.`, `Give a ${what} under 32 MiB.`);
}

/** What a snapshot says that a migration cares about. */
export function clusterFactsFromSnapshot(s: ClusterSnapshot): ClusterFacts {
  const reachable = s.nodes.filter((n) => n.reachable);
  const uniq = (xs: (string | null | undefined)[]) => [...new Set(xs.filter((x): x is string => !!x))].sort();
  // Clients are per coordinator node: the same application shows up on every node it talks to.
  return {
    nodes: s.nodes.length,
    releaseVersions: uniq(reachable.map((n) => n.releaseVersion)),
    schemaVersions: uniq(reachable.map((n) => n.facts.schemaVersion)),
    datacenters: uniq(s.nodes.map((n) => n.datacenter)),
    clients: reachable.flatMap((n) => n.facts.clients ?? []),
    sstableTasks: reachable.flatMap((n) => n.facts.sstableTasks ?? []),
  };
}

const VERSION = /^\d{1,4}(?:\.\d{1,4}){0,3}(?:-[A-Za-z0-9.]+)?$/;

export async function migrationReview(input: MigrationReviewInput): Promise<MigrationReview> {
  if (input.from.product === 'postgres' || input.to.product === 'postgres') return postgresReview(input);
  for (const [name, e] of [
    ['from', input.from],
    ['to', input.to],
  ] as const) {
    if (!VERSION.test(e.version))
      throw new OpError('BAD_ARGUMENT', `${name} version "${e.version}" is not a version`, 'Give versions like 3.11.16, 4.1, 5.0.2 or 2025.1.');
  }
  if (input.configText !== undefined && input.configFile !== undefined)
    throw new OpError('BAD_ARGUMENT', 'give configText or configFile, not both', 'Pick one.');
  if (input.schemaText !== undefined && input.schemaFile !== undefined)
    throw new OpError('BAD_ARGUMENT', 'give schemaText or schemaFile, not both', 'Pick one.');
  const configText = input.configFile ? await readText(input.configFile, 'cassandra.yaml') : input.configText;
  const schemaText = input.schemaFile ? await readText(input.schemaFile, 'schema file') : input.schemaText;
  let schema;
  if (schemaText !== undefined) {
    // Large texts are parsed off the event loop with a deadline (ops/off-thread.ts).
    const p = await parseOffThread('cqlSchema', schemaText, { what: 'the schema text', chars: schemaText.length });
    if (!p.ok) throw new OpError('NOT_A_SCHEMA', `schema: ${p.reason}`, 'Give DESCRIBE SCHEMA output (CREATE statements ending with ";").');
    schema = p.value;
  }
  const cluster = input.bundleDir ? clusterFactsFromSnapshot(await analyzeBundle(input.bundleDir)) : undefined;
  try {
    return reviewMigration({
      from: input.from,
      to: input.to,
      ...(input.kind ? { kind: input.kind } : {}),
      ...(configText !== undefined ? { configText } : {}),
      ...(schema ? { schema } : {}),
      ...(cluster ? { cluster } : {}),
    });
  } catch (e) {
    if (e instanceof RangeError)
      throw new OpError('BAD_ARGUMENT', e.message, 'Check the products and versions (cassandra → cassandra, cassandra → scylla, scylla vnodes → tablets).');
    throw e;
  }
}

async function postgresReview(input: MigrationReviewInput): Promise<MigrationReview> {
  if (input.to.product === 'postgres' || input.from.product !== 'postgres')
    throw new OpError('BAD_ARGUMENT', 'only PostgreSQL → Cassandra/ScyllaDB is reviewed', 'Use from {product: postgres} and to {product: cassandra|scylla}.');
  if (!VERSION.test(input.to.version))
    throw new OpError('BAD_ARGUMENT', `to version "${input.to.version}" is not a version`, 'Give versions like 5.0 or 2025.1.');
  const fromVersion = input.from.version && input.from.version !== 'unknown' ? input.from.version : 'unknown';
  if (fromVersion !== 'unknown' && !VERSION.test(fromVersion))
    throw new OpError('BAD_ARGUMENT', `from version "${fromVersion}" is not a version`, 'Give the PostgreSQL major, e.g. 16, or leave it out.');
  if (input.ddlText !== undefined && input.ddlFile !== undefined) throw new OpError('BAD_ARGUMENT', 'give ddlText or ddlFile, not both', 'Pick one.');
  const ddl = input.ddlFile ? await readText(input.ddlFile, 'PostgreSQL DDL file') : input.ddlText;
  if (ddl === undefined)
    throw new OpError('BAD_ARGUMENT', 'a PostgreSQL review needs the DDL', 'Give ddlText or ddlFile: the output of pg_dump --schema-only (no data).');
  const parsed = await parseOffThread('postgresDdl', ddl, { what: 'the PostgreSQL DDL', chars: ddl.length });
  if (!parsed.ok)
    throw new OpError(
      'NOT_A_SCHEMA',
      `PostgreSQL DDL: ${parsed.reason}`,
      'Give pg_dump --schema-only output (plain SQL) or CREATE TABLE statements ending with ";".',
    );
  const patterns: AccessPattern[] = [];
  for (const p of input.accessPatterns ?? []) {
    if (typeof p === 'string') {
      const r = parseAccessPattern(p);
      if ('error' in r)
        throw new OpError(
          'BAD_ARGUMENT',
          `access pattern: ${r.error}`,
          'Write patterns as "<table> [with <table>] by <col> [and <col>] [range <col>] [order by <col> desc] [limit N] [~N/day] [max N]".',
        );
      patterns.push(r);
    } else patterns.push(p);
  }
  const keyspace = input.keyspace;
  if (keyspace !== undefined && !/^[A-Za-z][A-Za-z0-9_]{0,47}$/.test(keyspace))
    throw new OpError(
      'BAD_ARGUMENT',
      `keyspace "${keyspace}" is not a CQL keyspace name`,
      'Letters, digits and _ (starting with a letter), at most 48 characters.',
    );
  const r = reviewMigration({
    from: { product: 'postgres', version: fromVersion },
    to: input.to,
    postgres: { schema: parsed.value, patterns, ...(keyspace ? { keyspace } : {}) },
  });
  return { ...r, warnings: [...parsed.warnings.map((w) => `DDL: ${w}`), ...r.warnings] };
}
