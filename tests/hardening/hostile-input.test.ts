/**
 * Hostile input, ≥ 500 values per parameter kind (hostile-values.ts), fed to:
 *  A. the ops layer and the pure argv builders, with a RecordingTarget (records every argv, runs nothing);
 *  B. every MCP tool the server registers (found from tools/list, parameters mapped to kinds by name), in
 *     process, with PATH holding only recorders (recorders.ts), so anything executed is recorded, not run;
 *  C. the built CLI and the built MCP server with a sample of the same values.
 * Each value is refused with a clear message or handled literally; no executed argv ever runs a shell, an
 * unlisted nodetool subcommand, or lets a value be read as an option.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CqlSession } from '../../mcp-server/src/collect/cql-session.js';
import { remoteNodetool } from '../../mcp-server/src/collect/nodetool-locate.js';
import { createTarget, parseTargetSpec } from '../../mcp-server/src/collect/target-spec.js';
import type { Target } from '../../mcp-server/src/collect/target.js';
import { NODETOOL_SUBCOMMANDS } from '../../mcp-server/src/core/nodetool-commands.js';
import { buildDockerCommand, buildKubectlCommand } from '../../mcp-server/src/core/remote-argv.js';
import { checkHost } from '../../mcp-server/src/core/validate.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { describeError } from '../../mcp-server/src/ops/errors.js';
import { runNodetool } from '../../mcp-server/src/ops/nodetool.js';
import { takeSnapshot } from '../../mcp-server/src/ops/snapshot.js';
import { BUNDLE, connectBundle } from '../helpers/mcp-client.js';
import { RecordingTarget } from '../helpers/recording-target.js';
import { clientArgvProblem, nodetoolArgvProblem } from './argv-safety.js';
import { HOSTILE, spread, type HostileKind } from './hostile-values.js';
import { makeRecorders, type Recorders } from './recorders.js';
import { knob, record } from './stats.js';

const PER_PARAM = knob('HARDENING_MCP_PER_PARAM', 40);
const CLI_SAMPLE = knob('HARDENING_CLI_SAMPLE', 12);

interface Tally {
  tried: number;
  refused: number;
  literal: number;
  executed: number;
  unsafe: string[];
  unclear: string[];
}
const tallies = new Map<string, Tally>();
const tally = (kind: string): Tally => {
  let t = tallies.get(kind);
  if (!t) tallies.set(kind, (t = { tried: 0, refused: 0, literal: 0, executed: 0, unsafe: [], unclear: [] }));
  return t;
};
const show = (v: unknown) => JSON.stringify(typeof v === 'string' && v.length > 80 ? `${v.slice(0, 80)}…` : v);

/** A refusal is clear when it says what was wrong and what to do, without a stack trace. */
function clearRefusal(e: unknown): string | null {
  const d = describeError(e);
  if (d.code === 'INTERNAL') return `internal error: ${d.message.slice(0, 200)}`;
  if (!d.message.trim() || !d.fix.trim()) return 'refusal without a message or a fix';
  if (/\n\s+at \S+ \(/.test(d.message)) return 'refusal carries a stack trace';
  return null;
}

let rec: Recorders;
let closedPort = 0;
const savedEnv = { ...process.env };

beforeAll(async () => {
  rec = makeRecorders();
  // A loopback port nobody listens on: CQL attempts fail at once and never reach a real node or the lab.
  closedPort = await new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  // In-process tools resolve every command through PATH: only recorders are there.
  for (const k of ['CASSANDRA_HOME', 'CQL_TUNER_JMX_USERNAME', 'CQL_TUNER_JMX_PASSWORD', 'CQL_TUNER_CQL_USERNAME', 'CQL_TUNER_CQL_PASSWORD'])
    delete process.env[k];
  Object.assign(process.env, rec.env);
});

afterAll(() => {
  process.env = savedEnv;
  rec?.cleanup();
  const lines = [...tallies].map(
    ([k, t]) =>
      `${k.padEnd(34)} tried ${String(t.tried).padStart(5)}  refused ${String(t.refused).padStart(5)}  literal ${String(t.literal).padStart(5)}  executed ${String(t.executed).padStart(5)}  unsafe ${t.unsafe.length}`,
  );
  process.stderr.write(`\nhostile inputs:\n${lines.join('\n')}\n`);
  for (const [k, t] of tallies)
    record({ section: 'hostile', kind: k, tried: t.tried, refused: t.refused, literal: t.literal, executed: t.executed, unsafe: t.unsafe.length });
});

function expectClean(kind: string) {
  const t = tally(kind);
  expect(t.unsafe, `${kind}: unsafe argv`).toEqual([]);
  expect(t.unclear, `${kind}: unclear refusals`).toEqual([]);
  expect(t.tried).toBe(t.refused + t.literal);
}

/** Runs one nodetool request against a RecordingTarget and classifies the outcome. */
async function nodetoolCase(
  kind: string,
  value: unknown,
  input: Parameters<typeof runNodetool>[0],
  target: Target & { calls: { argv: string[] }[] },
  literalIn?: (argv: string[]) => boolean,
) {
  const t = tally(kind);
  t.tried++;
  const before = target.calls.length;
  try {
    await runNodetool(input, { target, env: {} });
  } catch (e) {
    t.refused++;
    const c = clearRefusal(e);
    if (c) t.unclear.push(`${show(value)}: ${c}`);
    if (target.calls.length !== before) t.unsafe.push(`${show(value)}: refused after running something`);
    return;
  }
  const calls = target.calls.slice(before);
  t.executed += calls.length;
  for (const c of calls) {
    const p = target.kind === 'local' ? nodetoolArgvProblem(c.argv) : nodetoolArgvProblem(c.argv);
    if (p) t.unsafe.push(`${show(value)}: ${p} in ${JSON.stringify(c.argv)}`);
    else if (literalIn && !literalIn(c.argv)) t.unsafe.push(`${show(value)}: accepted but not passed literally: ${JSON.stringify(c.argv)}`);
  }
  t.literal++;
}

describe('A. ops layer and argv builders with a recording target', () => {
  const fakeNodetool = () => rec.env.CQL_TUNER_NODETOOL!;

  it('every kind has at least 500 hostile values', () => {
    for (const [kind, values] of Object.entries(HOSTILE)) expect(new Set(values.map((v) => JSON.stringify(v))).size, kind).toBeGreaterThanOrEqual(500);
  });

  it('hosts: nodetool -h, CQL contact points and ssh hosts', async () => {
    const target = new RecordingTarget(() => ({ exitCode: 1 }));
    for (const h of HOSTILE.host as string[]) {
      await nodetoolCase(
        'host → nodetool -h',
        h,
        { subcommand: 'status', host: h, nodetoolPath: fakeNodetool() },
        target,
        (argv) => argv[argv.indexOf('-h') + 1] === h,
      );
      // CQL: a refused host never reaches the driver; an accepted one is only dialled when it is loopback.
      const t = tally('host → CQL contact point');
      t.tried++;
      // The session splits host[:port] and [ipv6][:port] first; only loopback or refused hosts are dialled.
      const m = /^\[([0-9A-Fa-f:.]+)\](?::(\d+))?$/.exec(h) ?? /^([^:]+)(?::(\d+))?$/.exec(h);
      const hostPart = m ? m[1]! : h;
      // A contact point naming its own port (127.0.0.1:7199) could reach the lab's ports: those are not dialled.
      if (!checkHost(hostPart).ok || (isLoopback(hostPart) && m?.[2] === undefined)) {
        const err = await CqlSession.connect({ contactPoints: [h], port: closedPort, connectTimeoutMs: 1000 }).then(
          () => null,
          (e: unknown) => e,
        );
        const d = describeError(err);
        if (d.code === 'BAD_HOST' || d.code === 'BAD_PORT') t.refused++;
        else if (checkHost(hostPart).ok && d.code === 'CQL_UNREACHABLE') t.literal++;
        else t.unsafe.push(`${show(h)}: an invalid host reached the driver (${d.code})`);
      } else {
        t.literal++;
        if (!/^[A-Za-z0-9.:-]+$/.test(h) || h.startsWith('-')) t.unsafe.push(`${show(h)}: accepted host is not a plain literal`);
      }
      const s = tally('host → ssh:// target');
      s.tried++;
      const spec = parseTargetSpec(`ssh://${h}`);
      if (!spec.ok) {
        s.refused++;
        if (!spec.error.includes('Accepted forms')) s.unclear.push(`${show(h)}: ${spec.error}`);
      } else {
        s.literal++;
        const built = (createTarget(spec.spec) as unknown as { commandFor: (a: string[], o: object) => { argv: string[] } }).commandFor(
          ['nodetool', 'status'],
          { timeoutMs: 10_000 },
        );
        const p = clientArgvProblem(built.argv);
        if (p) s.unsafe.push(`${show(h)}: ${p}`);
      }
    }
    for (const k of ['host → nodetool -h', 'host → CQL contact point', 'host → ssh:// target']) expectClean(k);
  }, 120_000);

  it('keyspace and table names: tablestats, tablehistograms, status', async () => {
    const target = new RecordingTarget(() => ({ exitCode: 1 }));
    const plain = (v: string) => (argv: string[]) => argv.some((a) => a === v || a.split('.').includes(v));
    for (const v of HOSTILE.identifier as string[]) {
      await nodetoolCase('identifier → keyspace', v, { subcommand: 'tablestats', keyspace: v, nodetoolPath: fakeNodetool() }, target, v ? plain(v) : undefined);
      await nodetoolCase(
        'identifier → table',
        v,
        { subcommand: 'tablehistograms', keyspace: 'ks', table: v, nodetoolPath: fakeNodetool() },
        target,
        v ? plain(v) : undefined,
      );
      await nodetoolCase(
        'identifier → status keyspace',
        v,
        { subcommand: 'status', keyspace: v, nodetoolPath: fakeNodetool() },
        target,
        v ? plain(v) : undefined,
      );
    }
    for (const k of ['identifier → keyspace', 'identifier → table', 'identifier → status keyspace']) expectClean(k);
  }, 120_000);

  it('nodetool subcommands: only the read-only allow-list ever runs', async () => {
    const target = new RecordingTarget(() => ({ exitCode: 1 }));
    for (const v of HOSTILE.subcommand as string[]) {
      await nodetoolCase('subcommand', v, { subcommand: v, nodetoolPath: fakeNodetool() }, target);
    }
    expectClean('subcommand');
    const ran = new Set(target.calls.map((c) => c.argv.find((a) => (NODETOOL_SUBCOMMANDS as string[]).includes(a))));
    expect([...ran].every((s) => s !== undefined)).toBe(true);
  }, 120_000);

  it('nodetool paths: only a file named nodetool, local or remote', async () => {
    const local = new RecordingTarget(() => ({ exitCode: 1 }));
    for (const v of HOSTILE.nodetoolPath as string[]) {
      await nodetoolCase('nodetoolPath (local)', v, { subcommand: 'version', nodetoolPath: v }, local);
      const t = tally('nodetoolPath (remote)');
      t.tried++;
      try {
        const r = remoteNodetool(v);
        t.literal++;
        if (r.argvPrefix.length !== 1 || (v ? r.argvPrefix[0] !== v || !/\/nodetool(\.sh)?$/.test(v) : r.argvPrefix[0] !== 'nodetool'))
          t.unsafe.push(`${show(v)}: remote prefix ${JSON.stringify(r.argvPrefix)}`);
      } catch (e) {
        t.refused++;
        const c = clearRefusal(e);
        if (c) t.unclear.push(`${show(v)}: ${c}`);
      }
    }
    expectClean('nodetoolPath (local)');
    expectClean('nodetoolPath (remote)');
  }, 120_000);

  it('target specs: ssh, k8s and docker argv never take a value as an option', () => {
    const t = tally('target spec');
    for (const v of HOSTILE.target as string[]) {
      t.tried++;
      const spec = parseTargetSpec(v);
      if (!spec.ok) {
        t.refused++;
        if (!spec.error.includes('Accepted forms') || spec.error.length > 2000) t.unclear.push(`${show(v)}: ${spec.error.slice(0, 200)}`);
        continue;
      }
      t.literal++;
      const target = createTarget(spec.spec) as Target & { commandFor?: (a: string[], o: object) => { argv: string[] } };
      if (!target.commandFor) continue; // local
      const argv = target.commandFor(['nodetool', '-h', '127.0.0.1', '-p', '7199', 'status'], { timeoutMs: 10_000 }).argv;
      t.executed++;
      const p = clientArgvProblem(argv);
      if (p) t.unsafe.push(`${show(v)}: ${p} in ${JSON.stringify(argv)}`);
    }
    expectClean('target spec');
  });

  it('pod, container and namespace names and docker users', () => {
    const t = tally('k8s/docker names');
    for (const v of HOSTILE.k8sName as string[]) {
      for (const built of [
        buildKubectlCommand({ namespace: v, pod: 'p' }, { argv: ['nodetool', 'status'] }),
        buildKubectlCommand({ namespace: 'ns', pod: v }, { argv: ['nodetool', 'status'] }),
        buildKubectlCommand({ namespace: 'ns', pod: 'p', container: v }, { argv: ['nodetool', 'status'] }),
        buildKubectlCommand({ namespace: 'ns', pod: 'p', context: v }, { argv: ['nodetool', 'status'] }),
        buildDockerCommand({ container: v }, { argv: ['nodetool', 'status'] }),
        buildDockerCommand({ container: 'c', user: v }, { argv: ['nodetool', 'status'] }),
      ]) {
        t.tried++;
        if (!built.ok) {
          t.refused++;
          if (!built.reason.trim()) t.unclear.push(`${show(v)}: empty reason`);
          continue;
        }
        t.literal++;
        const p = clientArgvProblem(built.argv);
        if (p) t.unsafe.push(`${show(v)}: ${p} in ${JSON.stringify(built.argv)}`);
      }
    }
    expectClean('k8s/docker names');
  });

  it('numbers: ports, timeouts, concurrency refused before anything runs', async () => {
    const target = new RecordingTarget(() => ({ exitCode: 1 }));
    for (const n of HOSTILE.number) {
      await nodetoolCase('number → nodetool port', n, { subcommand: 'info', port: n as number, nodetoolPath: fakeNodetool() }, target);
      await nodetoolCase('number → nodetool timeoutMs', n, { subcommand: 'info', timeoutMs: n as number, nodetoolPath: fakeNodetool() }, target);
      const t = tally('number → snapshot concurrency/timeout');
      for (const input of [{ concurrency: n }, { nodeTimeoutMs: n }, { cqlPort: n }]) {
        t.tried++;
        try {
          // The port is in the contact point, so no hostile cqlPort (null → default 9042) can reach a real node.
          await takeSnapshot({ hosts: [`127.0.0.1:${closedPort}`], cqlPort: closedPort, nodetool: false, ...(input as object) });
          t.unsafe.push(`${show(n)}: a snapshot of a closed port succeeded`);
        } catch (e) {
          const d = describeError(e);
          // Valid numbers reach the (closed) port and fail there; invalid ones are refused first.
          if (/^(BAD_|CQL_UNREACHABLE|CLUSTER_UNREACHABLE)/.test(d.code)) t[d.code.startsWith('BAD_') ? 'refused' : 'literal']++;
          else t.unclear.push(`${show(n)} ${JSON.stringify(input)}: ${d.code} ${d.message.slice(0, 160)}`);
        }
      }
    }
    for (const k of ['number → nodetool port', 'number → nodetool timeoutMs', 'number → snapshot concurrency/timeout']) expectClean(k);
  }, 300_000);
});

// ───────────────────────────── B. every MCP tool, in process ─────────────────────────────

type JsonSchema = {
  enum?: unknown[];
  type?: string | string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};
interface ToolInfo {
  name: string;
  inputSchema: JsonSchema;
  annotations?: { destructiveHint?: boolean; readOnlyHint?: boolean };
}

/** Which hostile corpus a parameter gets, from its name and JSON type. New tools are covered by their names. */
export function kindFor(name: string, schema: JsonSchema): HostileKind | null {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const item = type === 'array' ? schema.items?.type : type === 'object' ? 'record' : type;
  if (item === 'number' || item === 'integer') return 'number';
  if (item === 'boolean') return null;
  if (name === 'text') return null; // pasted text: fuzz-parsers.test.ts
  if (/subcommand/i.test(name)) return 'subcommand';
  if (/nodetoolPath/i.test(name)) return 'nodetoolPath';
  if (/via|target/i.test(name)) return 'target';
  if (/device|disk/i.test(name)) return 'device';
  if (/^(hosts?|jmxHost|contactPoints?|address(es)?|seeds?)$/i.test(name)) return 'host';
  if (/keyspace|table/i.test(name)) return 'identifier';
  if (/path|bundle|file|dir|logs?$/i.test(name)) return 'path';
  if (/pod|container|namespace|context/i.test(name)) return 'k8sName';
  return 'identifier';
}

function shaped(schema: JsonSchema, v: unknown): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'array') return [v];
  if (type === 'object') return { '127.0.0.1': [v] };
  return v;
}

