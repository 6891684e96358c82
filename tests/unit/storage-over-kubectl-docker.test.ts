/**
 * inspect_storage, audit_os and nodetool through k8s:// and docker:// targets without a cluster or a daemon:
 * shim `kubectl` and `docker` executables first on PATH record their argv, check it has the shape the real
 * CLIs need (kubectl: [--kubeconfig K] [--context X] -n NS exec [-i] POD [-c C] -- CMD…; docker: exec [-i]
 * [-u USER] [-w DIR] [-e NAME]… -- CONTAINER CMD…), and run the in-container command here with execFile
 * (argv, no shell). The reports must equal the local ones, and the argv must be exactly what was expected.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { readOs } from '../../mcp-server/src/collect/storage/read-os.js';
import { targetFromString } from '../../mcp-server/src/collect/target-spec.js';
import { auditOs } from '../../mcp-server/src/ops/audit-os.js';
import { runNodetool } from '../../mcp-server/src/ops/nodetool.js';
import { inspectStorage } from '../../mcp-server/src/ops/storage.js';
import { corpus, HAVE_CORPUS, FIXTURES_DIR } from '../helpers/corpus.js';

const bin = mkdtempSync(join(tmpdir(), 'cql-tuner-shims-'));
const log = join(bin, 'argv.log');
const tree = (n: string) => join(FIXTURES_DIR, 'storage', n);

// Shared by both shims: record argv, refuse a bad shape with exit 97 (so a test sees it), else run the command.
const COMMON = String.raw`
const { appendFileSync } = require('node:fs');
const { execFile } = require('node:child_process');
const args = process.argv.slice(2);
appendFileSync(process.env.SHIM_LOG, JSON.stringify([NAME, ...args]) + '\n');
const refuse = (why) => { process.stderr.write(NAME + ' shim: ' + why + ' in ' + JSON.stringify(args) + '\n'); process.exit(97); };
const value = (i, what) => { const v = args[i]; if (v === undefined || v === '' || v.startsWith('-')) refuse(what + ' missing or in option position'); return v; };
function run(cmd, stdin) {
  if (cmd.length === 0) refuse('no command after the container');
  const child = execFile(cmd[0], cmd.slice(1), { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    // Like a container runtime: 127 when the command is not there, else the command's own exit code.
    const code = err ? (err.code === 'ENOENT' ? 127 : typeof err.code === 'number' ? err.code : 126) : 0;
    if (err && err.code === 'ENOENT') process.stderr.write('OCI runtime exec failed: exec failed: unable to start container process: exec: "' + cmd[0] + '": executable file not found in $PATH: unknown\n');
    // Real kubectl ends a failed remote command with this line (docker just passes the code on).
    if (code !== 0 && NAME === 'kubectl') process.stderr.write('command terminated with exit code ' + code + '\n');
    process.exitCode = code;
  });
  if (stdin) process.stdin.pipe(child.stdin); else child.stdin.end();
}
`;

const KUBECTL = `#!/usr/bin/env node
const NAME = 'kubectl';
${COMMON}
let i = 0;
const seen = {};
while (args[i] === '--kubeconfig' || args[i] === '--context') { seen[args[i]] = value(i + 1, args[i]); i += 2; }
if (args[i] !== '-n') refuse('expected -n NAMESPACE before exec');
value(i + 1, 'namespace'); i += 2;
if (args[i] !== 'exec') refuse('expected exec');
i++;
const stdin = args[i] === '-i';
if (stdin) i++;
value(i, 'pod'); i++;
if (args[i] === '-c') { value(i + 1, 'container'); i += 2; }
if (args[i] !== '--') refuse('expected -- before the command');
run(args.slice(i + 1), stdin);
`;

const DOCKER = `#!/usr/bin/env node
const NAME = 'docker';
${COMMON}
if (args[0] !== 'exec') refuse('expected exec');
let i = 1;
let stdin = false;
while (args[i] !== '--') {
  if (args[i] === '-i') { stdin = true; i++; continue; }
  if (['-u', '-w', '-e'].includes(args[i])) { value(i + 1, args[i]); i += 2; continue; }
  refuse('unexpected ' + JSON.stringify(args[i]) + ' before --');
}
value(i + 1, 'container');
run(args.slice(i + 2), stdin);
`;

function calls(): string[][] {
  return existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as string[])
    : [];
}

/** The in-container argv of each recorded call (what follows the container / pod). */
function inner(c: string[]): string[] {
  const sep = c.indexOf('--');
  return c[0] === 'docker' ? c.slice(sep + 2) : c.slice(sep + 1);
}

