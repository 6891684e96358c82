// A day of metrics for 3 nodes × 50 tables, backfilled into a real Prometheus (Debian's prometheus + promtool), then
// `cql-tuner metrics` over the 24 h window through the built CLI as a user runs it. Goals (#16): summarised in ≤ 2 s,
// and the report ≤ 2 % of the raw series it summarises. Two injected changes must be found, so a fast answer cannot
// be an empty one: node 2's read p99 for 10 minutes, and one table's local read p99 on node 3 for 28 minutes among
// the 150 table series (per-table families as the JMX exporter's example rules name them).
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../mcp-server/dist/cql-tuner.js', import.meta.url));
const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const NODES = 3;
const TABLES = 50;
const STEP_S = 30;
const DAY_S = 86_400;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** OpenMetrics text for the day: JMX-exporter names (what the lab's agent and the example rules give). */
async function writeSeries(file, end) {
  const out = createWriteStream(file);
  const write = (s) => (out.write(s) ? null : new Promise((r) => out.once('drain', r)));
  const start = end - DAY_S;
  const spike = { from: end - 4 * 3600, to: end - 4 * 3600 + 600 };
  const tableSpike = { from: end - 6 * 3600, to: end - 6 * 3600 + 28 * 60 };
  const inst = (n) => `instance="10.0.0.${n}:7070",job="cassandra"`;
  // Counters grow at a steady rate with a little noise; a hash keeps the text deterministic.
  const noise = (i, k) => (((i * 2654435761 + k * 40503) >>> 0) % 1000) / 1000;
  const families = [];
  for (let n = 1; n <= NODES; n++) {
    families.push({ name: 'up', labels: inst(n), v: () => 1 });
    for (const [req, rate] of [
      ['Read', 800],
      ['Write', 1200],
    ]) {
      families.push({ name: 'cassandra_clientrequest_latency_seconds_count', labels: `${inst(n)},clientrequest="${req}"`, counter: rate });
      families.push({
        name: 'cassandra_clientrequest_latency_seconds',
        labels: `${inst(n)},clientrequest="${req}",quantile="0.99"`,
        v: (t, i) => (req === 'Read' && n === 2 && t >= spike.from && t < spike.to ? 0.25 : 0.004 + noise(i, n) * 0.0005),
      });
      families.push({ name: 'cassandra_clientrequest_timeouts_count', labels: `${inst(n)},clientrequest="${req}"`, counter: 0 });
    }
    families.push({ name: 'cassandra_compaction_pendingtasks', labels: inst(n), v: (t, i) => Math.round(2 + noise(i, n) * 2) });
    families.push({ name: 'cassandra_compaction_bytescompacted_count', labels: inst(n), counter: 4e6 });
    families.push({ name: 'cassandra_droppedmessage_dropped_count', labels: `${inst(n)},message_type="MUTATION"`, counter: 0 });
    families.push({ name: 'cassandra_storage_totalhints_count', labels: inst(n), counter: 0 });
    for (let t = 0; t < TABLES; t++) {
      const tl = `${inst(n)},keyspace="app",table="t${String(t).padStart(2, '0')}"`;
      const q = `${tl},quantile="0.99"`;
      const slow = (tt) => n === 3 && t === 17 && tt >= tableSpike.from && tt < tableSpike.to;
      families.push({ name: 'cassandra_table_readlatency_seconds_count', labels: tl, counter: 10 + t });
      families.push({ name: 'cassandra_table_writelatency_seconds_count', labels: tl, counter: 20 + t });
      families.push({ name: 'cassandra_table_readlatency_seconds', labels: q, v: (tt, i) => (slow(tt) ? 0.2 : 0.001 + noise(i, t) * 0.0002) });
      families.push({ name: 'cassandra_table_writelatency_seconds', labels: q, v: (tt, i) => 0.0002 + noise(i, t + 50) * 0.00005 });
      families.push({ name: 'cassandra_table_sstablesperreadhistogram', labels: q, v: (tt, i) => 1 + Math.round(noise(i, t) * 2) });
      families.push({ name: 'cassandra_table_tombstonescannedhistogram', labels: q, v: (tt, i) => Math.round(noise(i, t + 7) * 10) });
      families.push({ name: 'cassandra_table_pendingcompactions', labels: tl, v: (tt, i) => Math.round(noise(i, t + 3) * 2) });
    }
  }
  let samples = 0;
  let readBytes = 0; // the series the signals read (every family written here is read by one)
  for (const f of families) {
    let c = 0;
    for (let t = start, i = 0; t <= end; t += STEP_S, i++) {
      let v;
      if (f.counter !== undefined) v = c += f.counter * STEP_S * (0.95 + noise(i, 7) * 0.1);
      else v = f.v(t, i);
      const line = `${f.name}{${f.labels}} ${v} ${t}\n`;
      readBytes += line.length;
      const p = write(line);
      if (p) await p;
      samples++;
    }
  }
  out.write('# EOF\n');
  await new Promise((r) => out.end(r));
  return { series: families.length, samples, readBytes };
}

async function waitReady(url, child, ms = 120_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode})`);
    if (
      await fetch(`${url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('prometheus did not become ready');
}

