import { CqlSession } from '../collect/cql-session.js';
import { checkedRow } from '../core/rules/rule.js';
import { grantForUnauthorized } from '../core/cql-connect-errors.js';
import { readNamedFile } from '../collect/safe-file.js';
import { worstFirst } from '../core/findings.js';
import type { CqlSchema } from '../core/parse/schema/index.js';
import { schemaRules, schemaTableRows, type SchemaRuleInput } from '../core/rules/schema.js';
import type { SchemaReview } from '../core/reports/schema-review.js';
import { oldestVersion } from '../core/knowledge/index.js';
import { labStatus } from '../lab/index.js';
import { OpError } from './errors.js';
import { parseOffThread } from './off-thread.js';
import { fileRefusedError } from './saved-output.js';
import type { ProgressFn } from './progress.js';
import { analyzeBundle, type ClusterSnapshot } from './snapshot.js';
import { z } from 'zod';
import { contactPointsSchema, MAX_INPUT_TEXT_CHARS, portSchema, productSchema } from './input-schemas.js';

/**
 * review_schema's input as the MCP tool takes it (detail is the tool's rendering switch, not the operation's).
 * The CLI checks its flags with the same schema.
 */
export const reviewSchemaInputSchema = z.object({
  text: z.string().max(MAX_INPUT_TEXT_CHARS).optional().describe('DESCRIBE SCHEMA / DESCRIBE KEYSPACE output'),
  file: z.string().max(4096).optional().describe('A file holding that output'),
  hosts: contactPointsSchema().optional().describe('Live cluster contact points (server-side DESCRIBE, Cassandra 4.0+)'),
  lab: z.boolean().optional().describe('Use the running local lab'),
  cqlPort: portSchema().optional(),
  bundleDir: z.string().max(4096).optional().describe('Snapshot bundle for per-table sizes, tombstones, read/write counts and DCs'),
  product: productSchema.optional(),
  detail: z.boolean().default(false).describe('Show info findings in the text summary too'),
});

export interface ReviewSchemaInput {
  /** DESCRIBE output pasted as text … */
  text?: string;
  /** … or a file holding it … */
  file?: string;
  /** … or a live cluster (server-side DESCRIBE SCHEMA, Cassandra 4.0+ / recent ScyllaDB). */
  hosts?: string[];
  lab?: boolean;
  cqlPort?: number;
  /** Per-table numbers (sizes, tombstones, read/write counts) and DCs from a snapshot bundle. */
  bundleDir?: string;
  product?: 'cassandra' | 'scylla';
}

const MAX_SCHEMA_BYTES = 32 * 1024 * 1024;

export async function loadSchemaText(
  input: Pick<ReviewSchemaInput, 'text' | 'file' | 'hosts' | 'lab' | 'cqlPort'>,
  signal?: AbortSignal,
): Promise<{ text: string; source: string; datacenters: string[]; versions: string[] }> {
  const given = [input.text !== undefined, input.file !== undefined, !!input.hosts?.length || input.lab === true].filter(Boolean).length;
  if (given !== 1)
    throw new OpError(
      'BAD_ARGUMENT',
      'give exactly one schema source: text, file, or a live cluster (hosts / lab)',
      'Paste DESCRIBE SCHEMA output, give its file, or point at a cluster.',
    );
  if (input.text !== undefined) return { text: input.text, source: 'text', datacenters: [], versions: [] };
  if (input.file !== undefined) {
    // Read through collect/safe-file.ts: the policy every tool shares for named files (no /proc, /sys, /dev, FIFO).
    const r = await readNamedFile(input.file, { maxBytes: MAX_SCHEMA_BYTES, ...(signal ? { signal } : {}) });
    if (!r.ok) {
      const fix = 'Give the path of a file holding DESCRIBE SCHEMA output (cqlsh -e "DESCRIBE SCHEMA" > schema.cql).';
      throw fileRefusedError(input.file, r, fix, `Give a schema file under ${MAX_SCHEMA_BYTES / 1024 / 1024} MiB (DESCRIBE KEYSPACE for one keyspace).`);
    }
    return { text: r.text, source: input.file, datacenters: [], versions: [] };
  }
  let hosts = input.hosts ?? [];
  if (input.lab) {
    const s = await labStatus();
    if (!s.running || !s.nodes.length) throw new OpError('NO_LAB', 'no lab is running', 'Start one with `cql-tuner lab start` (or lab_start), or give hosts.');
    hosts = s.nodes.map((n) => n.host);
  }
  const session = await CqlSession.connect({ contactPoints: hosts, port: input.cqlPort }, signal);
  try {
    const nodes = session.hosts();
    const node = nodes.find((h) => h.up) ?? nodes[0];
    if (!node) throw new OpError('CQL_UNREACHABLE', 'the driver sees no node', 'Check the contact points.');
    let rows;
    try {
      rows = await session.query(node.address, 'DESCRIBE SCHEMA', [], 60_000);
    } catch (e) {
      throw describeFailure(e, node.address);
    }
    const col = rows.columns.indexOf('create_statement');
    if (col < 0)
      throw new OpError(
        'DESCRIBE_UNSUPPORTED',
        `DESCRIBE SCHEMA on ${node.address} returned no create_statement column`,
        'Run cqlsh -e "DESCRIBE SCHEMA" > schema.cql and review the file.',
      );
    const text = rows.rows
      .map((r) => (r[col] ?? '').trim())
      .filter(Boolean)
      .map((s) => (s.endsWith(';') ? s : `${s};`))
      .join('\n\n');
    const datacenters = [...new Set(nodes.map((h) => h.datacenter).filter((d): d is string => !!d))];
    const versions = [...new Set(nodes.map((h) => h.releaseVersion).filter((v): v is string => !!v))];
    return { text, source: `DESCRIBE SCHEMA on ${node.address}`, datacenters, versions };
  } finally {
    await session.close();
  }
}

