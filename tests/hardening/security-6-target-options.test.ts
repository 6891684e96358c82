/**
 * Issue #13, class 6: target query options that name local files or kube settings (?config=, ?identity=,
 * ?knownHosts=, ?hostKeyCheck=, ?kubeconfig=, ?context=) inside a target given as an MCP argument. They used
 * to reach ssh/kubectl: ?config= made ssh read an ssh_config whose ProxyCommand is a local command,
 * ?knownHosts= appended to an arbitrary file, ?kubeconfig= ran a kubeconfig's exec credential plugin.
 * Now only the user's own configuration sets them: CLI flags (trusted) and CQL_TUNER_SSH_* / CQL_TUNER_KUBE*
 * in the environment, which reach every ssh/kubectl argv.
 * ssh and kubectl are recorders first on PATH (tests/hardening/recorders.ts): any start is logged.
 */
import { createServer as createNetServer } from 'node:net';
import { delimiter } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRUSTED_ONLY_OPTIONS, type TrustedOnlyOption } from '../../mcp-server/src/collect/target-defaults.js';
import { createTarget, parseTargetSpec } from '../../mcp-server/src/collect/target-spec.js';
import { parseTargetTemplate, specForNode } from '../../mcp-server/src/collect/target-template.js';
import { snapshotInputFrom } from '../../mcp-server/src/cli/commands/cluster-options.js';
import { storageCommand } from '../../mcp-server/src/cli/commands/storage.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { targetOf } from '../../mcp-server/src/ops/storage.js';
import { makeRecorders, type Recorders } from './recorders.js';
import { record } from './stats.js';

/** One hostile value per option, each naming a file or context an attacker would pick. */
const OPTION_VALUES: Record<TrustedOnlyOption, string> = {
  identity: '/tmp/cqlt-evil-key',
  config: '/tmp/cqlt-evil_ssh_config',
  knownHosts: '/home/user/.bashrc',
  hostKeyCheck: 'config',
  kubeconfig: '/tmp/cqlt-evil-kubeconfig',
  context: 'cqlt-evil-context',
};
const isKube = (o: TrustedOnlyOption) => o === 'kubeconfig' || o === 'context';
/** The target with one option: host "{host}" makes a nodetoolVia template. */
const targetWith = (o: TrustedOnlyOption, host = 'db1') =>
  (isKube(o) ? `k8s://db/${host === '{host}' ? '{host}' : 'cass-0'}` : `ssh://ops@${host}`) + `?${o}=${OPTION_VALUES[o]}`;

let rec: Recorders;
let closedPort = 0;
const savedEnv = { ...process.env };

beforeAll(async () => {
  rec = makeRecorders();
  process.env.PATH = `${rec.bin}${delimiter}${savedEnv.PATH ?? ''}`;
  for (const v of Object.values(TRUSTED_ONLY_OPTIONS)) delete process.env[v];
  closedPort = await new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
});

afterAll(() => {
  process.env = savedEnv;
  rec?.cleanup();
});

async function connect(): Promise<Client> {
  const server = createServer();
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  const client = new Client({ name: 'security-6', version: '0' });
  await client.connect(ct);
  return client;
}

type ToolReply = { isError?: boolean; content?: { type: string; text?: string }[] };
const textOf = (r: ToolReply) => (r.content ?? []).map((c) => c.text ?? '').join('\n');

