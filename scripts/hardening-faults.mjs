#!/usr/bin/env node
/**
 * The fault scenarios of `npm run hardening`: runs tests/faults (a silent JMX port, an ssh target that is down,
 * a nodetool printing garbage or printing without end, a full runs/bundle folder, a node killed mid-run on a
 * real 3-node lab) through vitest's JSON reporter and prints "fault scenarios passed: N/M", one line per
 * scenario. Exit status 1 when any scenario failed (skipped ones are listed and not counted as passed).
 * Extra arguments go to vitest.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'cql-tuner-faults-report-'));
const jsonFile = join(work, 'vitest.json');
const started = Date.now();
const run = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    'tests/faults',
    '--reporter=dot',
    '--reporter=json',
    `--outputFile.json=${jsonFile}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
);
const seconds = ((Date.now() - started) / 1000).toFixed(0);
const report = existsSync(jsonFile) ? JSON.parse(readFileSync(jsonFile, 'utf8')) : null;
rmSync(work, { recursive: true, force: true });

if (!report) {
  console.log(`fault scenarios passed: 0/? (vitest wrote no report; exit ${run.status})`);
  process.exit(1);
}
const tests = report.testResults.flatMap((f) => f.assertionResults.map((a) => ({ file: f.name.replace(`${root}/`, ''), ...a })));
const passed = tests.filter((t) => t.status === 'passed');
const failed = tests.filter((t) => t.status === 'failed');
const skipped = tests.filter((t) => t.status !== 'passed' && t.status !== 'failed');
console.log('');
console.log('FAULT SCENARIOS (each ends within its timeout, keeps what was collected, leaves no process)');
for (const t of tests)
  console.log(
    `  ${t.status === 'passed' ? 'ok  ' : t.status === 'failed' ? 'FAIL' : 'skip'}  ${t.fullName}${t.duration ? ` (${Math.round(t.duration / 100) / 10} s)` : ''}`,
  );
for (const t of failed) console.log(`\n  ${t.fullName}:\n    ${(t.failureMessages ?? []).join('\n').split('\n').slice(0, 6).join('\n    ')}`);
console.log('');
console.log(`fault scenarios passed: ${passed.length}/${passed.length + failed.length}${skipped.length ? ` (${skipped.length} skipped)` : ''} in ${seconds} s`);
process.exit(failed.length || run.status !== 0 ? 1 : 0);