/** A report as JSON with the target's own description replaced by the local one, durations removed. */
function normal(x: unknown, remote: string, local: string): unknown {
  return JSON.parse(
    JSON.stringify(x, (k, v: unknown) => (k === 'durationMs' ? 0 : v))
      .split(remote)
      .join(local),
  );
}

// The kube context comes from the environment (a tool argument may not name one): it must reach the argv.
const K8S = 'k8s://db/cass-0/cassandra';
const savedContext = process.env.CQL_TUNER_KUBE_CONTEXT;
process.env.CQL_TUNER_KUBE_CONTEXT = 'x';
const DOCKER_SPEC = 'docker://cass1?user=u';
const KUBECTL_PREFIX = ['kubectl', '--context', 'x', '-n', 'db', 'exec', 'cass-0', '-c', 'cassandra', '--'];
const DOCKER_PREFIX = ['docker', 'exec', '-u', 'u', '--', 'cass1'];

const savedPath = process.env.PATH;
beforeAll(() => {
  writeFileSync(join(bin, 'kubectl'), KUBECTL);
  writeFileSync(join(bin, 'docker'), DOCKER);
  chmodSync(join(bin, 'kubectl'), 0o755);
  chmodSync(join(bin, 'docker'), 0o755);
  process.env.PATH = `${bin}${delimiter}${savedPath ?? ''}`;
  process.env.SHIM_LOG = log;
});
afterAll(() => {
  process.env.PATH = savedPath;
  if (savedContext === undefined) delete process.env.CQL_TUNER_KUBE_CONTEXT;
  else process.env.CQL_TUNER_KUBE_CONTEXT = savedContext;
  delete process.env.SHIM_LOG;
  rmSync(bin, { recursive: true, force: true });
});
beforeEach(() => rmSync(log, { force: true }));

