#!/usr/bin/env node
// Scores the built CLI against the real-world corpus (tests/fixtures/real-world): every sample is run through
// `cql-tuner interpret <file> --json` and compared with its SOURCES.tsv label. Tuned and held-out splits are
// reported separately so tuning on one cannot hide regressions on the other. The misses table is the work list.
//
// Usage: npm run build && node scripts/real-world-score.mjs [--json] [--split tuned|heldout]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = join(root, 'tests', 'fixtures', 'real-world');
const cli = join(root, 'mcp-server', 'dist', 'cql-tuner.js');

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const splitArg = args.includes('--split') ? args[args.indexOf('--split') + 1] : undefined;
if (splitArg !== undefined && splitArg !== 'tuned' && splitArg !== 'heldout') {
  console.error(`--split must be tuned or heldout, not ${JSON.stringify(splitArg)}`);
  process.exit(2);
}
if (!existsSync(cli)) {
  console.error(`${cli} is missing: run \`npm run build\` first.`);
  process.exit(2);
}

/** SOURCES.tsv rows as objects keyed by the header (file, url, product, kind, conclusion, expected, split). */
function readSources() {
  const lines = readFileSync(join(corpusDir, 'SOURCES.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const header = lines[0].split('\t');
  return lines.slice(1).map((line) => Object.fromEntries(line.split('\t').map((cell, i) => [header[i], cell])));
}

/**
 * expected = "<kind>" then either finding ids, the word `healthy`, or nothing (the thread's conclusion is outside
 * what any rule covers, so only the kind is scored). An id may carry the figure the thread states, `id~text` (`_` for
 * a space): a finding with that id must say it in its title or evidence ("log.local-pause~2.1_min"), so a finding
 * that names the right problem with a wrong number (a 128 s pause read as 0 ms) is a miss.
 */
function parseExpected(expected) {
  const [kind, ...rest] = expected.trim().split(/\s+/);
  if (rest.length === 0) return { kind, mode: 'kind-only', ids: [], checks: [] };
  if (rest.length === 1 && rest[0] === 'healthy') return { kind, mode: 'healthy', ids: [], checks: [] };
  const checks = rest.map((t) => {
    const at = t.indexOf('~');
    return at < 0 ? { id: t, says: null } : { id: t.slice(0, at), says: t.slice(at + 1).replace(/_/g, ' ') };
  });
  return { kind, mode: 'findings', ids: checks.map((c) => c.id), checks };
}

/** Every expected id is found, and says its figure when one is given (underscores in its text compare as spaces: listen_address). */
function checksPass(exp, findings) {
  const says = (f, text) => [f.title, ...(f.evidence ?? [])].join(' ').replace(/_/g, ' ').includes(text);
  return exp.checks.every((c) => findings.some((f) => f.id === c.id && (c.says === null || says(f, c.says))));
}

/** Runs the CLI; interpret exits 1 on a critical finding and 2 when unrecognised, both still print the JSON report. */
function interpret(file) {
  let stdout;
  try {
    stdout = execFileSync(process.execPath, [cli, 'interpret', join(corpusDir, file), '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (e) {
    stdout = typeof e.stdout === 'string' ? e.stdout : '';
    if (stdout.trim() === '') return { kind: null, findings: [], error: String(e.stderr || e.message).split('\n')[0] };
  }
  try {
    const report = JSON.parse(stdout);
    return { kind: report.kind ?? null, findings: Array.isArray(report.findings) ? report.findings : [], summary: report.summary };
  } catch {
    return { kind: null, findings: [], error: 'the CLI did not print JSON' };
  }
}

function score(row) {
  const exp = parseExpected(row.expected);
  const got = interpret(row.file);
  const ids = [...new Set(got.findings.map((f) => f.id))];
  const alarming = got.findings.filter((f) => f.severity === 'warning' || f.severity === 'critical').map((f) => f.id);
  const kindRight = got.kind === exp.kind;
  let conclusionRight = null; // null: not scored (kind-only label)
  if (exp.mode === 'healthy') conclusionRight = kindRight && alarming.length === 0;
  if (exp.mode === 'findings') conclusionRight = kindRight && checksPass(exp, got.findings);
  const gotText = got.kind === null ? `unrecognised${got.error ? ` (${got.error})` : ''}` : [got.kind, ...(exp.mode === 'healthy' ? alarming : ids)].join(' ');
  const cause = causeOf(exp, got, ids, alarming, got.findings);
  return { file: row.file, split: row.split, expected: row.expected, mode: exp.mode, kindRight, conclusionRight, got: gotText, cause };
}

/** Why a sample missed, coarse enough to rank the work list. */
function causeOf(exp, got, ids, alarming, findings) {
  if (got.kind === null) return 'not recognised';
  if (got.kind !== exp.kind) return 'wrong kind';
  if (exp.mode === 'healthy' && alarming.length > 0) return 'false alarm on a healthy sample';
  if (exp.mode === 'findings' && !exp.ids.every((id) => ids.includes(id))) return 'expected finding missing';
  if (exp.mode === 'findings' && !checksPass(exp, findings)) return 'finding with a wrong figure';
  return null;
}

const pct = (k, n) => (n === 0 ? 'n/a' : `${((100 * k) / n).toFixed(1)}%`);

function summarise(results) {
  const kindK = results.filter((r) => r.kindRight).length;
  const scored = results.filter((r) => r.conclusionRight !== null);
  const conclK = scored.filter((r) => r.conclusionRight).length;
  return { samples: results.length, kind: { right: kindK, of: results.length }, conclusion: { right: conclK, of: scored.length } };
}

const rows = readSources().filter((r) => splitArg === undefined || r.split === splitArg);
const results = rows.map(score);
const bySplit = Object.fromEntries(['tuned', 'heldout'].map((s) => [s, summarise(results.filter((r) => r.split === s))]));
const misses = results.filter((r) => !r.kindRight || r.conclusionRight === false);

if (asJson) {
  console.log(JSON.stringify({ splits: bySplit, misses }, null, 2));
} else {
  console.log(`real-world corpus: ${results.length} samples (${corpusDir})\n`);
  for (const [split, s] of Object.entries(bySplit)) {
    if (s.samples === 0) continue;
    console.log(
      `${split.padEnd(8)} kind ${s.kind.right}/${s.kind.of} (${pct(s.kind.right, s.kind.of)})   ` +
        `conclusion ${s.conclusion.right}/${s.conclusion.of} (${pct(s.conclusion.right, s.conclusion.of)})` +
        `   [${s.samples - s.conclusion.of} kind-only labels]`,
    );
  }
  const causes = new Map();
  for (const m of misses) causes.set(m.cause, (causes.get(m.cause) ?? 0) + 1);
  console.log(
    `\nmiss causes: ${
      [...causes]
        .sort((a, b) => b[1] - a[1])
        .map(([c, n]) => `${c} ${n}`)
        .join(', ') || 'none'
    }`,
  );
  console.log(`\nmisses (${misses.length}):`);
  const w = Math.max(4, ...misses.map((m) => m.file.length));
  console.log(`${'file'.padEnd(w)}  split    ${'expected'.padEnd(40)}  got`);
  for (const m of misses) console.log(`${m.file.padEnd(w)}  ${m.split.padEnd(7)}  ${m.expected.padEnd(40)}  ${m.got}`);
}