/**
 * Tools that start or stop the local lab (one instance on fixed ports, owned by the lab tests) are not driven.
 * Everything else is, destructive tools included: PATH holds only recorders, and confirm is never sent.
 */
const SKIP_TOOL = (t: ToolInfo) => /^lab_/.test(t.name) && t.annotations?.readOnlyHint !== true;

/** A plain valid value for a required parameter, so a refusal is about the hostile value, not a missing one. */
function baseValue(name: string, schema: JsonSchema, plainFile: string): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum?.length) return schema.enum[0];
  if (type === 'array') return [baseValue(name, schema.items ?? {}, plainFile)];
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return false;
  if (type === 'object') return {};
  const kind = kindFor(name, schema);
  return kind === 'host' || /node/i.test(name) ? '127.0.0.1' : kind === 'path' ? plainFile : kind === 'target' ? 'local' : 'ks';
}

/** A line of tool output that shows a command for the user to run. */
const SUGGESTED_COMMAND =
  /(^|\d\.\s|:\s|`)(sudo\s+)?(mdadm|mkfs(\.\w+)?|nodetool|blockdev|sysctl|cqlsh|cassandra-stress|latte|scylla-bench|mount|fstrim|xfs_\w+)\s/;

/** "-L -N": a value that starts with "-" right after an option taking an argument is that option's value (getopt). */
function optionValue(line: string, v: string): boolean {
  if (/[;&|$`<>\s'"\\]/.test(v)) return false;
  const before = line.slice(0, line.indexOf(v)).trimEnd().split(/\s+/).pop() ?? '';
  return /^-[A-Za-z]$/.test(before);
}

