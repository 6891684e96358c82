/**
 * `diagnose` with a window on a real 1-node lab under a paced write load: the node's coordinator writes/s over
 * the window match the rate the client sent (within 10 %), and the host's CPU and disk figures equal what
 * /proc said at the two instants the window read it (recomputed here from the raw text, within rounding).
 */
import cassandra from 'cassandra-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import type { RunOptions, RunResult, Target } from '../../mcp-server/src/collect/target.js';
import { diagnose, type DiagnosisReport } from '../../mcp-server/src/ops/diagnose.js';
import { tempLabHome } from '../helpers/lab-home.js';

const skip = process.env.CQL_TUNER_SKIP_LAB === '1' || process.platform !== 'linux';
const lab = tempLabHome('cql-tuner-window-');
const RATE = 200;

/** The real local target, keeping what each /proc read printed. */
class TeeTarget implements Target {
  readonly kind = 'local' as const;
  readonly outputs: string[] = [];
  private readonly inner = new LocalTarget();
  describe() {
    return 'local';
  }
  async run(argv: readonly string[], opts: RunOptions): Promise<RunResult> {
    const r = await this.inner.run(argv, opts);
    if (argv.includes('/proc/diskstats')) this.outputs.push(r.stdout);
    return r;
  }
}

let client: InstanceType<typeof cassandra.Client>;
let report: DiagnosisReport;
const host = new TeeTarget();
let sent = 0;
let loadSeconds = 0;
const progress: string[] = [];

