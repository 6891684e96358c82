#!/usr/bin/env node
/**
 * `npm run hardening`: runs tests/hardening (fuzzing, hostile input, output caps, secrets) and prints what they
 * measured: hostile inputs tried / refused / handled literally / executed (and unsafe: must be 0), fuzz cases
 * per parser and failures (0), output caps, secrets leaked (0).
 *
 * Knobs (passed to the tests): HARDENING_FUZZ_RUNS (cases per parser, default 10000), HARDENING_MAX_MS,
 * HARDENING_SEED, HARDENING_MAX_CUTS, HARDENING_MCP_PER_PARAM, HARDENING_CLI_SAMPLE.
 * Extra arguments go to vitest (e.g. `npm run hardening -- tests/hardening/secrets.test.ts`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'cql-tuner-hardening-report-'));
const statsFile = join(work, 'stats.jsonl');
const jsonFile = join(work, 'vitest.json');
const files = process.argv.slice(2).length ? process.argv.slice(2) : ['tests/hardening'];

const started = Date.now();
const run = spawnSync(
  process.execPath,
  [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files, '--reporter=dot', '--reporter=json', `--outputFile.json=${jsonFile}`],
  {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, HARDENING_STATS: statsFile },
  },
);
const seconds = ((Date.now() - started) / 1000).toFixed(0);

const stats = existsSync(statsFile)
  ? readFileSync(statsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
const vitest = existsSync(jsonFile) ? JSON.parse(readFileSync(jsonFile, 'utf8')) : null;
rmSync(work, { recursive: true, force: true });

const pad = (s, n) => String(s).padEnd(n);
const num = (n, w = 7) => String(n).padStart(w);
const out = [];
const problems = [];

// Hostile input
const hostile = stats.filter((s) => s.section === 'hostile');
if (hostile.length) {
  out.push('', 'HOSTILE INPUT (each value refused with a message, or handled literally; executed argv checked)');
  out.push(`${pad('parameter kind / path', 48)}${num('tried')}${num('refused', 9)}${num('literal', 9)}${num('executed', 10)}${num('unsafe', 8)}`);
  const sum = { tried: 0, refused: 0, literal: 0, executed: 0, unsafe: 0 };
  for (const h of hostile) {
    out.push(`${pad(h.kind, 48)}${num(h.tried)}${num(h.refused, 9)}${num(h.literal, 9)}${num(h.executed, 10)}${num(h.unsafe, 8)}`);
    for (const k of Object.keys(sum)) sum[k] += h[k];
  }
  out.push(`${pad('TOTAL', 48)}${num(sum.tried)}${num(sum.refused, 9)}${num(sum.literal, 9)}${num(sum.executed, 10)}${num(sum.unsafe, 8)}`);
  out.push(`executed unsafe (a shell, an unlisted or destructive command, an option injection): ${sum.unsafe}`);
  if (sum.unsafe) problems.push(`${sum.unsafe} unsafe executions`);
}

// Fuzzing
const fuzz = stats.filter((s) => s.section === 'fuzz');
if (fuzz.length) {
  out.push('', 'FUZZED OUTPUT (no throw, well-formed Parsed, ok:false with a reason, per-input time bound)');
  out.push(`${pad('parser', 72)}${num('cases', 8)}${num('failures', 10)}${num('max ms', 8)}`);
  let cases = 0;
  let failures = 0;
  for (const f of fuzz) {
    out.push(`${pad(f.target, 72)}${num(f.cases, 8)}${num(f.failures, 10)}${num(f.maxMs, 8)}`);
    cases += f.cases;
    failures += f.failures;
  }
  const parsers = fuzz.filter((f) => !/^truncations|^detect$|^interpret$/.test(f.target));
  out.push(`${parsers.length} parsers, min ${Math.min(...parsers.map((p) => p.cases))} cases each; ${cases} cases in all; failures ${failures}`);
  if (failures) problems.push(`${failures} fuzz failures`);
}

// Output caps
const caps = stats.filter((s) => s.section === 'cap');
if (caps.length) {
  out.push('', 'OUTPUT CAPS (real processes)');
  for (const c of caps)
    out.push(
      `${pad(c.what, 48)} cap ${(c.limitBytes / 1048576).toFixed(0)} MiB, kept ${(c.keptBytes / 1048576).toFixed(1)} MiB, truncated flag ${c.truncated}, RSS growth ${c.rssGrowthMiB} MiB`,
    );
}

// Secrets
const secrets = stats.filter((s) => s.section === 'secrets');
if (secrets.length) {
  out.push('', 'SECRETS (sentinel JMX/CQL passwords in env, every artefact grepped)');
  for (const s of secrets) out.push(`${s.what}: ${s.artefacts} artefacts, leaked ${s.leaks}`);
  const leaked = secrets.reduce((a, s) => a + s.leaks, 0);
  out.push(`secrets leaked: ${leaked}`);
  if (leaked) problems.push(`${leaked} secret leaks`);
}

// Attack classes (SECURITY.md, issue #13): each class's regression tests report attempts and what got through.
const attacks = stats.filter((s) => s.section === 'attack');
if (attacks.length) {
  out.push('', 'ATTACK CLASSES (SECURITY.md: each attempt refused, bounded or handled without effect)');
  out.push(`${pad('class', 64)}${num('tried')}${num('unsafe', 8)}`);
  const byClass = new Map();
  for (const a of attacks) {
    const c = byClass.get(a.cls) ?? { tried: 0, unsafe: 0 };
    c.tried += a.tried;
    c.unsafe += a.unsafe;
    byClass.set(a.cls, c);
  }
  let unsafe = 0;
  for (const [cls, c] of [...byClass].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }))) {
    out.push(`${pad(cls, 64)}${num(c.tried)}${num(c.unsafe, 8)}`);
    unsafe += c.unsafe;
  }
  out.push(`${byClass.size} classes; unsafe outcomes: ${unsafe}`);
  if (unsafe) problems.push(`${unsafe} unsafe outcomes in the attack classes`);
}

const passed = vitest?.numPassedTests ?? 0;
const failed = vitest?.numFailedTests ?? (run.status === 0 ? 0 : 1);
if (vitest) {
  for (const file of vitest.testResults ?? []) {
    for (const a of file.assertionResults ?? []) if (a.status === 'failed') problems.push(`failed: ${a.fullName}`);
  }
}
out.push('', `hardening: ${seconds} s; fault scenarios (real lab) are not part of this run`);
if (problems.length) out.push(`PROBLEMS:\n  ${problems.join('\n  ')}`);
out.push(`${passed} passed, ${failed} failed`);
process.stdout.write(`${out.join('\n')}\n`);
process.exit(run.status === 0 && problems.length === 0 ? 0 : 1);
