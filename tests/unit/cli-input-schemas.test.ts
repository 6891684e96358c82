/**
 * Each CLI verb builds its operation's input from its flags and checks it with the operation's own schema (the one
 * the MCP tool registers, or one derived from it): a bad value is refused before anything runs, with exit code 2, as
 * BAD_ARGUMENT naming the flag the user typed (not the JSON key) and the fix. Run in-process through buildProgram().
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../mcp-server/src/cli/main.js';
import { clusterSnapshotCliInputSchema, clusterSnapshotInputSchema } from '../../mcp-server/src/ops/snapshot.js';
import { cliNumber, flagFor } from '../../mcp-server/src/cli/validate-flags.js';

interface Refusal {
  code: string;
  message: string;
  fix: string;
}

function everywhere(c: Command, f: (c: Command) => void): void {
  f(c);
  for (const s of c.commands) everywhere(s, f);
}

/** Runs `cql-tuner <args> --json` in-process; returns the exit code it set and the JSON error it printed. */
async function run(args: string[]): Promise<{ exitCode: number | undefined; error: Refusal | undefined }> {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const program = buildProgram();
  everywhere(program, (c) => c.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} }));
  process.exitCode = undefined;
  await program.parseAsync(['node', 'cql-tuner', ...args, '--json']);
  const exitCode = process.exitCode === undefined ? undefined : Number(process.exitCode);
  process.exitCode = undefined;
  vi.restoreAllMocks();
  const text = out.join('');
  return { exitCode, error: text ? (JSON.parse(text) as { error?: Refusal }).error : undefined };
}

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

