import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BUNDLE } from '../helpers/mcp-client.js';

const env = { CQL_TUNER_HOME: '/nonexistent-cql-tuner-home', PATH: process.env.PATH ?? '' };
const cli = (args: string[]) => execa(process.execPath, [BUNDLE, ...args], { reject: false, env, timeout: 30_000 });

describe('cql-tuner CLI (built bundle)', () => {
  it('--help lists every verb', async () => {
    const r = await cli(['--help']);
    expect(r.exitCode).toBe(0);
    for (const verb of ['mcp', 'nodetool', 'lab', 'demo']) expect(r.stdout).toMatch(new RegExp(`^\\s+${verb}\\b`, 'm'));
  });

  it('every verb offers --json (the whole command tree, walked from --help)', async () => {
    // Sub-verbs are the names under "Commands:" in a verb's help; `mcp` speaks JSON-RPC and `help` prints help.
    const subVerbs = (help: string): string[] => {
      const section = help.split(/^Commands:$/m)[1] ?? '';
      return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((v) => v !== 'help' && v !== 'mcp');
    };
    const leaves: string[][] = [];
    const walk = async (path: string[]): Promise<void> => {
      const r = await cli([...path, '--help']);
      expect(r.exitCode, path.join(' ')).toBe(0);
      const subs = subVerbs(r.stdout);
      if (subs.length === 0) {
        leaves.push(path);
        expect(r.stdout, `${path.join(' ')} --help`).toMatch(/^\s+--json\b/m);
      }
      for (const s of subs) await walk([...path, s]);
    };
    await walk([]);
    // 17 top-level verbs besides mcp; lab and stress have sub-verbs.
    expect(leaves.length).toBeGreaterThanOrEqual(20);
    expect(leaves.map((l) => l.join(' '))).toEqual(expect.arrayContaining(['lab start', 'stress compare', 'plan-mkfs', 'analyze']));
  });

  it("every verb's --help says what its exit codes mean (interpret exits 1 on a critical finding)", async () => {
    const r = await cli(['interpret', '--help']);
    expect(r.stdout).toMatch(/^Exit codes:$/m);
    expect(r.stdout).toMatch(/^ {2}1 {4}a critical finding/m);
    expect(r.stdout).toMatch(/^ {2}2 {4}refused/m);
    const status = await cli(['stress', 'status', '--help']);
    expect(status.stdout).toMatch(/^ {2}1 {4}the run is not finished/m);
  });

  it('a usage error under --json is JSON on stdout, exit 2, naming the verb to ask for help', async () => {
    const r = await cli(['lab', 'start', '--version', '3.0', '--json']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { error: { code: string; message: string; fix: string } };
    expect(out.error.code).toBe('USAGE');
    expect(out.error.message).toMatch(/'3\.0' is invalid.*5\.0, 4\.1/);
    expect(out.error.fix).toBe('Run `cql-tuner lab start --help` for the options and values it takes.');
    const top = JSON.parse((await cli(['frobnicate', '--json'])).stdout) as { error: { fix: string } };
    expect(top.error.fix).toBe('Run `cql-tuner --help` for the options and values it takes.');
  });

  it('refuses a write subcommand with exit 2 and a JSON error naming the list', async () => {
    const r = await cli(['nodetool', 'cleanup', '--json']);
    expect(r.exitCode).toBe(2);
    const out = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(out.error.code).toBe('NOT_ALLOWED');
    expect(out.error.message).toContain('compactionstats');
  });

  it('refuses a bad identifier in plain text on stderr, stdout left empty', async () => {
    const r = await cli(['nodetool', 'tablestats', 'ks$(id)']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/BAD_IDENTIFIER/);
    expect(r.stderr).toMatch(/^fix: /m);
  });

  it('rejects unknown verbs and bad numbers as usage errors', async () => {
    expect((await cli(['frobnicate'])).exitCode).toBe(2);
    const r = await cli(['nodetool', 'status', '--port', 'abc']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--port "abc": .*expected number/);
  });

  it('lab stop --wipe needs --yes', async () => {
    const r = await cli(['lab', 'stop', '--wipe', '--json']);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'CONFIRMATION_REQUIRED' } });
  });

  it('lab status --json with no lab says so', async () => {
    const r = await cli(['lab', 'status', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ running: false, nodes: [] });
  });
});

describe('option scoping', () => {
  it('`lab start --version 4.1` is the lab’s option, not the program version', async () => {
    const r = await cli(['lab', 'start', '--version', '9.9', '--json']);
    expect(r.stdout).not.toMatch(/^\d+\.\d+\.\d+\s*$/);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toMatch(/Allowed choices are 5\.0, 4\.1/);
    const plain = await cli(['lab', 'start', '--version', '9.9']);
    expect(plain.stderr).toMatch(/Allowed choices are 5\.0, 4\.1/);
    expect(plain.stdout).toBe('');
  });

  it('--version alone still prints the version', async () => {
    const r = await cli(['--version']);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('logs verb', () => {
  it('streams a gzipped log and reports its GC pauses; a missing file is a clear error', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { gzipSync } = await import('node:zlib');
    const { tmpdir } = await import('node:os');
    // eslint-disable-next-line @typescript-eslint/unbound-method -- path.join never uses `this`
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-logs-'));
    const lines = Array.from(
      { length: 5 },
      (_, i) =>
        `INFO  [Service Thread] 2026-11-21 10:0${i}:00,000 GCInspector.java:294 - G1 Young Generation GC in ${300 + i * 100}ms.  G1 Eden Space: 100 -> 0`,
    );
    writeFileSync(join(dir, 'system.log.gz'), gzipSync(`${lines.join('\n')}\n`));
    const r = await cli(['logs', join(dir, 'system.log.gz'), '--node', '10.9.9.9', '--json']);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as { facts: { gc: { pauses: number; maxPauseMs: number } }; findings: { id: string; severity: string; node: string }[] };
    expect(out.facts.gc).toMatchObject({ pauses: 5, maxPauseMs: 700 });
    expect(out.findings).toEqual([expect.objectContaining({ id: 'log.gc-pause', severity: 'warning', node: '10.9.9.9' })]);
    const missing = await cli(['logs', join(dir, 'nope.log')]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/LOG_UNREADABLE/);
  });
});