describe.each([
  { spec: K8S, prefix: KUBECTL_PREFIX },
  { spec: DOCKER_SPEC, prefix: DOCKER_PREFIX },
])('storage and OS inspection over $spec (shim client)', ({ spec, prefix }) => {
  const remote = targetFromString(spec).describe();
  const local = new LocalTarget().describe();

  it('inspect_storage on a recorded tree: the same report as local; every call is prefix + a plain argv', async () => {
    const opts = { root: tree('raid0-1m'), product: 'scylla' as const };
    const here = await inspectStorage(opts);
    rmSync(log, { force: true });
    const there = await inspectStorage({ ...opts, target: spec });
    expect(there.target).toBe(remote);
    expect(normal(there, remote, local)).toEqual(normal(here, local, local));
    expect(there.findings.length).toBeGreaterThan(0);
    const c = calls();
    expect(c.length).toBeGreaterThan(3);
    for (const call of c) expect(call.slice(0, prefix.length)).toEqual(prefix);
    // The in-container commands are the reader's own argv: find/grep/cat over the recorded root, never a shell.
    expect(c.map((x) => inner(x)[0])).not.toContain('sh');
    expect(c.map(inner)).toContainEqual(['cat', join(tree('raid0-1m'), 'etc/scylla.d/io_properties.yaml')]);
    expect(c.map(inner)).toContainEqual(['cat', join(tree('raid0-1m'), '.commands', 'mdadm --detail _dev_md0.txt')]);
  });

  it('audit_os on the untuned Cassandra tree: same facts and findings as local (TCP sysctls included)', async () => {
    const opts = { root: tree('os-cassandra-untuned'), product: 'cassandra' as const };
    const here = await auditOs(opts);
    rmSync(log, { force: true });
    const there = await auditOs({ ...opts, target: spec });
    expect(normal(there, remote, local)).toEqual(normal(here, local, local));
    expect(there.findings.map((f) => f.id)).toContain('os.tcp-buffers-small');
    for (const call of calls()) expect(call.slice(0, prefix.length)).toEqual(prefix);
    const grep = calls()
      .map(inner)
      .find((a) => a[0] === 'grep')!;
    expect(grep.slice(0, 4)).toEqual(['grep', '-s', '-H', '.']);
    expect(grep).toContain(join(tree('os-cassandra-untuned'), 'proc/sys/net/ipv4/tcp_rmem'));
  });

  it('this machine (root /): the same OS values through the shim as read locally', async () => {
    const here = await readOs(new LocalTarget(), { product: 'cassandra' });
    const there = await readOs(targetFromString(spec), { product: 'cassandra' });
    for (const k of [
      'memTotalKiB',
      'maxMapCount',
      'swappiness',
      'tcpKeepaliveTime',
      'tcpRmem',
      'tcpWmem',
      'rmemMax',
      'somaxconn',
      'cpus',
      'clocksource',
      'numaNodes',
    ] as const) {
      expect([k, there[k]]).toEqual([k, here[k]]);
    }
    // pgrep travels as one argv element: the bracketed pattern is not split or expanded by any shell.
    expect(calls().map(inner)).toContainEqual(['pgrep', '-o', '-f', '[o]rg.apache.cassandra.service.CassandraDaemon']);
  });

  it.skipIf(!HAVE_CORPUS)('nodetool status through a fake remote nodetool: same parse as local, exact argv', async () => {
    const sample = join(bin, 'status.txt');
    writeFileSync(sample, corpus('local-runs/cassandra-5.0.9-cluster3/nodetool_status_jmx7199.txt'));
    const nt = join(bin, 'nodetool');
    writeFileSync(
      nt,
      `#!/bin/sh\n[ "$1 $2 $3 $4 $5" = "-h 127.0.0.1 -p 7199 status" ] || { echo "fake nodetool: unexpected args $*" >&2; exit 2; }\nexec cat '${sample}'\n`,
      { mode: 0o755 },
    );
    const env = { PATH: process.env.PATH } as NodeJS.ProcessEnv;
    const here = await runNodetool({ subcommand: 'status', nodetoolPath: nt }, { target: new LocalTarget(), env });
    rmSync(log, { force: true });
    const there = await runNodetool({ subcommand: 'status', nodetoolPath: nt }, { target: targetFromString(spec), env });
    expect(here.ok).toBe(true);
    expect(there.ok).toBe(true);
    expect(there.parsed).toEqual(here.parsed);
    expect(there.output).toEqual(here.output);
    expect((there.parsed?.value as { nodes: unknown[] }).nodes).toHaveLength(3);
    expect(calls()).toEqual([[...prefix, nt, '-h', '127.0.0.1', '-p', '7199', 'status']]);
  });
});

describe('hostile names never reach the client', () => {
  it('option-looking pod, container and user values are refused before any kubectl/docker runs', async () => {
    for (const bad of ['k8s://db/-it/c', 'k8s://db/pod/--privileged', 'docker://--rm', 'docker://c?user=-0']) {
      await expect(inspectStorage({ target: bad, root: tree('healthy') })).rejects.toMatchObject({ code: 'BAD_TARGET' });
    }
    expect(calls()).toEqual([]);
  });

  it('the shim itself refuses a malformed argv (so the shape checks can fail)', async () => {
    const { execFileSync } = await import('node:child_process');
    expect(() => execFileSync(join(bin, 'docker'), ['exec', 'cass1', 'cat', '/etc/hostname'], { stdio: 'pipe' })).toThrow(
      /docker shim: unexpected "cass1" before --/,
    );
    expect(() => execFileSync(join(bin, 'kubectl'), ['exec', '-n', 'db', 'pod', 'cat'], { stdio: 'pipe' })).toThrow(
      /kubectl shim: expected -n NAMESPACE before exec/,
    );
    expect(() => execFileSync(join(bin, 'kubectl'), ['-n', 'db', 'exec', 'pod', 'cat'], { stdio: 'pipe' })).toThrow(/expected -- before the command/);
  });
});
