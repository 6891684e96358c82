// Measures what Cassandra's token allocator (allocate_tokens_for_local_replication_factor) gives: runs the real
// allocator offline — org.apache.cassandra.tools.GenerateTokens from cassandra-all (CASSANDRA-16205) — for each
// num_tokens × replication factor × rack layout, then computes each prefix ring's effective ownership spread
// (max / min within the DC) with cql-tuner's own placement code. GenerateTokens allocates nodes one after
// another, so the first k nodes of one run are the ring after k allocator-placed joins.
//
// Writes mcp-server/src/core/knowledge/allocator-spread.generated.ts (committed; kb:ownership.allocator-spread).
// Usage: npx vite-node scripts/allocator-spread.ts [--check] [--version 4.1.10] [--lib DIR]   (Java 17 + cassandra-all jars;
//   DIR defaults to the lab's cache, <cache>/cassandra/<version>/lib)
//   --check: one fresh run per layout at 16 tokens; exit 1 if any spread exceeds the committed worst by more than
//   the run-to-run margin (the lab lane runs it for 4.1 and 5.0).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { effectiveOwnership, type RingMember } from '../mcp-server/src/core/planners/token-balance.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'mcp-server/src/core/knowledge/allocator-spread.generated.ts');
const args = process.argv.slice(2);
const VERSION = args.includes('--version') ? args[args.indexOf('--version') + 1]! : '5.0.9';
const MAX_NODES = 24;
const TOKENS = [1, 4, 8, 16, 32, 64, 256] as const;
/** Each run seeds its own Random: the table keeps the median and the worst of RUNS runs. */
const RUNS = 5;
/** Replication factor and rack count: one rack, or as many racks as replicas (each rack a full copy). */
const LAYOUTS = [
  { rf: 2, racks: 1 },
  { rf: 3, racks: 1 },
  { rf: 3, racks: 3 },
] as const;

function casHome(): string {
  if (args.includes('--lib')) return args[args.indexOf('--lib') + 1]!;
  const base = process.env['CQL_TUNER_CACHE'] ?? join(homedir(), '.cache', 'cql-tuner');
  return join(base, 'cassandra', VERSION, 'lib');
}

/** A throwaway cassandra.yaml and a quiet logback: GenerateTokens loads the node config before it runs. */
function toolConfig(dir: string): string[] {
  writeFileSync(
    join(dir, 'cassandra.yaml'),
    [
      'cluster_name: allocator-spread',
      'partitioner: org.apache.cassandra.dht.Murmur3Partitioner',
      'commitlog_sync: periodic',
      'commitlog_sync_period: 10000ms',
      'endpoint_snitch: SimpleSnitch',
      'seed_provider:',
      '  - class_name: org.apache.cassandra.locator.SimpleSeedProvider',
      '    parameters: [{ seeds: "127.0.0.1" }]',
      `data_file_directories: [${join(dir, 'data')}]`,
      `commitlog_directory: ${join(dir, 'commitlog')}`,
      `saved_caches_directory: ${join(dir, 'saved_caches')}`,
      `hints_directory: ${join(dir, 'hints')}`,
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'logback.xml'),
    '<configuration><appender name="E" class="ch.qos.logback.core.ConsoleAppender"><target>System.err</target>' +
      '<encoder><pattern>%msg%n</pattern></encoder></appender><root level="WARN"><appender-ref ref="E"/></root></configuration>\n',
  );
  return [`-Dcassandra.config=file://${join(dir, 'cassandra.yaml')}`, `-Dlogback.configurationFile=${join(dir, 'logback.xml')}`];
}