export async function benchMetrics() {
  const name = 'metrics history: 24 h × 3 nodes × 50 tables from a real Prometheus';
  if (!existsSync(PROMETHEUS) || !existsSync(PROMTOOL)) {
    return { name, ok: false, lines: ['prometheus/promtool not installed (apt-get install prometheus): not measured'] };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-bench-metrics-'));
  let child;
  try {
    // Whole hours, two hours back: promtool writes blocks of finished 2 h ranges, the head is not needed.
    const end = Math.floor(Date.now() / 1000 / 3600) * 3600 - 7200;
    const om = join(dir, 'day.om');
    const t0 = performance.now();
    const { series, samples, readBytes } = await writeSeries(om, end);
    execFileSync(PROMTOOL, ['tsdb', 'create-blocks-from', 'openmetrics', om, join(dir, 'data')], { stdio: 'ignore', timeout: 600_000 });
    const prepS = (performance.now() - t0) / 1000;
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    child = spawn(
      PROMETHEUS,
      [`--config.file=/dev/null`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--storage.tsdb.retention.time=30d'],
      { stdio: 'ignore' },
    );
    await waitReady(url, child);
    const env = { ...process.env, CQL_TUNER_PROMETHEUS_URL: url, TZ: 'UTC' };
    const args = ['metrics', '--from', String(end - DAY_S), '--to', String(end), '--json'];
    const runOnce = () => {
      const t = performance.now();
      let text;
      try {
        text = execFileSync(process.execPath, [cli, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
      } catch (e) {
        text = e.stdout; // exit 1 = findings with a critical: still a report
        if (!text) throw e;
      }
      return { ms: performance.now() - t, text };
    };
    runOnce(); // warm-up: Prometheus loads the blocks' indexes on the first query
    const runs = [runOnce(), runOnce(), runOnce()].sort((a, b) => a.ms - b.ms);
    const med = runs[1];
    const report = JSON.parse(med.text);
    const rawBytes = statSync(om).size;
    const ratio = Buffer.byteLength(med.text) / rawBytes;
    const found = (report.changes ?? []).some((c) => c.signal === 'read_p99' && /10\.0\.0\.2/.test(JSON.stringify(c)));
    const tableFinding = (report.findings ?? []).find((f) => f.id === 'metrics.table.table_read_p99');
    const foundTable = tableFinding?.node === '10.0.0.3' && tableFinding?.table === 'app.t17';
    const tableViews = report.tables ?? [];
    const listed = tableViews.reduce((a, v) => a + v.top.length, 0);
    const leftOut = tableViews.reduce((a, v) => a + v.leftOut, 0);
    const okTime = med.ms <= 2000;
    const okSize = ratio <= 0.02;
    return {
      name,
      ok: okTime && okSize && found && foundTable,
      lines: [
        `data: ${series} series × ${DAY_S / STEP_S + 1} points = ${samples.toLocaleString('en')} samples (${(rawBytes / 1e6).toFixed(1)} MB as text), backfilled in ${prepS.toFixed(1)} s`,
        `summary: median of 3 CLI runs ${(med.ms / 1000).toFixed(2)} s (goal ≤ 2 s) ${okTime ? 'met' : 'NOT met'}; runs ${runs.map((r) => (r.ms / 1000).toFixed(2)).join(', ')} s`,
        `report: ${(Buffer.byteLength(med.text) / 1024).toFixed(1)} KiB JSON = ${(ratio * 100).toFixed(3)} % of the raw series (goal ≤ 2 %) ${okSize ? 'met' : 'NOT met'}; ` +
          `${((Buffer.byteLength(med.text) / readBytes) * 100).toFixed(2)} % of the ${(readBytes / 1e6).toFixed(1)} MB the signals read`,
        `injected change (node 10.0.0.2 read p99 0.25 s for 10 min): ${found ? 'found' : 'NOT found'}`,
        `injected table change (app.t17 on 10.0.0.3, local read p99 0.2 s for 28 min): ` + (foundTable ? `found: ${tableFinding.title}` : 'NOT found'),
        `per-table: ${tableViews.length} signals × ${tableViews[0]?.series ?? 0} series summarised, ` +
          `${listed} listed, ${leftOut} left out (counted, not listed)`,
      ],
    };
  } finally {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchMetrics();
  console.log(`## ${r.name}\n${r.lines.map((l) => `  ${l}`).join('\n')}`);
  process.exitCode = r.ok ? 0 : 1;
}
