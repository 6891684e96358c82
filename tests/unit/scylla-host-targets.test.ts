/**
 * The ScyllaDB host set-up is read through any Target: over k8s:// and docker:// (shim kubectl/docker first on
 * PATH that record their argv and run the in-container command locally) readScyllaHost gets exactly the facts it
 * gets locally from the same recorded tree, and every call has the client's prefix with a plain argv after it.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readScyllaHost } from '../../mcp-server/src/collect/host-scylla.js';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { targetFromString } from '../../mcp-server/src/collect/target-spec.js';
import { writeTunedScyllaTree } from '../helpers/scylla-tree.js';

const bin = mkdtempSync(join(tmpdir(), 'scylla-host-shims-'));
const log = join(bin, 'argv.log');
const root = mkdtempSync(join(tmpdir(), 'scylla-host-tree-'));

// One shim for both clients: log argv, find "--", run what follows it (docker: after the container name).
const SHIM = (name: string) => `#!/usr/bin/env node
const { appendFileSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const args = process.argv.slice(2);
appendFileSync(process.env.SCYLLA_SHIM_LOG, JSON.stringify(['${name}', ...args]) + '\\n');
const sep = args.indexOf('--');
if (sep < 0) { process.stderr.write('shim: no --\\n'); process.exit(97); }
const cmd = args.slice(sep + ('${name}' === 'docker' ? 2 : 1));
const r = spawnSync(cmd[0], cmd.slice(1), { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
process.stdout.write(r.stdout ?? Buffer.alloc(0));
process.stderr.write(r.stderr ?? Buffer.alloc(0));
process.exitCode = r.error ? 127 : r.status ?? 1;
// Real kubectl ends a failed remote command with this line; docker passes the code on silently.
if (process.exitCode !== 0 && '${name}' === 'kubectl') process.stderr.write('command terminated with exit code ' + process.exitCode + '\\n');
`;

const saved = { path: process.env.PATH, ctx: process.env.CQL_TUNER_KUBE_CONTEXT };
beforeAll(() => {
  for (const n of ['kubectl', 'docker']) {
    writeFileSync(join(bin, n), SHIM(n));
    chmodSync(join(bin, n), 0o755);
  }
  process.env.PATH = `${bin}${delimiter}${saved.path ?? ''}`;
  process.env.SCYLLA_SHIM_LOG = log;
  process.env.CQL_TUNER_KUBE_CONTEXT = 'x';
  writeTunedScyllaTree(root);
});
afterAll(() => {
  process.env.PATH = saved.path;
  if (saved.ctx === undefined) delete process.env.CQL_TUNER_KUBE_CONTEXT;
  else process.env.CQL_TUNER_KUBE_CONTEXT = saved.ctx;
  delete process.env.SCYLLA_SHIM_LOG;
  rmSync(bin, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => rmSync(log, { force: true }));

const calls = (): string[][] =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as string[])
    : [];

describe.each([
  { spec: 'k8s://db/scylla-0/scylla', prefix: ['kubectl', '--context', 'x', '-n', 'db', 'exec', 'scylla-0', '-c', 'scylla', '--'] },
  { spec: 'docker://scylla1', prefix: ['docker', 'exec', '--', 'scylla1'] },
])('readScyllaHost over $spec', ({ spec, prefix }) => {
  it('reads the same facts as locally, through the client prefix only', async () => {
    const target = targetFromString(spec);
    const remote = await readScyllaHost(target, { root });
    const local = await readScyllaHost(new LocalTarget(), { root });
    const names = [target.describe(), new LocalTarget().describe()];
    const strip = (f: typeof local) => JSON.parse(names.reduce((t, n) => t.split(n).join('T'), JSON.stringify(f))) as unknown;
    expect(strip(remote)).toEqual(strip(local));
    expect(remote).toMatchObject({ perftune: { nics: ['ens4'] }, env: { SET_NIC_AND_DISKS: 'no' }, affinity: { 24: [1] }, process: { pid: 1717 } });
    const c = calls();
    expect(c.length).toBeGreaterThan(5);
    for (const call of c) {
      expect(call.slice(0, prefix.length)).toEqual(prefix);
      // The in-container command is one of the read-only readers, with the tree's paths as plain arguments.
      expect(['cat', 'grep', 'find', 'readlink']).toContain(call[prefix.length]);
    }
    expect(c.map((x) => x.slice(prefix.length))).toContainEqual(['cat', join(root, 'etc/scylla.d/perftune.yaml')]);
  });
});