describe('class 6: file and context options in a tool argument target', () => {
  it('inspect_storage, audit_os, plan_mkfs, cluster_snapshot and diagnose refuse each option, naming its variable, and start nothing', async () => {
    const client = await connect();
    const unsafe: string[] = [];
    let tried = 0;
    try {
      for (const option of Object.keys(TRUSTED_ONLY_OPTIONS) as TrustedOnlyOption[]) {
        const variable = TRUSTED_ONLY_OPTIONS[option];
        const target = targetWith(option);
        const via = targetWith(option, '{host}');
        const calls: { name: string; arguments: Record<string, unknown> }[] = [
          { name: 'inspect_storage', arguments: { target, product: 'cassandra' } },
          { name: 'audit_os', arguments: { target, product: 'cassandra' } },
          { name: 'plan_mkfs', arguments: { target, product: 'scylla', devices: ['sdb'] } },
          { name: 'cluster_snapshot', arguments: { hosts: ['127.0.0.1'], cqlPort: closedPort, nodetoolVia: via } },
          // An extra argument claiming trust is not a way in: tool arguments are untrusted whatever they say.
          { name: 'cluster_snapshot', arguments: { hosts: ['127.0.0.1'], cqlPort: closedPort, nodetoolVia: via, targetOrigin: 'trusted' } },
          { name: 'diagnose', arguments: { hosts: ['127.0.0.1'], cqlPort: closedPort, nodetoolVia: via } },
        ];
        for (const c of calls) {
          tried++;
          const before = rec.read().length;
          const r = (await client
            .callTool(c, undefined, { timeout: 60_000 })
            .catch((e: unknown) => ({ isError: true, content: [{ type: 'text', text: String(e) }] }))) as ToolReply;
          const started = rec.read().slice(before);
          const what = `${c.name} ${JSON.stringify(c.arguments)}`;
          if (started.length) unsafe.push(`${what}: started ${started.map((e) => `${e.cmd} ${e.argv.join(' ')}`).join('; ')}`);
          else if (!r.isError) unsafe.push(`${what}: accepted`);
          else if (!textOf(r).includes(variable)) unsafe.push(`${what}: the error does not name ${variable}: ${textOf(r).slice(0, 300)}`);
        }
      }
    } finally {
      await client.close();
    }
    record({ section: 'attack', cls: '6 target options in tool arguments', tried, unsafe: unsafe.length });
    expect(unsafe).toEqual([]);
  }, 300_000);

  it('the same options from the CLI flags still parse, and reach the argv', async () => {
    for (const option of Object.keys(TRUSTED_ONLY_OPTIONS) as TrustedOnlyOption[]) {
      const spec = parseTargetSpec(targetWith(option), 'trusted');
      expect(spec.ok, option).toBe(true);
      const t = targetOf(targetWith(option), 'trusted') as unknown as { commandFor: (a: string[], o: object) => { argv: string[] } };
      const argv = t.commandFor(['true'], { timeoutMs: 10_000 }).argv.join(' ');
      // hostKeyCheck=config leaves host keys to ssh_config: no StrictHostKeyChecking option at all.
      if (option === 'hostKeyCheck') expect(argv).not.toContain('StrictHostKeyChecking');
      else expect(argv).toContain(OPTION_VALUES[option]);
    }
    // --nodetool-via goes through snapshotInputFrom, which marks it trusted.
    const nodetoolVia = 'ssh://ops@{host}?config=/etc/cql-tuner/ssh_config';
    const input = snapshotInputFrom({ hosts: ['db1'], jmxHost: 'node', jmxPort: 7199, concurrency: 8, nodeTimeout: 30_000, nodetoolVia });
    expect(input.targetOrigin).toBe('trusted');
    const template = parseTargetTemplate(input.nodetoolVia!, input.targetOrigin);
    expect(template.ok).toBe(true);
    const expected = { kind: 'ssh', host: '10.0.0.1', user: 'ops', configFile: '/etc/cql-tuner/ssh_config' };
    if (template.ok) expect(specForNode(template.value, '10.0.0.1')).toEqual({ ok: true, value: expected });
    // `cql-tuner storage --target ssh://…?config=…` runs ssh with the user's config (the recorder fails, so the report says unreachable).
    const before = rec.read().length;
    const saved = process.exitCode;
    await storageCommand().parseAsync(['--target', 'ssh://ops@db1?config=/etc/cql-tuner/ssh_config', '--json'], { from: 'user' });
    process.exitCode = saved;
    const ssh = rec
      .read()
      .slice(before)
      .filter((e) => e.cmd === 'ssh');
    expect(ssh.length).toBeGreaterThan(0);
    expect(ssh[0]!.argv.slice(ssh[0]!.argv.indexOf('-F'), ssh[0]!.argv.indexOf('-F') + 2)).toEqual(['-F', '/etc/cql-tuner/ssh_config']);
  }, 60_000);

  it('CQL_TUNER_SSH_* and CQL_TUNER_KUBE* reach every ssh and kubectl argv, a tool call included', async () => {
    Object.assign(process.env, {
      CQL_TUNER_SSH_CONFIG: '/etc/cql-tuner/ssh_config',
      CQL_TUNER_SSH_IDENTITY: '/home/ops/.ssh/id_ed25519',
      CQL_TUNER_SSH_KNOWN_HOSTS: '/etc/cql-tuner/known_hosts',
      CQL_TUNER_SSH_HOST_KEY_CHECK: 'yes',
      CQL_TUNER_KUBECONFIG: '/etc/cql-tuner/kubeconfig',
      CQL_TUNER_KUBE_CONTEXT: 'arn:aws:eks:eu-west-1:1:cluster/prod',
    });
    try {
      const argvOf = (s: string) => {
        const p = parseTargetSpec(s);
        if (!p.ok) throw new Error(p.error);
        const t = createTarget(p.spec) as unknown as { commandFor: (a: string[], o: object) => { argv: string[] } };
        return t.commandFor(['nodetool', 'status'], { timeoutMs: 60_000 }).argv;
      };
      expect(argvOf('ssh://ops@db1')).toEqual([
        'ssh',
        '-T',
        '-o',
        'BatchMode=yes',
        '-o',
        'ConnectTimeout=10',
        '-o',
        'LogLevel=ERROR',
        '-o',
        'ClearAllForwardings=yes',
        '-o',
        'StrictHostKeyChecking=yes',
        '-o',
        'UserKnownHostsFile=/etc/cql-tuner/known_hosts',
        '-F',
        '/etc/cql-tuner/ssh_config',
        '-i',
        '/home/ops/.ssh/id_ed25519',
        '-o',
        'IdentitiesOnly=yes',
        '-l',
        'ops',
        '--',
        'db1',
        "'nodetool' 'status'",
      ]);
      expect(argvOf('k8s://db/cass-0')).toEqual([
        'kubectl',
        '--kubeconfig',
        '/etc/cql-tuner/kubeconfig',
        '--context',
        'arn:aws:eks:eu-west-1:1:cluster/prod',
        '-n',
        'db',
        'exec',
        'cass-0',
        '--',
        'nodetool',
        'status',
      ]);
      // Through the MCP server: audit_os over ssh starts ssh with the environment's settings.
      const client = await connect();
      const before = rec.read().length;
      try {
        await client.callTool({ name: 'audit_os', arguments: { target: 'ssh://ops@db1', product: 'cassandra' } }, undefined, { timeout: 60_000 });
      } finally {
        await client.close();
      }
      const ssh = rec
        .read()
        .slice(before)
        .filter((e) => e.cmd === 'ssh');
      expect(ssh.length).toBeGreaterThan(0);
      for (const e of ssh) expect(e.argv.join(' ')).toContain('-F /etc/cql-tuner/ssh_config -i /home/ops/.ssh/id_ed25519');
      // A bad value is an error naming the variable, never silently skipped.
      process.env.CQL_TUNER_SSH_IDENTITY = 'relative/key';
      expect(() => targetOf('ssh://db1')).toThrow(/CQL_TUNER_SSH_IDENTITY/);
    } finally {
      for (const v of Object.values(TRUSTED_ONLY_OPTIONS)) delete process.env[v];
    }
  }, 60_000);
});
