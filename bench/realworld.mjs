// The real-world corpus (tests/fixtures/real-world) scored through the built CLI, tuned and held-out splits side by
// side, against issue #14's goal: ≥ 90 % on both, kind and conclusion. The held-out split is never tuned on, so its
// number is the honest one; both are printed so tuning on one cannot hide a loss on the other.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'mcp-server', 'dist', 'cql-tuner.js');
const GOAL = 0.9;

export async function benchRealWorld() {
  const name = 'real-world corpus (tuned / held-out)';
  if (!existsSync(CLI)) return { name, lines: [`skipped: ${CLI} is absent; run npm run build`], ok: false };
  const started = Date.now();
  const out = execFileSync(process.execPath, [join(root, 'scripts', 'real-world-score.mjs'), '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const { splits, misses } = JSON.parse(out);
  const pct = (s) => (s.of === 0 ? 'n/a' : `${((100 * s.right) / s.of).toFixed(1)} %`);
  const met = (s) => s.of > 0 && s.right / s.of >= GOAL;
  const lines = [];
  let ok = true;
  for (const split of ['tuned', 'heldout']) {
    const s = splits[split];
    if (!s) continue;
    const good = met(s.kind) && met(s.conclusion);
    ok &&= good;
    lines.push(
      `${split.padEnd(7)}: ${s.samples} samples; kind ${s.kind.right}/${s.kind.of} (${pct(s.kind)}), conclusion ${s.conclusion.right}/${s.conclusion.of} ` +
        `(${pct(s.conclusion)}) — goal ≥ ${GOAL * 100} % ${good ? 'met' : 'NOT met'}`,
    );
  }
  for (const m of misses.slice(0, 10)) lines.push(`miss (${m.split}): ${m.file} — expected ${m.expected}, got ${m.got}`);
  lines.push(`scored in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { name, lines, ok };
}
