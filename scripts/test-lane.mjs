#!/usr/bin/env node
// Runs one vitest lane (a project in vitest.config.ts) and reports its skipped tests by name. With
// CQL_TUNER_STRICT_LANES=1 (set by .ci/run) a skip fails the lane: CI installs everything the lanes need, so a skip
// there means a lane silently stopped testing what it claims to.
//
// Usage: node scripts/test-lane.mjs hermetic|lab|metrics [extra vitest args]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LANES = ['hermetic', 'lab', 'metrics'];
const [lane, ...extra] = process.argv.slice(2);
if (!LANES.includes(lane)) {
  console.error(`lane must be one of ${LANES.join(', ')}, not ${JSON.stringify(lane)}`);
  process.exit(2);
}
const strict = process.env.CQL_TUNER_STRICT_LANES === '1';
const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-lane-'));
const report = join(dir, 'report.json');
const started = Date.now();
const run = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--project', lane, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra],
  { stdio: 'inherit', env: { ...process.env, ...(lane === 'hermetic' ? { CQL_TUNER_PARALLEL_FILES: '1' } : {}) } },
);

let results;
try {
  results = JSON.parse(readFileSync(report, 'utf8'));
} catch (e) {
  console.error(`lane ${lane}: no vitest report (${e.message}); vitest exited ${run.status}`);
  process.exit(run.status || 1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const skipped = [];
let passed = 0;
let failed = 0;
for (const file of results.testResults ?? []) {
  for (const t of file.assertionResults ?? []) {
    if (t.status === 'passed') passed++;
    else if (t.status === 'failed') failed++;
    else skipped.push(`${file.name.replace(process.cwd() + '/', '')} > ${t.fullName}`);
  }
}
const secs = Math.round((Date.now() - started) / 1000);
console.log(`\nlane ${lane}: ${passed} passed, ${failed} failed, ${skipped.length} skipped in ${secs} s`);
for (const s of skipped) console.log(`  skipped: ${s}`);
if (strict && skipped.length > 0) {
  console.error(`lane ${lane}: ${skipped.length} test(s) skipped under CQL_TUNER_STRICT_LANES=1; each note on stderr above says why`);
  process.exit(1);
}
process.exit(run.status ?? 1);
