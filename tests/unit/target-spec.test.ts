import { describe, expect, it } from 'vitest';
import { DockerTarget } from '../../mcp-server/src/collect/docker-target.js';
import { KubectlTarget } from '../../mcp-server/src/collect/kubectl-target.js';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { SshTarget } from '../../mcp-server/src/collect/ssh-target.js';
import {
  createTarget,
  formatTargetSpec,
  parseTargetSpec,
  targetFromString,
  TARGET_FORMS,
  TOOL_TARGET_FORMS,
  type TargetSpec,
} from '../../mcp-server/src/collect/target-spec.js';
import { RemoteTargetError } from '../../mcp-server/src/core/remote-argv.js';
import { HOSTILE_VALUES } from '../helpers/sshd.js';

// These tables are the CLI's forms ('trusted'); what an untrusted spec may not carry is tested below.
function specOf(input: string): TargetSpec {
  const r = parseTargetSpec(input, 'trusted');
  if (!r.ok) throw new Error(r.error);
  return r.spec;
}

function errorOf(input: string): string {
  const r = parseTargetSpec(input, 'trusted');
  if (r.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused, got ${JSON.stringify(r.spec)}`);
  return r.error;
}

describe('parseTargetSpec: accepted forms', () => {
  it.each<[string, TargetSpec]>([
    ['local', { kind: 'local' }],
    ['LOCAL', { kind: 'local' }],
    ['  local\n', { kind: 'local' }],
    ['ssh://db1', { kind: 'ssh', host: 'db1' }],
    ['ssh://ops@db1:22', { kind: 'ssh', host: 'db1', user: 'ops', port: 22 }],
    ['SSH://10.0.0.5:2222', { kind: 'ssh', host: '10.0.0.5', port: 2222 }],
    ['ssh://root@[::1]:2200', { kind: 'ssh', host: '::1', user: 'root', port: 2200 }],
    ['ssh://[fe80::1]', { kind: 'ssh', host: 'fe80::1' }],
    ['ssh://prod-cass-1?identity=/home/ops/.ssh/id_ed25519', { kind: 'ssh', host: 'prod-cass-1', identityFile: '/home/ops/.ssh/id_ed25519' }],
    [
      'ssh://ops@db1?identity=%2Fkeys%2Fid&config=/etc/ssh/cfg&knownHosts=/tmp/kh&hostKeyCheck=yes&connectTimeout=5',
      {
        kind: 'ssh',
        host: 'db1',
        user: 'ops',
        identityFile: '/keys/id',
        configFile: '/etc/ssh/cfg',
        knownHostsFile: '/tmp/kh',
        hostKeyCheck: 'yes',
        connectTimeoutSec: 5,
      },
    ],
    ['k8s://cassandra/cass-0', { kind: 'kubectl', namespace: 'cassandra', pod: 'cass-0' }],
    ['k8s://cassandra/cass-0/cassandra', { kind: 'kubectl', namespace: 'cassandra', pod: 'cass-0', container: 'cassandra' }],
    ['kubectl://default/dc1-rack1-sts-0', { kind: 'kubectl', namespace: 'default', pod: 'dc1-rack1-sts-0' }],
    [
      'k8s://cassandra/cass-0?context=arn:aws:eks:eu-west-1:123456789012:cluster/prod&kubeconfig=/etc/kube/config',
      { kind: 'kubectl', namespace: 'cassandra', pod: 'cass-0', context: 'arn:aws:eks:eu-west-1:123456789012:cluster/prod', kubeconfig: '/etc/kube/config' },
    ],
    ['k8s://ns/p?context=admin%40kind-kind', { kind: 'kubectl', namespace: 'ns', pod: 'p', context: 'admin@kind-kind' }],
    ['docker://cass1', { kind: 'docker', container: 'cass1' }],
    ['docker://cass1?user=cassandra:cassandra', { kind: 'docker', container: 'cass1', user: 'cassandra:cassandra' }],
  ])('%s', (input, expected) => {
    expect(parseTargetSpec(input, 'trusted')).toEqual({ ok: true, spec: expected });
  });
});

describe('parseTargetSpec: an untrusted spec (the default) names no local file or kube setting', () => {
  it.each<[string, string]>([
    ['ssh://db1?identity=/k', 'CQL_TUNER_SSH_IDENTITY'],
    ['ssh://db1?config=/tmp/x', 'CQL_TUNER_SSH_CONFIG'],
    ['ssh://db1?knownHosts=/tmp/kh', 'CQL_TUNER_SSH_KNOWN_HOSTS'],
    ['ssh://db1?hostKeyCheck=config', 'CQL_TUNER_SSH_HOST_KEY_CHECK'],
    ['k8s://ns/pod?kubeconfig=/tmp/k', 'CQL_TUNER_KUBECONFIG'],
    ['k8s://ns/pod?context=prod', 'CQL_TUNER_KUBE_CONTEXT'],
  ])('%s is refused, naming %s', (input, variable) => {
    for (const r of [parseTargetSpec(input), parseTargetSpec(input, 'untrusted')]) {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error).toContain(variable);
        expect(r.error).toContain(`Accepted forms: ${TOOL_TARGET_FORMS}`);
      }
    }
    expect(parseTargetSpec(input, 'trusted').ok).toBe(true);
  });

  it('keeps the harmless options', () => {
    expect(parseTargetSpec('ssh://ops@db1:22?connectTimeout=5')).toEqual({
      ok: true,
      spec: { kind: 'ssh', host: 'db1', user: 'ops', port: 22, connectTimeoutSec: 5 },
    });
    expect(parseTargetSpec('docker://cass1?user=cassandra')).toEqual({ ok: true, spec: { kind: 'docker', container: 'cass1', user: 'cassandra' } });
  });
});

describe('parseTargetSpec: refusals name what was wrong and list the forms', () => {
  it.each<[string, string]>([
    ['', 'empty'],
    ['db1', 'not "local" and has no scheme://'],
    ['ops@db1', 'not "local" and has no scheme://'],
    ['ftp://db1', 'unknown scheme "ftp"'],
    ['ssh://', 'ssh:// needs a host'],
    ['ssh://ops@', 'ssh:// needs a host'],
    ['ssh://@db1', 'the user before "@" is empty'],
    ['ssh://db1/var', 'ssh:// takes no path'],
    ['ssh://db1:0', 'ssh port 0 is not an integer between 1 and 65535'],
    ['ssh://db1:99999', 'ssh port 99999 is not an integer between 1 and 65535'],
    ['ssh://db1:22x', 'port "22x" is not a number'],
    ['ssh://db1:', 'port "" is not a number'],
    ['ssh://::1', 'an IPv6 host goes in brackets'],
    ['ssh://[::1', 'has no closing "]"'],
    ['ssh://[db1]:22', 'brackets are for IPv6 addresses only'],
    ['ssh://-oProxyCommand=id', 'ssh host "-oProxyCommand=id" is not a host name'],
    ['ssh://-oProxyCommand=id@db1', 'ssh user "-oProxyCommand=id" is not a user name'],
    ['ssh://db1;id', 'ssh host "db1;id"'],
    ['ssh://$(id)', 'ssh host "$(id)"'],
    ['ssh://db1 id', 'contains whitespace or control characters'],
    ['ssh://db1\nid', 'contains whitespace or control characters'],
    ['ssh://db1\u00a0', 'contains whitespace or control characters'],
    ['ssh://ｌocalhost', 'ssh host "ｌocalhost"'],
    ['ssh://db1?identity=relative/key', 'ssh identity file "relative/key" must be an absolute path'],
    ['ssh://db1?identity=/a%20b', 'ssh identity file "/a b" must be an absolute path'],
    ['ssh://db1?identity=%ZZ', 'query parameter identity has a malformed %-escape'],
    ['ssh://db1?identity=', 'query parameter identity has no value'],
    ['ssh://db1?identity=/a&identity=/b', 'query parameter identity is given twice'],
    ['ssh://db1?proxy=x', 'ssh:// takes the query parameters identity, config, knownHosts, hostKeyCheck, connectTimeout; got "proxy"'],
    ['ssh://db1?ProxyCommand=id', 'got "ProxyCommand"'],
    ['ssh://db1?hostKeyCheck=no', 'hostKeyCheck "no" is not one of accept-new, yes, config'],
    ['ssh://db1?connectTimeout=0', 'ssh connectTimeout 0 is not a whole number of seconds between 1 and 600'],
    ['ssh://db1?connectTimeout=1e3', 'connectTimeout "1e3" is not a whole number of seconds'],
    ['ssh://db1#frag', '"#" has no meaning in a target'],
    ['k8s://cass-0', 'k8s:// takes namespace/pod or namespace/pod/container'],
    ['k8s://ctx/ns/pod/container', 'k8s:// takes namespace/pod or namespace/pod/container'],
    ['k8s://ns//pod', 'k8s:// takes namespace/pod'],
    ['k8s://ns/Cass-0', 'kubernetes pod "Cass-0" is not a DNS-1123 subdomain'],
    ['k8s://-n/pod', 'kubernetes namespace "-n" is not a DNS-1123 label'],
    ['k8s://ns/pod/-c', 'kubernetes container "-c" is not a DNS-1123 label'],
    ['k8s://ns/pod?context=-x', 'kubectl context "-x" must be'],
    ['k8s://ns/pod?context=a%20b', 'kubectl context "a b" must be'],
    ['k8s://ns/pod?namespace=x', 'k8s:// takes the query parameters context, kubeconfig; got "namespace"'],
    ['docker://', 'docker:// takes one container name or id'],
    ['docker://a/b', 'docker:// takes one container name or id'],
    ['docker://-it', 'docker container "-it" is not a container name'],
    ['docker://cass1?user=-0', 'docker user "-0" must be'],
    ['docker://cass1?privileged=true', 'docker:// takes the query parameters user; got "privileged"'],
  ])('%j', (input, fragment) => {
    const err = errorOf(input);
    expect(err).toContain(fragment);
    expect(err).toContain(`Accepted forms: ${TARGET_FORMS}`);
    expect(err.startsWith('target ')).toBe(true);
  });

  it('refuses every hostile value as an ssh host, a docker container or a pod', () => {
    for (const v of HOSTILE_VALUES) {
      for (const input of [`ssh://${v}`, `ssh://${v}@db1`, `docker://${v}`, `k8s://ns/${v}`, `k8s://${v}/pod`]) {
        const r = parseTargetSpec(input);
        // A few hostile strings are themselves valid target text ("db1:22" is host:port, "user@db1" is
        // user@host, "db1\n" loses its pasted line break): those parse into validated fields, nothing else.
        if (r.ok) {
          expect(['db1:22', 'user@db1', 'db1 ', 'db1\n'], `${JSON.stringify(input)} parsed`).toContain(v);
          expect(formatTargetSpec(r.spec)).toBe(input.trim());
        } else {
          expect(r.error).toContain('Accepted forms');
        }
      }
    }
    expect(specOf('ssh://db1:22')).toEqual({ kind: 'ssh', host: 'db1', port: 22 });
  });

  it('escapes control characters when it quotes the input back', () => {
    expect(errorOf('ssh://db1\x1b[31m')).toContain('\\u001b[31m');
  });
});