/** [verb and flags, the flag the refusal must name, something the message says]. */
const BAD: [string[], string, RegExp][] = [
  [['storage', '--timeout-ms', 'abc'], '--timeout-ms "abc"', /expected number/],
  [['storage', '--timeout-ms', '50'], '--timeout-ms 50', />=1000/],
  [['storage', '--root', '/tmp/rec\u0001orded'], '--root', /absolute directory path without "\.\." or control characters/],
  [['storage', '--product', 'mongodb'], '--product "mongodb"', /expected one of/],
  [['plan-mkfs', 'sdb', '--product', 'scylla', '--chunk-kib=-4'], '--chunk-kib -4', />=4/],
  [['plan-mkfs', 'sdb', '--product', 'scylla', '--sector-size', '1000'], '--sector-size 1000', /sector size such as 512 or 4096/],
  [['plan-queue-depth', '--latency-ms', 'abc'], '--latency-ms "abc"', /expected number/],
  [['plan-queue-depth', '--latency-ms', '1', '--iops=-5'], '--iops -5', />0/],
  [['audit-os', '--pid=-3'], '--pid -3', />0/],
  [['audit-os', '--timeout-ms', '1e9'], '--timeout-ms 1000000000', /<=300000/],
  [['nodetool', 'status', '--timeout', 'abc'], '--timeout "abc"', /expected number/],
  [['nodetool', 'status', '--port', '70000'], '--port 70000', /<=65535/],
  // gcstats (resets counters) passes the CLI schema, so the refusal is about the port, not the subcommand.
  [['nodetool', 'gcstats', '--port', '0'], '--port 0', />=1/],
  [['estimate-scaling', '--data-gib', '100', '--nodes', 'three'], '--nodes "three"', /expected number/],
  // interpret checks its path with the MCP tool's own schema (ops/interpret-input.ts).
  [['interpret', 'x'.repeat(4097)], '<file>', /<=4096 characters/],
  [['estimate-scaling', '--data-gib=-100', '--nodes', '3', '--target', '6'], '--data-gib -100', />0/],
  [
    ['estimate-scaling', '--data-gib', '100', '--nodes', '3', '--last-bootstrap-min', '30', '--last-bootstrap-gib', 'x'],
    '--last-bootstrap-gib "x"',
    /expected number/,
  ],
  [['review-schema', 'schema.cql', '--cql-port', 'abc'], '--cql-port "abc"', /expected number/],
  [['review-schema', 'schema.cql', '--product', 'postgres'], '--product "postgres"', /expected one of/],
  [['migration-review', '--from', '3.11', '--to', '5.0', '--kind', 'sideways'], '--kind "sideways"', /expected one of/],
  [['migration-review', '--from', '3.11', '--to', '5.0', '--keyspace', 'k'.repeat(49)], '--keyspace', /<=48/],
  [['audit-config', 'cassandra.yaml', '--jdk', 'seventeen'], '--jdk "seventeen"', /expected number/],
  [['audit-config', 'cassandra.yaml', '--ram=-1'], '--ram -1', />0/],
  [['audit-config', 'cassandra.yaml', '--version', 'latest'], '--version "latest"', /Invalid string/],
  [['metrics', '--signals', 'reads,nonsense'], '--signals', /expected one of/],
  [['diagnose', '--lab', '--concurrency', '0'], '--concurrency 0', />=1/],
  [['diagnose', '--lab', '--node-timeout', '5'], '--node-timeout 5', />=1000/],
  [['diagnose', '--lab', '--since', '30s'], '--since 30', />=60/],
  [['diagnose', '--hosts', '10.0.0.1', '--cql-port', '70000'], '--cql-port 70000', /<=65535/],
  [['snapshot', '--hosts', '10.0.0.1', '--concurrency', '0'], '--concurrency 0', />=1/],
  [['snapshot', '--hosts', '10.0.0.1', '--node-timeout', '5'], '--node-timeout 5', />=1000/],
  [['analyze', '/tmp/bundle', '--raw-source', 's'.repeat(201)], '--raw-source', /<=200/],
  [['lab', 'start', '--heap', '9'.repeat(40)], '--heap', /<=32/],
  [['lab', 'incident', 'no-such-incident'], '[name] "no-such-incident"', /expected one of/],
  [['stress', 'run', '--duration', 'abc'], '--duration "abc"', /expected number/],
  [['stress', 'run', '--threads', '0'], '--threads 0', />=1/],
  [['stress', 'run', '--cl', 'most'], '--cl "MOST"', /expected one of/],
  [['stress', 'run', '--workload', 'user', '--op', 'read=x'], '--op "x"', /expected number/],
  [['stress', 'run', '--read-ratio', '1.5', '--workload', 'mixed'], '--read-ratio 1.5', /<1/],
  [['stress', 'status', '../escape'], '[id] "../escape"', /Invalid string/],
  [['stress', 'cancel', 'a b'], '<id> "a b"', /Invalid string/],
  [['stress', 'compare', 'run-1', 'x/y'], '<b> "x/y"', /Invalid string/],
  [['logs', 'system.log', '--node', 'n'.repeat(301)], '--node', /<=300/],
];

describe('CLI verbs refuse bad flags through the operation schemas', () => {
  it.each(BAD)('%j names %s, exit 2', async (args, flag, says) => {
    const { exitCode, error } = await run(args);
    expect(exitCode).toBe(2);
    expect(error?.code).toBe('BAD_ARGUMENT');
    // The flag, then the value as typed (shortened) or nothing, then what is wrong.
    expect(error?.message.startsWith(flag), error?.message).toBe(true);
    expect(error?.message.slice(flag.length), error?.message).toMatch(/^(?: "[^"]{0,60}…?")?: /);
    expect(error?.message).toMatch(says);
    expect(error?.fix.length).toBeGreaterThan(10);
  });

  it('a range refusal says the bound in the fix, and an enum refusal lists the values', async () => {
    expect((await run(['storage', '--timeout-ms', '50'])).error?.fix).toContain('Give --timeout-ms a value of at least 1000.');
    expect((await run(['storage', '--product', 'mongodb'])).error?.fix).toBe('Use one of: cassandra, scylla.');
  });

  it('nodetool leaves the subcommand to the allow-list of the operation: NOT_ALLOWED naming the list, exit 2', async () => {
    const { exitCode, error } = await run(['nodetool', 'drain']);
    expect(exitCode).toBe(2);
    expect(error?.code).toBe('NOT_ALLOWED');
    expect(error?.message).toContain('compactionstats');
  });

  it('lab start takes a heap the lab reads (1g) though the tool asks for 1G: the input reaches the lab, whose topology check answers', async () => {
    // 1 node in 2 datacenters is refused by startLab before anything starts; a schema refusal would name --heap.
    const { exitCode, error } = await run(['lab', 'start', '--heap', '1g', '--dcs', '2']);
    expect(exitCode).toBe(2);
    expect(error?.code).toBe('BAD_TOPOLOGY');
  });

  it('lab stop --wipe without --yes is refused by the one wipe rule, naming the CLI flags', async () => {
    const { exitCode, error } = await run(['lab', 'stop', '--wipe']);
    expect(exitCode).toBe(2);
    expect(error).toMatchObject({ code: 'CONFIRMATION_REQUIRED', message: '--wipe deletes the lab’s data directories and was not confirmed' });
    expect(error?.fix).toContain('--yes');
  });

  it('a good value passes the schema and reaches the operation (plan-queue-depth computes)', async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    const program = buildProgram();
    everywhere(program, (c) => c.exitOverride());
    process.exitCode = undefined;
    await program.parseAsync(['node', 'cql-tuner', 'plan-queue-depth', '--bandwidth', '14.5 GB/s', '--request-size', '128 kB', '--latency-ms', '1', '--json']);
    expect(process.exitCode).toBeUndefined();
    expect(JSON.parse(out.join(''))).toMatchObject({ inFlight: 114 });
  });
});

