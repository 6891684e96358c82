/**
 * Issue #16's proof: a real 3-node lab started with --metrics (the Prometheus JMX exporter agent on each node), a
 * real Prometheus scraping it, latte writing at QUORUM, and one node paused with SIGSTOP for 20 s half-way through.
 * `metrics --last` must find the change within one scrape interval and name the paused node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabState } from '../../mcp-server/src/lab/index.js';
import { readFile } from 'node:fs/promises';
import { execa } from 'execa';
import type { MetricsReport } from '../../mcp-server/src/ops/metrics.js';
import { startStress, waitForRun } from '../../mcp-server/src/ops/stress.js';
import { renderMetrics } from '../../mcp-server/src/render/metrics.js';
import { tempLabHome } from '../helpers/lab-home.js';
import { BUNDLE } from '../helpers/mcp-client.js';
import { PROMETHEUS_BIN, PROMETHEUS_MISSING, startPrometheus, type Running } from '../helpers/prometheus.js';
import { latteOrSkipNote } from '../helpers/stress-tool.js';

const lab = tempLabHome('cql-tuner-metrics-lab-');
const skipLab = process.env.CQL_TUNER_SKIP_LAB === '1';
if (!PROMETHEUS_BIN) process.stderr.write(`note: ${PROMETHEUS_MISSING}\n`);
const haveLatte = (await latteOrSkipNote('metrics-lab integration test')) !== null;
const skip = skipLab || !haveLatte || !PROMETHEUS_BIN;
const SCRAPE_S = 2;
const CANARY = 'canary-7f3e9a1c';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The stretch of failed scrapes (up != 1) that overlaps [from, to], a single answered scrape inside it bridged (a
 * JVM catching up answers one scrape and misses the next): its first failed sample and the first answered one after.
 */
function failedStretch(samples: readonly (readonly [number, number])[], from: number, to: number): { start: number; end: number | null } | null {
  return failedRuns(samples).find((r) => r.start <= to && (r.end === null || r.end >= from)) ?? null;
}

/** Every stretch of failed scrapes, a single answered scrape inside one bridged; end is the first answered sample after it. */
function failedRuns(samples: readonly (readonly [number, number])[]): { start: number; end: number | null }[] {
  const runs: { start: number; end: number | null }[] = [];
  let i = 0;
  while (i < samples.length) {
    if (samples[i]![1] === 1) {
      i++;
      continue;
    }
    const start = samples[i]![0];
    let j = i;
    while (j < samples.length && (samples[j]![1] !== 1 || (samples[j + 1] !== undefined && samples[j + 1]![1] !== 1 && samples[j - 1]![1] !== 1))) j++;
    runs.push({ start, end: j < samples.length ? samples[j]![0] : null });
    i = j + 1;
  }
  return runs;
}

let state: LabState;
let prom: Running | undefined;

beforeAll(async () => {
  if (skip) return;
  // a credential of cql-tuner's own in the environment must not reach the nodes' JVMs (collect/child-env.ts)
  process.env.CQL_TUNER_CANARY_TOKEN = CANARY;
  try {
    state = await lab.start({ nodes: 3, version: '5.0', metrics: true });
  } finally {
    delete process.env.CQL_TUNER_CANARY_TOKEN;
  }
  prom = await startPrometheus([{ name: 'cassandra', targets: state.nodes.map((n) => `${n.host}:7070`) }], SCRAPE_S);
}, 600_000);

afterAll(async () => {
  if (skip) return;
  // never leave a node stopped: SIGCONT before the lab is stopped
  for (const n of state?.nodes ?? [])
    if (n.pid)
      try {
        process.kill(n.pid, 'SIGCONT');
      } catch {
        /* gone */
      }
  await prom?.stop();
  await lab.stop();
}, 180_000);

