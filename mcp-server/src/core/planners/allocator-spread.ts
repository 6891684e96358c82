/**
 * What Cassandra's token allocator (allocate_tokens_for_local_replication_factor) gives: the effective-ownership
 * spread (max / min in the DC) of rings the real allocator built, measured by scripts/allocator-spread.ts with
 * GenerateTokens (kb:ownership.allocator-spread). Used to tell a ring the allocator could have produced from one
 * it could not, and to say what the next allocator-placed node would leave. Pure: a table lookup.
 */
import { ALLOCATOR_SPREAD, ALLOCATOR_SPREAD_MAX_NODES, ALLOCATOR_SPREAD_VERSION } from '../knowledge/allocator-spread.generated.js';

export interface AllocatorSpread {
  rf: number;
  /** 1, or the rack count when it equals rf (each rack then holds a full copy). */
  racks: number;
  tokens: number;
  nodes: number;
  median: number;
  worst: number;
  /** The Cassandra release whose allocator was run. */
  version: string;
}

/** Table layout for a DC: one rack, or as many racks as replicas; other layouts were not measured. */
function layoutRacks(rf: number, racks: number): number | null {
  if (racks <= 1) return 1;
  return racks === rf ? racks : null;
}

export function allocatorSpread(rf: number, racks: number, tokens: number, nodes: number): AllocatorSpread | null {
  const r = layoutRacks(rf, racks);
  if (r === null || nodes < 1 || nodes > ALLOCATOR_SPREAD_MAX_NODES) return null;
  const row = ALLOCATOR_SPREAD[`${rf}/${r}/${tokens}`];
  const median = row?.median[nodes - 1];
  const worst = row?.worst[nodes - 1];
  if (median === null || median === undefined || worst === null || worst === undefined) return null;
  return { rf, racks: r, tokens, nodes, median, worst, version: ALLOCATOR_SPREAD_VERSION };
}

/** The smallest measured num_tokens whose worst spread for this layout stays at or under `limit`. */
export function tokensForSpread(rf: number, racks: number, nodes: number, limit: number): AllocatorSpread | null {
  const r = layoutRacks(rf, racks);
  if (r === null) return null;
  const measured = Object.keys(ALLOCATOR_SPREAD)
    .filter((k) => k.startsWith(`${rf}/${r}/`))
    .map((k) => Number(k.split('/')[2]))
    .sort((a, b) => a - b);
  for (const t of measured) {
    const s = allocatorSpread(rf, r, t, nodes);
    if (s && s.worst <= limit) return s;
  }
  return null;
}

/** One line of evidence: "the allocator gives 1.04× (worst of 5 runs 1.06×) for 6 nodes × 16 tokens, rf 3". */
export function allocatorSpreadText(s: AllocatorSpread): string {
  return (
    `Cassandra ${s.version}'s token allocator (allocate_tokens_for_local_replication_factor: ${s.rf}) leaves ${s.median.toFixed(2)}× ` +
    `(worst measured ${s.worst.toFixed(2)}×) for ${s.nodes} nodes × ${s.tokens} token(s)${s.racks > 1 ? ` in ${s.racks} equal racks` : ' in one rack'}`
  );
}
