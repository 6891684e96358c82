/**
 * Class 7 (issue #13): cassandra-stress joins its arguments with spaces and splits them again, so a user
 * profile path "p.yaml -graph file=/x.html" became `-graph file=/x.html` (which writes a file); and a value
 * starting with "-" reads as an option to every tool. run_stress must refuse such values before any argv is
 * built or any process started, and honest profiles must keep working.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARGV_BUILDERS } from '../../mcp-server/src/core/stress/argv.js';
import type { StressParams } from '../../mcp-server/src/core/stress/params.js';
import { runsDir } from '../../mcp-server/src/collect/stress-runner.js';
import { startStress, waitForRun } from '../../mcp-server/src/ops/stress.js';
import { record } from './stats.js';

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-sec7-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A cassandra-stress / latte stand-in that records its argv and prints one result line. */
function fakeTool(name: 'cassandra-stress' | 'latte'): { bin: string; log: string } {
  const dir = join(tmp, `bin-${name}`);
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, name);
  const log = join(dir, 'calls.jsonl');
  writeFileSync(
    bin,
    `#!${process.execPath}
require('node:fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)) + '\\n');
process.stdout.write('Results:\\nOp rate                   :    1,000 op/s  [WRITE: 1,000 op/s]\\n');
`,
  );
  chmodSync(bin, 0o755);
  return { bin, log };
}
const calls = (log: string): string[][] =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as string[])
    : [];

const home = join(tmp, 'home');
const env = { CQL_TUNER_HOME: home, PATH: '' };
mkdirSync(home, { recursive: true });
const profiles = join(tmp, 'profiles');
mkdirSync(profiles, { recursive: true });
const honest = join(profiles, 'profile.yaml');
writeFileSync(honest, 'keyspace: ks\ntable: t\n');
// Hostile paths that exist, so a refusal is about the value and not a missing file.
const spaced = join(profiles, 'my profile.yaml');
writeFileSync(spaced, 'keyspace: ks\n');
const link = join(profiles, 'link.yaml');
symlinkSync(honest, link);
const graphOut = join(tmp, 'pwned.html');

const user = (tool: StressParams['tool'], profile: string): StressParams => ({
  tool,
  workload: 'user',
  profile,
  ops: { insert: 1 },
  nodes: ['127.0.0.1'],
  n: 10,
});