describe.skipIf(skip)('metrics history on a real lab', () => {
  it("the nodes' JVMs did not inherit cql-tuner's own credential variables", async () => {
    for (const n of state.nodes) {
      const environ = await readFile(`/proc/${n.pid}/environ`, 'utf8');
      expect(environ).toContain('PATH=');
      expect(environ).not.toContain(CANARY);
    }
  });

  it('each node serves the JMX exporter naming the metrics tools read', async () => {
    const text = await (await fetch(`http://${state.nodes[0]!.host}:7070/metrics`)).text();
    for (const name of [
      'cassandra_clientrequest_latency_seconds_count{clientrequest="Read"',
      'cassandra_clientrequest_latency_seconds{clientrequest="Write",quantile="0.99"',
      'cassandra_compaction_pendingtasks',
      'cassandra_compaction_bytescompacted_count',
      'cassandra_droppedmessage_dropped_count{droppedmessage="MUTATION"',
      'cassandra_clientrequest_timeouts_count{clientrequest="Read"',
      'cassandra_storage_totalhints_count',
      'jvm_gc_collection_seconds_sum',
      'process_cpu_seconds_total',
    ]) {
      expect(text, name).toContain(name);
    }
  });

  it('a node paused for 20 s under load: the change is found within one scrape interval and the node is named', async () => {
    const victim = state.nodes[1]!;
    const run = await startStress({
      tool: 'latte',
      workload: 'write',
      nodes: state.nodes.map((n) => n.host),
      durationS: 90,
      concurrency: 8,
      rate: 300,
      consistency: 'QUORUM',
      replicationFactor: 3,
      keyspace: 'metrics_lab',
      snapshots: 'none',
    });
    await sleep(40_000);
    const pausedAt = Date.now() / 1000;
    process.kill(victim.pid!, 'SIGSTOP');
    await sleep(20_000);
    process.kill(victim.pid!, 'SIGCONT');
    const resumedAt = Date.now() / 1000;
    await waitForRun(run.id);
    await sleep(10_000);
    // Through the CLI, as an operator runs it: the Prometheus comes from the environment, never from an argument.
    const cli = await execa(process.execPath, [BUNDLE, 'metrics', '--last', '150s', '--json'], {
      env: { PATH: process.env.PATH ?? '', CQL_TUNER_PROMETHEUS_URL: prom!.url, CQL_TUNER_HOME: lab.home },
      reject: false,
    });
    expect(cli.exitCode, cli.stderr).toBe(1); // a node stopped answering: critical, exit 1 (its --help says so)
    const r = JSON.parse(cli.stdout) as MetricsReport;
    process.stdout.write(`${renderMetrics(r)}\n`);
    expect(r.exporters).toEqual(['jmx']);
    expect(r.nodes.map((n) => n.node)).toEqual(state.nodes.map((n) => n.host));
    // The truth to judge the tool by is what Prometheus itself stored for the victim. Under load on 2 cores a scrape
    // can also time out (2 s) before the pause, and the JVM answers late for a while after SIGCONT (seen: 13 s), so
    // the stretch of failed scrapes is read from the raw samples, not assumed to be the 20 s of the pause.
    const raw = (await (await fetch(`${prom!.url}/api/v1/query?query=${encodeURIComponent(`up{instance="${victim.host}:7070"}[180s]`)}`)).json()) as {
      data: { result: { values: [number, string][] }[] };
    };
    const samples = (raw.data.result[0]?.values ?? []).map(([t, v]) => [t, Number(v)] as const);
    const iso = (t: number) => new Date(t * 1000).toISOString().slice(11, 23);
    process.stdout.write(
      `paused ${iso(pausedAt)} resumed ${iso(resumedAt)}; victim failed scrapes: ${samples
        .filter(([, v]) => v !== 1)
        .map(([t]) => iso(t))
        .join(' ')}\n`,
    );
    // printed before any assertion so a failure shows what the tool saw beside what Prometheus stored
    process.stdout.write(
      `changes: ${JSON.stringify(r.changes.filter((c) => c.signal === 'scrape_up').map((c) => [c.node, iso(c.change.start), c.change.end && iso(c.change.end), c.change.direction]))}\n`,
    );
    const lead = r.findings.find((f) => f.node === victim.host && f.severity === 'critical');
    expect(lead, JSON.stringify(r.findings.map((f) => [f.id, f.node, f.title]))).toBeDefined();
    const truth = failedStretch(samples, pausedAt, resumedAt);
    expect(truth, 'Prometheus stored no failed scrape of the victim during its pause').not.toBeNull();
    // the scrape after the pause failed: Prometheus saw the pause within one scrape interval
    expect(truth!.start).toBeLessThanOrEqual(pausedAt + SCRAPE_S + 0.5);
    expect(truth!.end).not.toBeNull();
    // The change the tool reports is that stretch, to within one scrape interval and one step at each end.
    const change = r.changes.find((c) => c.node === victim.host && c.signal === 'scrape_up' && c.bad)!;
    expect(change, JSON.stringify(r.changes.map((c) => [c.node, c.signal, c.change.start]))).toBeDefined();
    expect(Math.abs(change.change.start - truth!.start)).toBeLessThanOrEqual(SCRAPE_S + r.window.step);
    expect(change.change.end).not.toBeNull();
    // After SIGCONT a JVM on 2 loaded cores can answer a few scrapes and miss more (seen in CI: failed to 12:18,
    // answered 12:20 and 12:22, failed 12:24–12:28). Whether that flapping belongs to the outage is a judgement; the
    // tool may end the change at the end of any failed stretch that starts within the catch-up time after the pause's
    // stretch, never inside a steady answered stretch and never before the pause's stretch ended.
    const CATCH_UP_S = 15;
    const ends = failedRuns(samples)
      .filter((s) => s.start >= truth!.start && s.start <= truth!.end! + CATCH_UP_S && s.end !== null)
      .map((s) => s.end!);
    const nearest = Math.min(...ends.map((e) => Math.abs(change.change.end! - e)));
    expect(nearest, `change ends ${iso(change.change.end!)}; failed stretches end ${ends.map(iso).join(' ')}`).toBeLessThanOrEqual(SCRAPE_S + r.window.step);
    expect(change.change.end!).toBeGreaterThanOrEqual(truth!.end! - SCRAPE_S - r.window.step);
    // and it covers the pause
    expect(change.change.start).toBeLessThanOrEqual(pausedAt + SCRAPE_S + r.window.step);
    expect(change.change.end!).toBeGreaterThanOrEqual(resumedAt);
    // the healthy nodes are not blamed for the pause
    expect(r.findings.filter((f) => f.severity === 'critical' && f.node !== victim.host && f.id === 'metrics.change.scrape_up')).toEqual([]);
  }, 400_000);
});