beforeAll(async () => {
  if (skip) return;
  await lab.start({ nodes: 1, version: '4.1', heap: '1G' });
  client = new cassandra.Client({ contactPoints: ['127.0.0.1'], localDataCenter: 'datacenter1', socketOptions: { readTimeout: 30_000 } });
  await client.connect();
  await client.execute("CREATE KEYSPACE w WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  await client.execute('CREATE TABLE w.t (k int PRIMARY KEY, v text)');
  const ins = 'INSERT INTO w.t (k, v) VALUES (?, ?)';
  await client.execute(ins, [0, 'warm'], { prepare: true });
  // A paced load: RATE writes per second, in 10 ms ticks, for as long as the diagnosis runs.
  let stop = false;
  const t0 = Date.now();
  const load = (async () => {
    let k = 1;
    while (!stop) {
      const due = Math.floor(((Date.now() - t0) / 1000) * RATE);
      const batch: Promise<unknown>[] = [];
      while (k <= due) batch.push(client.execute(ins, [k++, 'v'], { prepare: true }).then(() => sent++));
      await Promise.all(batch);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await new Promise((r) => setTimeout(r, 3000));
  const sentBefore = sent;
  const tBefore = Date.now();
  report = await diagnose({ lab: true, windowSeconds: 5 }, { labHost: host, onProgress: (e) => progress.push(e.message) });
  loadSeconds = (Date.now() - tBefore) / 1000;
  sent -= sentBefore;
  stop = true;
  await load;
}, 900_000);

afterAll(async () => {
  if (skip) return;
  await client?.shutdown().catch(() => {});
  await lab.stop();
}, 120_000);

/** The raw lines of one file in a `grep -H ''` output. */
const linesOf = (out: string, file: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith(`${file}:`))
    .map((l) => l.slice(file.length + 1));

describe.skipIf(skip)('diagnose --window on a real lab', () => {
  it('measures the window it was asked for, with progress', () => {
    expect(report.window).toBeDefined();
    expect(report.window!.requestedSeconds).toBe(5);
    expect(report.window!.seconds).toBeGreaterThanOrEqual(5);
    // A window is never shorter than one sweep (nodetool on a busy 2-core host can take longer than 5 s): then it is
    // as long as that sweep, and says so.
    const w = report.window!;
    expect(w.seconds).toBeLessThan(Math.max(5, w.firstSweepSeconds) + 2);
    if (w.firstSweepSeconds > 5) expect(w.notes.join()).toMatch(/first sweep took .* longer than the 5 s asked/);
    // Progress each second of the wait (none to wait for when the first sweep outlasted the window), then the end.
    if (w.firstSweepSeconds < 4) expect(progress.some((m) => /^window: \d of 5 s/.test(m))).toBe(true);
    expect(progress).toContain('window over: reading counters again');
    console.log(`window ${w.seconds.toFixed(1)} s, first sweep ${w.firstSweepSeconds.toFixed(1)} s, ${JSON.stringify(w.nodes[0])}`);
  });

  it('per-node writes/s over the window are within 10 % of the rate the client sent', () => {
    const n = report.window!.nodes[0]!;
    const clientRate = sent / loadSeconds;
    expect(clientRate).toBeGreaterThan(RATE * 0.8);
    expect(n.coordinatorWritesPerS, JSON.stringify(n)).not.toBeNull();
    console.log(`client ${clientRate.toFixed(1)} writes/s, node coordinator ${n.coordinatorWritesPerS!.toFixed(1)} writes/s`);
    expect(Math.abs(n.coordinatorWritesPerS! - clientRate) / clientRate).toBeLessThan(0.1);
    expect(n.tables.find((t) => t.table === 'w.t')!.writesPerS! / clientRate).toBeGreaterThan(0.9);
  });

  it('CPU and disk figures equal what /proc said at the two reads of the window', () => {
    const h = report.window!.hosts[0]!;
    expect(h.error).toBeUndefined();
    expect(host.outputs).toHaveLength(2);
    const [a, b] = host.outputs as [string, string];
    const up = (o: string) => Number(linesOf(o, '/proc/uptime')[0]!.split(' ')[0]);
    const secs = up(b) - up(a);
    expect(h.window!.seconds).toBeCloseTo(secs, 6);
    // CPU: the aggregate line's first eight fields are user nice system idle iowait irq softirq steal.
    const cpu = (o: string) =>
      linesOf(o, '/proc/stat')
        .find((l) => l.startsWith('cpu '))!
        .trim()
        .split(/\s+/)
        .slice(1, 9)
        .map(Number);
    const [ca, cb] = [cpu(a), cpu(b)];
    const d = cb.map((x, i) => x - ca[i]!);
    const all = d.reduce((s, x) => s + x, 0);
    const c = h.window!.cpu!;
    expect(c.userPct).toBeCloseTo((100 * d[0]!) / all, 2);
    expect(c.systemPct).toBeCloseTo((100 * (d[2]! + d[5]! + d[6]!)) / all, 2);
    expect(c.idlePct).toBeCloseTo((100 * d[3]!) / all, 2);
    expect(c.iowaitPct).toBeCloseTo((100 * d[4]!) / all, 2);
    // Cassandra under load used some CPU in the window.
    expect(c.userPct + c.systemPct).toBeGreaterThan(1);
    // Disk: reads/s, writes/s and utilisation of each device from its diskstats line.
    const disk = (o: string) =>
      new Map(
        linesOf(o, '/proc/diskstats')
          .map((l) => l.trim().split(/\s+/))
          .map((f) => [f[2]!, f.slice(3).map(Number)]),
      );
    const [da, db] = [disk(a), disk(b)];
    expect(h.window!.disks.length).toBeGreaterThan(0);
    for (const w of h.window!.disks) {
      const x = da.get(w.device)!;
      const y = db.get(w.device)!;
      expect(w.rPerS, w.device).toBeCloseTo((y[0]! - x[0]!) / secs, 6);
      expect(w.wPerS, w.device).toBeCloseTo((y[4]! - x[4]!) / secs, 6);
      expect(w.wkBPerS, w.device).toBeCloseTo((y[6]! - x[6]!) / 2 / secs, 6);
      expect(w.utilPct, w.device).toBeCloseTo(Math.min(100, (y[9]! - x[9]!) / secs / 10), 6);
    }
  });

  it('cancelling during the window stops it with CANCELLED', async () => {
    const ac = new AbortController();
    const p = diagnose({ lab: true, windowSeconds: 60 }, { signal: ac.signal, onProgress: (e) => e.message.startsWith('window:') && ac.abort() });
    const t0 = Date.now();
    await expect(p).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - t0).toBeLessThan(30_000);
  }, 60_000);
});
