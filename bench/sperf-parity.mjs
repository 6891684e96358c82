// sperf parity (issue #14): of DataStax sperf's own tests that apply to Apache Cassandra and have a figure to compare,
// how many tests/unit/sperf-parity.test.ts asserts on the same input. The count is taken from a run of that test
// file, so a case counts only while its assertion passes. Goal ≥ 90 %; DSE-only cases are listed apart.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const GOAL = 0.9;

export async function benchSperfParity() {
  const name = 'sperf parity (its own tests, same inputs)';
  const started = Date.now();
  let out = '';
  let passed = true;
  try {
    out = execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--project', 'hermetic', 'tests/unit/sperf-parity.test.ts'],
      {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      },
    );
  } catch (e) {
    out = String(e.stdout ?? '');
    passed = false;
  }
  const m = /sperf parity \(Apache-applicable, comparable\): (\d+)\/(\d+)/.exec(out);
  const summary = /sperf parity: .*/.exec(out)?.[0];
  if (!m) return { name, lines: ['the parity test printed no count (run npx vitest run tests/unit/sperf-parity.test.ts)'], ok: false };
  const [asserted, of] = [Number(m[1]), Number(m[2])];
  const ok = passed && asserted / of >= GOAL;
  const gaps = out.split('\n').filter((l) => l.trim().startsWith('gap: '));
  const dse = /DSE-only \((\d+)\)/.exec(out)?.[1] ?? '?';
  return {
    name,
    lines: [
      `Apache-applicable: ${asserted}/${of} asserted (${((100 * asserted) / of).toFixed(1)} %) — goal ≥ ${GOAL * 100} % ${ok ? 'met' : 'NOT met'}${passed ? '' : ' (the parity tests FAILED)'}`,
      ...gaps.map((g) => g.trim()),
      `DSE-only cases, not counted: ${dse} (listed by the test)`,
      ...(summary ? [summary] : []),
      `ran in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ],
    ok,
  };
}