const isLoopback = (h: string) => /^127\.\d+\.\d+\.\d+$/.test(h) || h === 'localhost' || h === '::1';

describe('B. every registered MCP tool with hostile arguments (in process, PATH = recorders)', () => {
  let client: Client;
  let tools: ToolInfo[] = [];
  let files: string;

  beforeAll(async () => {
    const server = createServer();
    const [ct, st] = InMemoryTransport.createLinkedPair();
    await server.connect(st);
    client = new Client({ name: 'hardening', version: '0' });
    await client.connect(ct);
    tools = (await client.listTools()).tools;
    // Symlinks and a FIFO-free set of special files for the path kinds.
    files = mkdtempSync(join(tmpdir(), 'cql-tuner-hostile-files-'));
    mkdirSync(join(files, 'dir'));
    writeFileSync(join(files, 'plain.log'), 'INFO  [main] 2024-01-01 00:00:00,000 Cassandra.java:1 - hello\n');
    for (const [name, to] of [
      ['to-zero', '/dev/zero'],
      ['to-shadow', '/etc/shadow'],
      ['to-environ', '/proc/self/environ'],
      ['to-dir', '/'],
      ['loop-a', join(files, 'loop-b')],
      ['loop-b', join(files, 'loop-a')],
      ['dangling', join(files, 'nothing')],
    ] as const) {
      symlinkSync(to, join(files, name));
    }
  });

  afterAll(async () => {
    await client?.close();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  it('the server registers tools and each parameter maps to a corpus', () => {
    expect(tools.length).toBeGreaterThanOrEqual(5);
    const mapped = tools.flatMap((t) => Object.entries(t.inputSchema.properties ?? {}).map(([n, s]) => kindFor(n, s)));
    expect(mapped.filter((k) => k !== null).length).toBeGreaterThan(10);
  });

  it('each tool refuses each hostile value cleanly or handles it literally; nothing unsafe executes', async () => {
    const extraPaths = ['to-zero', 'to-shadow', 'to-environ', 'to-dir', 'loop-a', 'dangling', 'dir'].map((n) => join(files, n));
    const skipped: string[] = [];
    const before = rec.read().length;
    for (const tool of tools) {
      if (SKIP_TOOL(tool)) {
        skipped.push(tool.name);
        continue;
      }
      const props = tool.inputSchema.properties ?? {};
      const base: Record<string, unknown> = {};
      if ('subcommand' in props) base['subcommand'] = 'status';
      if ('hosts' in props) base['hosts'] = [`127.0.0.1:${closedPort}`];
      if ('cqlPort' in props) base['cqlPort'] = closedPort;
      if ('nodeTimeoutMs' in props) base['nodeTimeoutMs'] = 5000;
      if ('timeoutMs' in props) base['timeoutMs'] = 5000;
      if ('snapshots' in props) base['snapshots'] = 'none';
      if ('port' in props && tool.name !== 'nodetool') base['port'] = closedPort;
      for (const req of tool.inputSchema.required ?? []) if (!(req in base)) base[req] = baseValue(req, props[req] ?? {}, join(files, 'plain.log'));
      for (const [param, schema] of Object.entries(props)) {
        const kind = kindFor(param, schema);
        if (!kind) continue;
        if (param === 'confirm') continue;
        const values = [...spread(HOSTILE[kind], PER_PARAM), ...(kind === 'path' ? extraPaths : [])];
        const t = tally(`mcp ${tool.name}.${param} (${kind})`);
        for (const v of values) {
          // Valid non-loopback hosts would be dialled for real: they are covered by the pure checks in A.
          if (kind === 'host' && typeof v === 'string' && checkHost(v).ok && !isLoopback(v)) continue;
          t.tried++;
          const args = { ...base, [param]: shaped(schema, v) };
          let res: { isError?: boolean; content?: { type: string; text?: string }[] };
          try {
            res = (await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: 30_000 })) as typeof res;
          } catch (e) {
            // An MCP protocol error for invalid params is a clean refusal; a timeout or anything else is not.
            const msg = e instanceof Error ? e.message : String(e);
            if (/-32602|Invalid (params|arguments)|validation/i.test(msg)) t.refused++;
            else t.unclear.push(`${show(v)}: ${msg.slice(0, 200)}`);
            continue;
          }
          const text = res.content?.map((c) => c.text ?? '').join('\n') ?? '';
          if (res.isError) {
            t.refused++;
            if (!/^\[[A-Z_]+\] \S/.test(text) && !/validation|invalid/i.test(text))
              t.unclear.push(`${show(v)}: error text ${JSON.stringify(text.slice(0, 200))}`);
            if (/\[INTERNAL\]/.test(text) || /\n\s+at \S+ \(/.test(text)) t.unclear.push(`${show(v)}: internal error ${JSON.stringify(text.slice(0, 300))}`);
          } else {
            t.literal++;
            // A value echoed into a command line the user is told to run (mdadm/mkfs/nodetool …) must be inert there.
            if (typeof v === 'string' && /[;&|$`<>\s'"\\]|^-/.test(v.trim() === '' ? 'x' : v)) {
              const line = text.split('\n').find((l) => SUGGESTED_COMMAND.test(l) && l.includes(v) && !optionValue(l, v));
              if (line) t.unsafe.push(`${show(v)}: pasted into a suggested command: ${line.trim().slice(0, 200)}`);
            }
          }
        }
      }
    }
    const execs = rec.read().slice(before);
    const t = tally('mcp: commands executed (recorded)');
    for (const e of execs) {
      t.tried++;
      t.literal++;
      t.executed++;
      const p = clientArgvProblem([e.cmd, ...e.argv]);
      if (p) t.unsafe.push(`${e.cmd}: ${p} in ${JSON.stringify(e.argv).slice(0, 300)}`);
    }
    process.stderr.write(`MCP tools not driven (start/stop the lab or destructive): ${skipped.join(', ') || 'none'}\n`);
    const problems = [...tallies].filter(([k]) => k.startsWith('mcp')).flatMap(([k, x]) => [...x.unsafe, ...x.unclear].map((p) => `${k}: ${p}`));
    expect(problems).toEqual([]);
  }, 600_000);
});

// ───────────────────────────── C. the built CLI and MCP server ─────────────────────────────

describe('C. built bundle: CLI verbs and the stdio MCP server with hostile values', () => {
  const cli = (args: string[]) => execa(process.execPath, [BUNDLE, ...args], { reject: false, env: rec.env, extendEnv: false, timeout: 60_000 });

  it('CLI: exit code 1 or 2 with a message for hostile values, never a crash', async () => {
    const cases: string[][] = [
      ...spread(HOSTILE.subcommand as string[], CLI_SAMPLE).map((v) => ['nodetool', v, '--json']),
      ...spread(HOSTILE.host as string[], CLI_SAMPLE).map((v) => ['nodetool', 'status', '--host', v]),
      ...spread(HOSTILE.identifier as string[], CLI_SAMPLE).map((v) => ['nodetool', 'tablestats', v]),
      ...spread(HOSTILE.nodetoolPath as string[], CLI_SAMPLE).map((v) => ['nodetool', 'version', `--nodetool=${v}`]),
      ...spread(HOSTILE.target as string[], CLI_SAMPLE).map((v) => [
        'snapshot',
        '--hosts',
        '127.0.0.1',
        '--cql-port',
        String(closedPort),
        `--nodetool-via=${v}`,
        '--json',
      ]),
      ...spread(HOSTILE.path as string[], CLI_SAMPLE).map((v) => ['analyze', v]),
      ...spread(HOSTILE.number.map(String), CLI_SAMPLE).map((v) => ['nodetool', 'status', `--port=${v}`]),
    ];
    const t = tally('cli');
    const before = rec.read().length;
    for (const args of cases) {
      // A NUL cannot travel in argv: the OS refuses it before cql-tuner sees anything.
      if (args.some((a) => a.includes('\0'))) continue;
      t.tried++;
      const r = await cli(args);
      const out = `${r.stdout}\n${r.stderr}`;
      if (r.exitCode === 0) t.literal++;
      else if (r.exitCode === 1 || r.exitCode === 2) {
        t.refused++;
        if (!/error|invalid|must|not|missing|unknown|too|refus/i.test(out)) t.unclear.push(`${JSON.stringify(args)}: exit ${r.exitCode} without a message`);
      } else t.unclear.push(`${JSON.stringify(args)}: exit ${r.exitCode} signal ${r.signal ?? ''}`);
      if (/\n\s+at \S+ \(|TypeError|ReferenceError|RangeError/.test(out))
        t.unclear.push(`${JSON.stringify(args)}: stack trace or JS error: ${out.slice(0, 300)}`);
    }
    for (const e of rec.read().slice(before)) {
      t.executed++;
      const p = clientArgvProblem([e.cmd, ...e.argv]);
      if (p) t.unsafe.push(`${e.cmd}: ${p}`);
    }
    expect(t.unclear).toEqual([]);
    expect(t.unsafe).toEqual([]);
  }, 600_000);

  it('stdio MCP server: hostile arguments give isError results and the server keeps serving', async () => {
    const { client, stderr, close } = await connectBundle(rec.env);
    const t = tally('mcp bundle (stdio)');
    try {
      const calls: { name: string; arguments: Record<string, unknown> }[] = [
        ...spread(HOSTILE.subcommand as string[], CLI_SAMPLE).map((v) => ({ name: 'nodetool', arguments: { subcommand: v } })),
        ...spread(HOSTILE.host as string[], CLI_SAMPLE).map((v) => ({ name: 'nodetool', arguments: { subcommand: 'status', host: v } })),
        ...spread(HOSTILE.nodetoolPath as string[], CLI_SAMPLE).map((v) => ({ name: 'nodetool', arguments: { subcommand: 'version', nodetoolPath: v } })),
        ...spread(HOSTILE.target as string[], CLI_SAMPLE).map((v) => ({
          name: 'cluster_snapshot',
          arguments: { hosts: ['127.0.0.1'], cqlPort: closedPort, nodetoolVia: v },
        })),
        ...spread(HOSTILE.path as string[], CLI_SAMPLE).map((v) => ({ name: 'analyze_bundle', arguments: { path: v } })),
        ...spread(HOSTILE.number, CLI_SAMPLE).map((v) => ({ name: 'nodetool', arguments: { subcommand: 'info', port: v } })),
      ];
      for (const c of calls) {
        if (c.name === 'nodetool' && typeof c.arguments['host'] === 'string' && checkHost(c.arguments['host']).ok && !isLoopback(c.arguments['host'])) continue;
        t.tried++;
        try {
          const r = (await client.callTool(c, undefined, { timeout: 30_000 })) as { isError?: boolean; content?: { text?: string }[] };
          if (r.isError) t.refused++;
          else t.literal++;
          const text = r.content?.map((x) => x.text ?? '').join('') ?? '';
          if (r.isError && !text.trim()) t.unclear.push(`${JSON.stringify(c).slice(0, 200)}: empty error`);
        } catch (e) {
          const msg = e instanceof Error ? e.message : String(e);
          if (/-32602|Invalid/i.test(msg)) t.refused++;
          else t.unclear.push(`${JSON.stringify(c).slice(0, 200)}: ${msg.slice(0, 200)}`);
        }
      }
      // Still alive and answering after all of that.
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      expect(stderr()).not.toMatch(/\n\s+at \S+ \(|Unhandled|uncaught/i);
    } finally {
      await close();
    }
    expect(t.unclear).toEqual([]);
  }, 600_000);
});