/** "Node 3 rack 1: [t1, t2, …]" lines, in allocation order. */
function generate(jvm: string[], tokens: number, rf: number, racks: number): RingMember[] {
  const perRack = MAX_NODES / racks;
  const args = ['-n', String(MAX_NODES), '-t', String(tokens), '--rf', String(rf)];
  if (racks > 1) args.push('--racks', Array(racks).fill(perRack).join(','));
  const text = execFileSync('java', [...jvm, '-cp', `${casHome()}/*`, 'org.apache.cassandra.tools.GenerateTokens', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  const members: RingMember[] = [];
  for (const m of text.matchAll(/^Node (\d+) rack (\d+): \[([-\d, ]+)\]$/gm)) {
    members[Number(m[1])] = { address: `n${m[1]}`, datacenter: 'dc1', rack: `r${m[2]}`, tokens: m[3]!.split(', ') };
  }
  if (members.length !== MAX_NODES || members.some((x) => !x)) throw new Error(`GenerateTokens ${args.join(' ')}: expected ${MAX_NODES} nodes`);
  return members;
}

/** Spread after k joins, for every k where the racks are equal (k a multiple of the rack count). */
function spreads(members: RingMember[], rf: number, racks: number): (number | null)[] {
  const row: (number | null)[] = [];
  for (let k = 1; k <= MAX_NODES; k++) {
    if (k % racks !== 0 || k <= rf) {
      // Up to rf nodes every node holds everything: nothing to measure.
      row.push(k <= rf && k % racks === 0 ? 1 : null);
      continue;
    }
    const r = effectiveOwnership(members.slice(0, k), { strategy: 'network', perDc: { dc1: rf } });
    if ('error' in r) throw new Error(r.error);
    const owns = r.nodes.map((n) => n.ownsPercent);
    row.push(Math.max(...owns) / Math.min(...owns));
  }
  return row;
}

const round3 = (x: number | null) => (x === null ? 'null' : String(Math.round(x * 1000) / 1000));

/** Per k: the median and the largest spread over the runs. */
function summarise(runs: (number | null)[][]): { median: string; worst: string } {
  const median: string[] = [];
  const worst: string[] = [];
  for (let k = 0; k < MAX_NODES; k++) {
    const xs = runs
      .map((r) => r[k])
      .filter((x): x is number => x !== null && x !== undefined)
      .sort((a, b) => a - b);
    median.push(round3(xs.length ? xs[Math.floor(xs.length / 2)]! : null));
    worst.push(round3(xs.length ? xs[xs.length - 1]! : null));
  }
  return { median: median.join(', '), worst: worst.join(', ') };
}

function measure(): string {
  const dir = mkdtempSync(join(tmpdir(), 'allocator-spread-'));
  try {
    const jvm = toolConfig(dir);
    const rows: string[] = [];
    for (const { rf, racks } of LAYOUTS) {
      for (const t of TOKENS) {
        process.stderr.write(`generatetokens -n ${MAX_NODES} -t ${t} --rf ${rf}${racks > 1 ? ` (${racks} racks)` : ''} × ${RUNS}\n`);
        const runs = Array.from({ length: RUNS }, () => spreads(generate(jvm, t, rf, racks), rf, racks));
        const { median, worst } = summarise(runs);
        rows.push(`  '${rf}/${racks}/${t}': {\n    median: [${median}],\n    worst: [${worst}],\n  },`);
      }
    }
    return [
      '// Generated by scripts/allocator-spread.ts — do not edit. kb:ownership.allocator-spread',
      `// Effective-ownership spread (max / min within the DC) of rings built by Cassandra ${VERSION}'s token allocator`,
      '// (org.apache.cassandra.tools.GenerateTokens), keyed "rf/racks/num_tokens"; index k-1 = after k nodes joined',
      `// (null where racks are unequal). Each run seeds its own Random: median and worst of ${RUNS} runs.`,
      `export const ALLOCATOR_SPREAD_VERSION = '${VERSION}';`,
      `export const ALLOCATOR_SPREAD_MAX_NODES = ${MAX_NODES};`,
      'export const ALLOCATOR_SPREAD: Readonly<Record<string, { median: readonly (number | null)[]; worst: readonly (number | null)[] }>> = {',
      ...rows,
      '};',
      '',
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A fresh run may land above the worst of the committed runs: allow half as much spread again. */
const MARGIN = 1.5;

async function check(): Promise<number> {
  const { ALLOCATOR_SPREAD } = await import('../mcp-server/src/core/knowledge/allocator-spread.generated.js');
  const dir = mkdtempSync(join(tmpdir(), 'allocator-spread-'));
  let failed = 0;
  try {
    const jvm = toolConfig(dir);
    for (const { rf, racks } of LAYOUTS) {
      const key = `${rf}/${racks}/16`;
      const fresh = spreads(generate(jvm, 16, rf, racks), rf, racks);
      const worst = ALLOCATOR_SPREAD[key]!.worst;
      for (let k = 0; k < MAX_NODES; k++) {
        const x = fresh[k];
        const w = worst[k];
        if (x === null || x === undefined || w === null || w === undefined) continue;
        if (x - 1 > (w - 1) * MARGIN + 0.01) {
          failed++;
          process.stderr.write(`${VERSION} ${key}: after ${k + 1} nodes the spread is ${x.toFixed(3)}, the table's worst ${w}\n`);
        }
      }
      process.stderr.write(`${VERSION} ${key}: after ${MAX_NODES} nodes ${fresh[MAX_NODES - 1]!.toFixed(3)} (table worst ${worst[MAX_NODES - 1]})\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

if (args.includes('--check')) process.exit(await check());
// Written as the formatter would (format:check runs in CI).
const text = await format(measure(), { ...(await resolveConfig(out)), filepath: out });
writeFileSync(out, text);
process.stderr.write(`wrote ${out}\n`);