describe('the helpers', () => {
  it('cliNumber keeps text that is not a number, so the schema can show it', () => {
    expect(cliNumber('42')).toBe(42);
    expect(cliNumber(' 1e3 ')).toBe(1000);
    expect(cliNumber('-0.5')).toBe(-0.5);
    expect(cliNumber('abc')).toBe('abc');
    expect(cliNumber('')).toBe('');
    expect(cliNumber('0x10')).toBe('0x10');
    expect(cliNumber(undefined)).toBeUndefined();
  });

  it('flagFor prefers a dotted name, then the first key, then kebab case', () => {
    expect(flagFor(['timeoutMs'])).toBe('--timeout-ms');
    expect(flagFor(['lastBootstrap', 'minutes'], { lastBootstrap: '--last-bootstrap-min' })).toBe('--last-bootstrap-min');
    expect(flagFor(['lastBootstrap', 'dataPerNodeGiB'], { lastBootstrap: '--a', 'lastBootstrap.dataPerNodeGiB': '--b' })).toBe('--b');
    expect(flagFor(['hosts', 3])).toBe('--hosts');
    expect(flagFor([])).toBe('the options');
  });
});

describe('trusted CLI, untrusted tool', () => {
  it('the snapshot CLI schema takes --nodetool-path and --bundle DIR, which the tool schema does not have', () => {
    const cli = clusterSnapshotCliInputSchema.parse({ hosts: ['10.0.0.1'], nodetoolPath: '/opt/cassandra/bin/nodetool', bundleDir: '/tmp/b' });
    expect(cli).toMatchObject({ nodetoolPath: '/opt/cassandra/bin/nodetool', bundleDir: '/tmp/b' });
    const tool = clusterSnapshotInputSchema.parse({ hosts: ['10.0.0.1'], nodetoolPath: '/tmp/evil', bundleDir: '/tmp/b' });
    expect(tool).not.toHaveProperty('nodetoolPath');
    expect(tool).not.toHaveProperty('bundleDir');
  });

  it('the nodetool tool refuses gcstats (it resets counters) with the reason; the CLI takes it (table above)', async () => {
    const { nodetoolInputSchema } = await import('../../mcp-server/src/ops/nodetool.js');
    const r = nodetoolInputSchema.safeParse({ subcommand: 'gcstats' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/gcstats is not run by this read-only tool/);
  });

  it('logs: search flags without --grep are refused by name, not ignored', async () => {
    const { exitCode, error } = await run(['logs', 'system.log', '--regex', '--bucket', '60']);
    expect(exitCode).toBe(2);
    expect(error).toMatchObject({ code: 'BAD_ARGUMENT', message: '--regex, --bucket only apply to a search' });
    expect(error?.fix).toMatch(/--grep <pattern>/);
  });
});
