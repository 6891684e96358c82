// `npm run bench`: every benchmark prints numbers measured in this one run, with ratios, not absolute promises.
import { benchLogs } from '../bench/logs.mjs';
import { benchMetrics } from '../bench/metrics.mjs';
import { benchRealWorld } from '../bench/realworld.mjs';
import { benchSecured } from '../bench/secured.mjs';
import { benchSnapshot } from '../bench/snapshot.mjs';
import { benchSperf } from '../bench/sperf.mjs';
import { benchSperfParity } from '../bench/sperf-parity.mjs';
import { benchStartup } from '../bench/startup.mjs';
import { benchStressOverhead } from '../bench/stress-overhead.mjs';

// BENCH_ONLY=startup (or realworld, logs, snapshot, secured, stress, metrics, sperf, parity) runs one benchmark (the snapshot bench
// starts a 3-node Cassandra lab, ≈ 1 min;
// sperf needs scripts/setup-sperf.sh once, else it says so and skips).
const all = {
  startup: benchStartup,
  realworld: benchRealWorld,
  logs: benchLogs,
  snapshot: benchSnapshot,
  secured: benchSecured,
  stress: benchStressOverhead,
  metrics: benchMetrics,
  sperf: benchSperf,
  parity: benchSperfParity,
};
const only = process.env.BENCH_ONLY;
const benches = only ? [all[only]].filter(Boolean) : Object.values(all);
let failed = 0;
for (const b of benches) {
  const r = await b();
  process.stdout.write(`\n## ${r.name}\n${r.lines.map((l) => `  ${l}`).join('\n')}\n`);
  if (!r.ok) failed++;
}
process.stdout.write(`\n${benches.length - failed}/${benches.length} goals met\n`);
