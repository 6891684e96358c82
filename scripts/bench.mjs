// `npm run bench`: every benchmark prints numbers measured in this one run, with ratios, not absolute promises.
import { benchStartup } from '../bench/startup.mjs';

const benches = [benchStartup];
let failed = 0;
for (const b of benches) {
  const r = await b();
  process.stdout.write(`\n## ${r.name}\n${r.lines.map((l) => `  ${l}`).join('\n')}\n`);
  if (!r.ok) failed++;
}
process.stdout.write(`\n${benches.length - failed}/${benches.length} goals met\n`);