describe('class 7: stress argument values never become options', () => {
  it('refuses profile paths with spaces, -graph and other option text before building argv or starting anything', async () => {
    const cs = fakeTool('cassandra-stress');
    const latte = fakeTool('latte');
    const hostile: [StressParams['tool'], string][] = [
      ['cassandra-stress', spaced],
      ['cassandra-stress', `${honest} -graph file=${graphOut}`],
      ['cassandra-stress', '-graph'],
      ['cassandra-stress', `-graph file=${graphOut}`],
      ['cassandra-stress', `${honest}\t-log\tfile=${graphOut}`],
      ['cassandra-stress', `${honest},${honest}`],
      ['cassandra-stress', `${honest})`],
      ['cassandra-stress', link],
      ['cassandra-stress', profiles],
      ['cassandra-stress', '/dev/null'],
      ['cassandra-stress', join(profiles, 'missing.yaml')],
      ['latte', `--log-dir=${tmp}`],
      ['latte', `-o${graphOut}`],
      ['latte', link],
    ];
    let tried = 0;
    const unsafe: string[] = [];
    for (const [tool, profile] of hostile) {
      tried++;
      const bin = tool === 'latte' ? latte.bin : cs.bin;
      const before = readdirSync(home, { withFileTypes: true }).length;
      const r = await startStress({ ...user(tool, profile), binary: bin, snapshots: 'none' }, { env }).then(
        (s) => ({ ok: true as const, id: s.id }),
        (e: { code?: string; message?: string }) => ({ ok: false as const, code: e.code, message: e.message ?? '' }),
      );
      if (r.ok) {
        await waitForRun(r.id).catch(() => null);
        unsafe.push(`${tool} profile ${JSON.stringify(profile)} was accepted`);
        continue;
      }
      if (!/^STRESS_BAD_(PARAMS|PROFILE)$/.test(r.code ?? '')) unsafe.push(`${JSON.stringify(profile)}: refused with ${r.code}: ${r.message}`);
      // The error names the value (or the file it resolved to) and the fix.
      const named = r.message.includes(profile.slice(0, 40)) || r.message.includes('profile');
      if (!named) unsafe.push(`${JSON.stringify(profile)}: error does not name it: ${r.message}`);
      if (readdirSync(home, { withFileTypes: true }).length !== before) unsafe.push(`${JSON.stringify(profile)}: something was written under the data home`);
    }
    // No process ever ran, so nothing could write the -graph file.
    if (calls(cs.log).length || calls(latte.log).length) unsafe.push(`a stress tool was started: ${JSON.stringify([...calls(cs.log), ...calls(latte.log)])}`);
    if (existsSync(graphOut)) unsafe.push('the -graph file was written');
    record({ section: 'attack', cls: '7 stress argv re-split', tried, unsafe: unsafe.length });
    expect(unsafe).toEqual([]);
  }, 60_000);

  it('the argv builders themselves refuse a value that would start an option or be re-split (no argv built)', () => {
    const attempts: [StressParams['tool'], StressParams][] = [
      ['cassandra-stress', user('cassandra-stress', `/p/x.yaml -graph file=${graphOut}`)],
      ['cassandra-stress', user('cassandra-stress', '-graph')],
      ['cassandra-stress', { ...user('cassandra-stress', '/p/x.yaml'), nodes: ['127.0.0.1 -graph'] }],
      ['latte', user('latte', '--log-dir=/tmp')],
      ['latte', { ...user('latte', '/p/w.rn'), scriptParams: { rows: '1' }, nodes: ['-h'] }],
      ['scylla-bench', { tool: 'scylla-bench', workload: 'write', nodes: ['-nodes'], durationS: 5 }],
      ['scylla-bench', { tool: 'scylla-bench', workload: 'write', nodes: ['127.0.0.1'], keyspace: '-mode', durationS: 5 }],
    ];
    const unsafe: string[] = [];
    for (const [tool, p] of attempts) {
      try {
        const cmd = ARGV_BUILDERS[tool](`/opt/${tool}`, p, { workload: '/run/kv.rn' });
        unsafe.push(`${tool}: built ${JSON.stringify(cmd.steps.map((s) => s.argv))}`);
      } catch (e) {
        expect((e as Error).message).toMatch(/whitespace|would start a new|starts with "-"|control character|no user profiles/);
      }
    }
    record({ section: 'attack', cls: '7 stress argv builders', tried: attempts.length, unsafe: unsafe.length });
    expect(unsafe).toEqual([]);
  });

  it('refuses numbers that would print in exponent form inside n= / duration= / -pop', async () => {
    const cs = fakeTool('cassandra-stress');
    const bad: Partial<StressParams>[] = [
      { n: 1e21 },
      { n: undefined, durationS: 1e300 },
      { population: { distribution: 'uniform', size: 1e22 } },
      { rate: 1e30 },
    ];
    let accepted = 0;
    for (const b of bad) {
      const input = { tool: 'cassandra-stress' as const, workload: 'write' as const, nodes: ['127.0.0.1'], n: 10, ...b };
      const r = await startStress({ ...input, binary: cs.bin, snapshots: 'none' }, { env }).catch(() => null);
      if (r) {
        accepted++;
        await waitForRun(r.id).catch(() => null);
      }
    }
    record({ section: 'attack', cls: '7 stress numbers', tried: bad.length, unsafe: accepted });
    expect(accepted).toBe(0);
  });

  it('an honest profile path still runs, as an absolute path in one argv element', async () => {
    const cs = fakeTool('cassandra-stress');
    const before = calls(cs.log).length;
    const started = await startStress({ ...user('cassandra-stress', honest), binary: cs.bin, snapshots: 'none' }, { env });
    expect((await waitForRun(started.id)).state).toBe('finished');
    const argv = calls(cs.log).slice(before)[0]!;
    expect(argv.slice(0, 3)).toEqual(['user', `profile=${honest}`, 'ops(insert=1)']);
    expect(started.dir.startsWith(runsDir(env))).toBe(true);
  });
});
