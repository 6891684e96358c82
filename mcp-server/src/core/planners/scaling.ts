/**
 * Scale-out planner (pure): how many nodes, in which steps, how long each bootstrap takes and how full the
 * disks get on the way. The time model is the empirical one fitted on the ScyllaDB tablets-vs-vNodes benchmark
 * (kb:scaling.bootstrap.exponent):
 *
 *   T_k = T0 · (d_k / d0)^e        e = 0.6
 *
 * d_k is the data each existing node holds when step k starts and d0 the data per node when T0 was measured.
 * Adding a fixed batch b to a cluster that started at N0 = b nodes makes d_k / d0 = N0 / N_k = 1/k, which is
 * the reading that reproduces the benchmark's Cassandra column (3 → 27 nodes, 2 TB, T0 = 24 min). The other
 * natural reading — data streamed to each new node relative to the first step, 2/(k+1) — overshoots step 2
 * by 19 % and is rejected (tests/unit/planner-scaling.test.ts shows both).
 */
import { numberOf } from '../knowledge/index.js';

export type ScalingProduct = 'cassandra' | 'scylla';

export interface ScalingInput {
  /** Total on-disk data of the cluster (sum of every node's load, replicas included), GiB. */
  dataGiB: number;
  nodes: number;
  /** Target node count, or derive it from throughput. */
  targetNodes?: number;
  targetThroughput?: number;
  /** Throughput one node sustains at the wanted latency (same unit as targetThroughput, e.g. ops/s). */
  perNodeThroughput?: number;
  /** Nodes added per step (default: as many as the cluster has now, capped at the remaining count). */
  nodesPerStep?: number;
  /** Per-node streaming cap in MiB/s (stream_throughput_outbound / stream_io_throughput_mb_per_sec). */
  streamMiBs?: number;
  /** Disk capacity per node, GiB. */
  diskGiB?: number;
  /** Compaction throughput in MiB/s for the cleanup estimate (default compaction_throughput). */
  compactionMiBs?: number;
  /** The cluster's own last bootstrap step: its duration and the data per node at the time. */
  lastBootstrap?: { minutes: number; dataPerNodeGiB: number };
  /** Explicit reference step (the benchmark form): T0 for the first step of this plan. */
  firstStepMinutes?: number;
  exponent?: number;
  product?: ScalingProduct;
  /** ScyllaDB keyspaces on tablets (2024.2+). */
  tablets?: boolean;
}

export interface ScalingStep {
  step: number;
  fromNodes: number;
  toNodes: number;
  /** Data on each existing node when the step starts (d_k). */
  dataPerNodeGiB: number;
  /** d_k / d0 — the ratio the model raises to the exponent. */
  ratio: number;
  minutes: number;
  cumulativeMinutes: number;
  /** Worst disk use during the step: an old node that has not run cleanup yet, or a joining node. */
  peakDiskUsedPct: number | null;
}