describe('formatTargetSpec', () => {
  it('round-trips through parseTargetSpec', () => {
    for (const input of [
      'local',
      'ssh://db1',
      'ssh://ops@db1:2222?identity=/k/id&config=/c&knownHosts=/kh&hostKeyCheck=config&connectTimeout=3',
      'ssh://root@[::1]:22',
      'k8s://cassandra/cass-0/cassandra?context=arn:aws:eks:eu-west-1:1:cluster/prod&kubeconfig=/k',
      'docker://cass1?user=999:999',
    ]) {
      const spec = specOf(input);
      expect(formatTargetSpec(spec)).toBe(input);
      expect(specOf(formatTargetSpec(spec))).toEqual(spec);
    }
  });
});

describe('createTarget', () => {
  it('builds each kind with a short description', () => {
    const cases: [string, string, string][] = [
      ['local', 'local', 'local'],
      ['ssh://ops@db1:22', 'ssh', 'ssh ops@db1:22'],
      ['ssh://db1', 'ssh', 'ssh db1'],
      ['ssh://[::1]:2222', 'ssh', 'ssh [::1]:2222'],
      ['k8s://cassandra/cass-0/cassandra?context=prod', 'kubectl', 'kubectl cassandra/cass-0/cassandra (context prod)'],
      ['docker://cass1?user=cassandra', 'docker', 'docker cass1 (user cassandra)'],
    ];
    for (const [input, kind, describe] of cases) {
      const t = targetFromString(input, {}, 'trusted');
      expect(t.kind).toBe(kind);
      expect(t.describe()).toBe(describe);
    }
    expect(createTarget({ kind: 'local' })).toBeInstanceOf(LocalTarget);
    expect(createTarget(specOf('ssh://db1'))).toBeInstanceOf(SshTarget);
    expect(createTarget(specOf('k8s://a/b'))).toBeInstanceOf(KubectlTarget);
    expect(createTarget(specOf('docker://c'))).toBeInstanceOf(DockerTarget);
  });

  it('validates hand-built specs too', () => {
    expect(() => createTarget({ kind: 'ssh', host: '-oProxyCommand=id' })).toThrow(RemoteTargetError);
    expect(() => createTarget({ kind: 'ssh', host: 'db1', user: 'a b' })).toThrow(/ssh user "a b"/);
    expect(() => createTarget({ kind: 'kubectl', namespace: 'ns', pod: '$(id)' })).toThrow(/kubernetes pod/);
    expect(() => createTarget({ kind: 'docker', container: '--privileged' })).toThrow(/docker container/);
    expect(() => targetFromString('db1')).toThrow(/Accepted forms/);
  });

  it('gives the exact client argv each target runs', () => {
    const ssh = new SshTarget({ host: 'db1', user: 'ops', port: 22 });
    expect(ssh.commandFor(['nodetool', 'status'], { timeoutMs: 60_000 }).argv).toEqual([
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
      'StrictHostKeyChecking=accept-new',
      '-p',
      '22',
      '-l',
      'ops',
      '--',
      'db1',
      "'nodetool' 'status'",
    ]);
    expect(new KubectlTarget({ namespace: 'ns', pod: 'p' }).commandFor(['nodetool', 'status'], {}).argv).toEqual([
      'kubectl',
      '-n',
      'ns',
      'exec',
      'p',
      '--',
      'nodetool',
      'status',
    ]);
    expect(new DockerTarget({ container: 'cass1' }).commandFor(['nodetool', 'status'], { stdin: '' }).argv).toEqual([
      'docker',
      'exec',
      '-i',
      '--',
      'cass1',
      'nodetool',
      'status',
    ]);
  });

  it('throws a RemoteTargetError naming the target when a command cannot be carried', async () => {
    const ssh = new SshTarget({ host: 'db1' });
    await expect(ssh.run(['echo', 'a\0b'], { timeoutMs: 1000 })).rejects.toThrow('ssh db1: argv[1] contains a NUL character');
    await expect(ssh.run(['env'], { timeoutMs: 1000, env: { 'A B': 'x' } })).rejects.toThrow(/^ssh db1: environment variable name "A B"/);
    await expect(new KubectlTarget({ namespace: 'ns', pod: 'p' }).run([], { timeoutMs: 1000 })).rejects.toThrow('kubectl ns/p: the command argv is empty');
  });
});