/** Errors a refused DESCRIBE must keep as they are: they already name the cause and the fix (a GRANT, a host). */
const KEEP_CODES = new Set(['CQL_UNAUTHORIZED', 'CQL_CREDENTIALS_NOT_ALLOWED', 'UNKNOWN_NODE']);

/**
 * Why server-side DESCRIBE failed, as an error naming what to do. A refusal by authorization names the grant
 * (ScyllaDB and some forks check SELECT on system_schema where Cassandra 4.0+ lets any logged-in role describe);
 * anything else is an old server without server-side DESCRIBE.
 */
export function describeFailure(e: unknown, address: string): OpError {
  if (e instanceof OpError && KEEP_CODES.has(e.code)) return e;
  const msg = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown }).code;
  if (code === 0x2100 || /has no \w+ permission on|Unauthorized|not authorized/i.test(msg)) {
    const g = grantForUnauthorized(msg);
    const grant = g?.grant ?? `GRANT SELECT ON KEYSPACE system_schema TO ${/User (\S+) /.exec(msg)?.[1] ?? '<role>'}`;
    return new OpError('CQL_UNAUTHORIZED', `DESCRIBE SCHEMA on ${address} was refused by authorization: ${msg.slice(0, 400)}`, `As a superuser: ${grant}`);
  }
  return new OpError(
    'DESCRIBE_UNSUPPORTED',
    `server-side DESCRIBE failed on ${address}: ${msg}`,
    'Server-side DESCRIBE needs Cassandra 4.0+ (or a recent ScyllaDB): on older versions run cqlsh -e "DESCRIBE SCHEMA" > schema.cql and review the file.',
  );
}

/** The rule input from a parsed schema plus, optionally, a snapshot. */
export function schemaRuleInput(
  schema: CqlSchema,
  snap: ClusterSnapshot | null,
  extra: { product?: 'cassandra' | 'scylla'; datacenters?: string[]; versions?: string[] } = {},
): SchemaRuleInput {
  const products = new Set(snap?.nodes.map((n) => n.product).filter((p) => p !== 'unknown') ?? []);
  const product =
    extra.product ??
    (products.size === 1 ? [...products][0]! : undefined) ??
    (schema.keyspaces.some((k) => k.tablets) || schema.tables.some((t) => t.options.compaction?.class === 'IncrementalCompactionStrategy')
      ? 'scylla'
      : undefined);
  const dcs = new Set([...(extra.datacenters ?? []), ...(snap?.nodes.map((n) => n.datacenter).filter((d): d is string => !!d) ?? [])]);
  const version = oldestVersion([...(extra.versions ?? []), ...(snap?.nodes.map((n) => n.releaseVersion).filter((v): v is string => !!v) ?? [])]);
  return {
    schema,
    ...(product ? { product } : {}),
    ...(version ? { version } : {}),
    ...(snap ? { tableFacts: snap.nodes.filter((n) => n.facts.tables?.length).map((n) => ({ node: n.address, tables: n.facts.tables! })) } : {}),
    ...(dcs.size ? { datacenters: [...dcs] } : {}),
  };
}

export async function reviewSchema(input: ReviewSchemaInput, deps: { onProgress?: ProgressFn; signal?: AbortSignal } = {}): Promise<SchemaReview> {
  deps.onProgress?.({ message: 'reading the schema' });
  const src = await loadSchemaText(input, deps.signal);
  // Off the event loop when large (ops/off-thread.ts): a hostile schema text blocks no other call.
  const parsed = await parseOffThread('cqlSchema', src.text, { what: `schema text from ${src.source}`, chars: src.text.length, signal: deps.signal });
  if (!parsed.ok)
    throw new OpError(
      'NOT_A_SCHEMA',
      `${src.source}: ${parsed.reason}`,
      'Give the output of DESCRIBE SCHEMA (or DESCRIBE KEYSPACE …): CREATE KEYSPACE / TABLE statements ending with ";".',
    );
  let snap: ClusterSnapshot | null = null;
  if (input.bundleDir) {
    deps.onProgress?.({ message: `reading bundle ${input.bundleDir}` });
    snap = await analyzeBundle(input.bundleDir, deps.signal ? { signal: deps.signal } : {});
  }
  const product = input.product ?? (src.versions.some((v) => /^20\d\d\./.test(v)) ? 'scylla' : undefined);
  const ruleInput = schemaRuleInput(parsed.value, snap, { ...(product ? { product } : {}), datacenters: src.datacenters, versions: src.versions });
  const outcomes = schemaRules(ruleInput);
  const s = parsed.value;
  const warnings = [...parsed.warnings];
  if (!ruleInput.product) warnings.push('product unknown (Cassandra assumed where it matters): give product, or a bundle');
  return {
    source: src.source,
    product: ruleInput.product ?? 'unknown',
    counts: {
      keyspaces: s.keyspaces.length,
      tables: s.tables.length,
      indexes: s.indexes.length,
      views: s.views.length,
      types: s.types.length,
      other: s.other.length,
    },
    tables: schemaTableRows(ruleInput),
    findings: worstFirst(outcomes.flatMap((o) => o.findings)),
    checked: outcomes.map(checkedRow),
    warnings,
  };
}