export interface ScalingPlan {
  fromNodes: number;
  targetNodes: number;
  targetReason: string;
  nodesPerStep: number;
  formula: string;
  ratioReading: string;
  exponent: number;
  t0: { minutes: number; dataPerNodeGiB: number; source: 'last-bootstrap' | 'first-step' | 'stream-throughput'; detail: string };
  vnodes: {
    steps: ScalingStep[];
    bootstrapMinutes: number;
    /** Cleanup of the original nodes run once at the end, all nodes in parallel. */
    cleanupMinutes: number | null;
    totalMinutes: number;
  };
  tablets: { minutes: number | null; detail: string } | null;
  disk: {
    diskGiB: number | null;
    startPct: number | null;
    endPct: number | null;
    peakPct: number | null;
    limitPct: number;
    limitSource: string;
    verdict: 'ok' | 'tight' | 'over' | 'unknown';
  };
  assumptions: string[];
  warnings: string[];
  knowledgeIds: string[];
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** Plans the growth; throws RangeError on impossible inputs (the ops layer turns it into an OpError). */
export function planScaling(input: ScalingInput): ScalingPlan {
  const product = input.product ?? 'cassandra';
  const exponent = input.exponent ?? numberOf('scaling.bootstrap.exponent');
  const warnings: string[] = [];
  const assumptions: string[] = [];
  const knowledgeIds = ['scaling.bootstrap.exponent', 'scaling.vnodes.serial-bootstrap'];
  const { dataGiB, nodes } = input;
  if (!(dataGiB > 0)) throw new RangeError('dataGiB must be a positive number of GiB');
  if (!Number.isInteger(nodes) || nodes < 1) throw new RangeError('nodes must be a positive integer');

  // Target: explicit, or from throughput.
  let targetNodes: number;
  let targetReason: string;
  if (input.targetNodes !== undefined) {
    targetNodes = input.targetNodes;
    targetReason = `target given: ${targetNodes} nodes`;
  } else if (input.targetThroughput !== undefined && input.perNodeThroughput !== undefined) {
    if (!(input.perNodeThroughput > 0)) throw new RangeError('perNodeThroughput must be positive');
    targetNodes = Math.ceil(input.targetThroughput / input.perNodeThroughput);
    targetReason = `ceil(${input.targetThroughput} / ${input.perNodeThroughput} per node) = ${targetNodes} nodes`;
    assumptions.push('Throughput scales linearly with node count (no hot partitions, the client side keeps up).');
  } else {
    throw new RangeError('give targetNodes, or targetThroughput with perNodeThroughput');
  }
  if (!Number.isInteger(targetNodes) || targetNodes <= nodes)
    throw new RangeError(`target (${targetNodes} nodes) must be an integer above the current ${nodes} nodes`);

  const nodesPerStep = input.nodesPerStep ?? nodes;
  if (!Number.isInteger(nodesPerStep) || nodesPerStep < 1) throw new RangeError('nodesPerStep must be a positive integer');

  // Reference step T0 and the data per node it was measured at (d0).
  const firstDataPerNode = dataGiB / nodes;
  const streamMiBs = input.streamMiBs ?? (product === 'cassandra' ? numberOf('streaming.throughput.default') : undefined);
  let t0: ScalingPlan['t0'];
  if (input.lastBootstrap) {
    const { minutes, dataPerNodeGiB } = input.lastBootstrap;
    if (!(minutes > 0) || !(dataPerNodeGiB > 0)) throw new RangeError('lastBootstrap needs positive minutes and dataPerNodeGiB');
    t0 = {
      minutes,
      dataPerNodeGiB,
      source: 'last-bootstrap',
      detail: `calibrated on your last bootstrap: ${minutes} min with ${round(dataPerNodeGiB)} GiB per node`,
    };
  } else if (input.firstStepMinutes !== undefined) {
    if (!(input.firstStepMinutes > 0)) throw new RangeError('firstStepMinutes must be positive');
    t0 = {
      minutes: input.firstStepMinutes,
      dataPerNodeGiB: firstDataPerNode,
      source: 'first-step',
      detail: `first step given: ${input.firstStepMinutes} min at ${round(firstDataPerNode)} GiB per node`,
    };
  } else {
    if (streamMiBs === undefined || streamMiBs <= 0) {
      throw new RangeError('ScyllaDB streams unthrottled by default: give streamMiBs (the rate you observe) or calibrate with lastBootstrap');
    }
    // First principles for the first step only: each joining node receives dataGiB / N1, serially, from
    // the existing nodes, each sending at most streamMiBs.
    const n1 = Math.min(targetNodes, nodes + nodesPerStep);
    const received = dataGiB / n1;
    const rate = streamMiBs * nodes;
    const minutes = ((received * 1024) / rate / 60) * (n1 - nodes);
    t0 = {
      minutes,
      dataPerNodeGiB: firstDataPerNode,
      source: 'stream-throughput',
      detail: `no calibration: ${n1 - nodes} joining node(s) × ${round(received)} GiB each at ${streamMiBs} MiB/s from each of ${nodes} sender(s) = ${round(minutes)} min`,
    };
    assumptions.push(
      'Without a measured bootstrap, T0 is a pure bandwidth estimate (every sender at its stream cap, nothing else limiting): real bootstraps are usually slower. Calibrate with lastBootstrap.',
    );
    knowledgeIds.push(product === 'scylla' ? 'streaming.scylla.stream-io-throughput' : 'streaming.throughput.default');
  }

  // Serial vnode steps.
  const steps: ScalingStep[] = [];
  let n = nodes;
  let cumulative = 0;
  const disk = input.diskGiB;
  let peakPct: number | null = disk ? (100 * firstDataPerNode) / disk : null;
  for (let k = 1; n < targetNodes; k++) {
    const to = Math.min(targetNodes, n + nodesPerStep);
    const d = dataGiB / n;
    const ratio = d / t0.dataPerNodeGiB;
    const minutes = t0.minutes * ratio ** exponent;
    cumulative += minutes;
    // Without cleanup until the end, the original nodes stay at their starting data; joining nodes get dataGiB/to.
    const peak = disk ? (100 * Math.max(firstDataPerNode, dataGiB / to)) / disk : null;
    if (peak !== null && peakPct !== null) peakPct = Math.max(peakPct, peak);
    steps.push({ step: k, fromNodes: n, toNodes: to, dataPerNodeGiB: d, ratio, minutes, cumulativeMinutes: cumulative, peakDiskUsedPct: peak });
    n = to;
  }

  // Cleanup: every original node rewrites what it keeps; they run in parallel, so one node's time.
  // ScyllaDB paces compaction with its backlog controller rather than a MiB/s cap: no default to assume.
  const compactionMiBs = input.compactionMiBs ?? (product === 'cassandra' ? numberOf('compaction.throughput.default') : 0);
  const cleanupMinutes = compactionMiBs > 0 ? (firstDataPerNode * 1024) / compactionMiBs / 60 : null;
  if (product === 'cassandra') knowledgeIds.push('compaction.throughput.default');
  assumptions.push(
    compactionMiBs > 0
      ? `Cleanup runs once after the last step on all original nodes in parallel and reads their ${round(firstDataPerNode)} GiB each at ${compactionMiBs} MiB/s.`
      : 'Cleanup time not estimated: no compaction rate known (give compactionMiBs).',
  );

  // Tablets: one parallel operation, no cleanup.
  let tablets: ScalingPlan['tablets'] = null;
  if (product === 'scylla') {
    knowledgeIds.push('scylla.tablets.scaling', 'scaling.benchmark.tablets-speedup');
    if (input.tablets === false) {
      tablets = { minutes: null, detail: 'keyspaces on vnodes: the serial plan applies (migrate keyspaces to tablets for parallel scaling)' };
    } else {
      // All joining nodes at once: the model with d = data per node now, since there is only one step.
      const one = t0.minutes * (firstDataPerNode / t0.dataPerNodeGiB) ** exponent;
      tablets = {
        minutes: one,
        detail:
          `all ${targetNodes - nodes} nodes join together: one step of the model, T0 · (${round(firstDataPerNode)} / ${round(t0.dataPerNodeGiB)})^${exponent} = ${round(one)} min, no cleanup. ` +
          'Upper bound: tablet migration starts serving on the new nodes before it completes (kb:scaling.benchmark.tablets-speedup quotes the vendor-measured gain).',
      };
    }
  }

  // Disk headroom.
  const tabletsOn = product === 'scylla' && input.tablets !== false;
  const limitPct = tabletsOn ? numberOf('scaling.tablets.disk-usable') : 100 - numberOf('compaction.stcs.large-data');
  const limitSource = tabletsOn ? 'kb:scaling.tablets.disk-usable' : 'kb:compaction.stcs.large-data (STCS worst case)';
  knowledgeIds.push(tabletsOn ? 'scaling.tablets.disk-usable' : 'compaction.stcs.large-data');
  const startPct = disk ? (100 * firstDataPerNode) / disk : null;
  const endPct = disk ? (100 * dataGiB) / targetNodes / disk : null;
  const tabletPeak = tabletsOn ? startPct : peakPct;
  let verdict: ScalingPlan['disk']['verdict'] = 'unknown';
  if (tabletPeak !== null) verdict = tabletPeak > 100 ? 'over' : tabletPeak > limitPct ? 'tight' : 'ok';
  if (verdict === 'over') warnings.push(`the data per node (${round(firstDataPerNode)} GiB) does not fit the ${disk} GiB disk`);
  else if (verdict === 'tight')
    warnings.push(
      `peak disk use ${round(tabletPeak!)} % exceeds the ${limitPct} % headroom limit (${limitSource}): run cleanup after each step, or grow before the disks fill`,
    );
  if (!disk) warnings.push('disk size not given: headroom not checked');

  assumptions.push(
    'Data is spread evenly and grows by the same batch each step; one node joins at a time within a vnode step (kb:scaling.vnodes.serial-bootstrap).',
    `The exponent ${exponent} was fitted on one benchmark (kb:scaling.bootstrap.exponent); a calibrated T0 matters more than the exponent.`,
  );

  return {
    fromNodes: nodes,
    targetNodes,
    targetReason,
    nodesPerStep,
    formula: `T_k = T0 · (d_k / d0)^${exponent}`,
    ratioReading:
      'd_k = data on each existing node when step k starts (total data / nodes before the step); d0 = data per node when T0 was measured. ' +
      'With equal batches from N0 nodes, d_k / d0 = N0 / N_k (1, 1/2, 1/3 … when each batch equals N0).',
    exponent,
    t0,
    vnodes: {
      steps: steps.map((s) => ({
        ...s,
        dataPerNodeGiB: round(s.dataPerNodeGiB, 2),
        ratio: round(s.ratio, 4),
        minutes: round(s.minutes, 2),
        cumulativeMinutes: round(s.cumulativeMinutes, 2),
        peakDiskUsedPct: s.peakDiskUsedPct === null ? null : round(s.peakDiskUsedPct),
      })),
      bootstrapMinutes: round(cumulative, 2),
      cleanupMinutes: cleanupMinutes === null ? null : round(cleanupMinutes, 1),
      totalMinutes: round(cumulative + (cleanupMinutes ?? 0), 1),
    },
    tablets: tablets && { ...tablets, minutes: tablets.minutes === null ? null : round(tablets.minutes, 1) },
    disk: {
      diskGiB: disk ?? null,
      startPct: startPct === null ? null : round(startPct),
      endPct: endPct === null ? null : round(endPct),
      peakPct: tabletPeak === null ? null : round(tabletPeak),
      limitPct,
      limitSource,
      verdict,
    },
    assumptions,
    warnings,
    knowledgeIds: [...new Set(knowledgeIds)],
  };
}
