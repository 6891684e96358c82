import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildDockerCommand,
  buildKubectlCommand,
  buildSshCommand,
  checkCommandArgv,
  checkDockerContainer,
  checkDockerUser,
  checkK8sName,
  checkKubeContext,
  checkSshHost,
  checkSshUser,
  ENV_WRAPPER_SCRIPT,
  explainClientFailure,
  MAX_REMOTE_COMMAND_BYTES,
  shJoin,
  shQuote,
  sshConnectTimeoutSec,
  type BuiltCommand,
} from '../../mcp-server/src/core/remote-argv.js';
import { HOSTILE_VALUES } from '../helpers/sshd.js';

const SSH_PREFIX = [
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
];

/** The expected quoting, written independently of shQuote: character by character. */
function quoteByHand(v: string): string {
  let out = "'";
  for (const ch of v) out += ch === "'" ? "'\\''" : ch;
  return `${out}'`;
}

function argvOf(b: BuiltCommand): string[] {
  if (!b.ok) throw new Error(`expected ok, got: ${b.reason}`);
  return b.argv;
}

function reasonOf(b: BuiltCommand): string {
  if (b.ok) throw new Error(`expected a refusal, got argv ${JSON.stringify(b.argv).slice(0, 200)}`);
  return b.reason;
}

/** Splits a command line with a real POSIX shell and returns the words it saw. */
function splitWithShell(shell: string, line: string): string[] {
  const out = execFileSync(shell, ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const words = out.split('\0');
  words.pop();
  return words;
}

describe('hostile corpus', () => {
  it('holds at least 50 values', () => {
    expect(HOSTILE_VALUES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(HOSTILE_VALUES).size).toBe(HOSTILE_VALUES.length);
  });
});

describe('shQuote', () => {
  it.each([
    ['', "''"],
    ['abc', "'abc'"],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ["'", "''\\'''"],
    ["''", "''\\'''\\'''"],
    ['$(id)', "'$(id)'"],
    ['`id`', "'`id`'"],
    ['a\nb', "'a\nb'"],
    ['\\', "'\\'"],
    ['"', `'"'`],
    ['日本語', "'日本語'"],
    ['-oProxyCommand=id', "'-oProxyCommand=id'"],
    ['*', "'*'"],
  ])('quotes %j as %s', (input, expected) => {
    expect(shQuote(input)).toBe(expected);
  });

  it('matches the hand-written quoting on every hostile value', () => {
    for (const v of HOSTILE_VALUES) expect(shQuote(v), JSON.stringify(v).slice(0, 40)).toBe(quoteByHand(v));
  });

  for (const shell of ['/bin/sh', '/bin/dash', '/bin/bash']) {
    it.skipIf(!existsSync(shell))(`round-trips every hostile value through ${shell} unchanged`, () => {
      expect(splitWithShell(shell, shJoin(HOSTILE_VALUES))).toEqual([...HOSTILE_VALUES]);
      // One at a time too, so a failure names the value.
      for (const v of HOSTILE_VALUES.slice(0, 20)) expect(splitWithShell(shell, shJoin([v])), JSON.stringify(v)).toEqual([v]);
    });
  }
});

describe('checkCommandArgv', () => {
  it('refuses what no process argument can carry', () => {
    expect(checkCommandArgv([])).toEqual({ ok: false, reason: 'the command argv is empty' });
    expect(checkCommandArgv(['echo', 'a\0b'])).toEqual({ ok: false, reason: 'argv[1] contains a NUL character, which no process argument can carry' });
    expect(checkCommandArgv(['\uD800'])).toEqual({ ok: false, reason: 'argv[0] contains a lone UTF-16 surrogate, which has no UTF-8 form' });
    expect(checkCommandArgv(['ok', 'x\uDFFF'])).toMatchObject({ ok: false });
    expect(checkCommandArgv(['🔥', ''])).toEqual({ ok: true });
  });
});

describe('validators refuse every hostile value where a name is expected', () => {
  const fields: [string, (v: string) => { ok: boolean }][] = [
    ['ssh host', checkSshHost],
    ['ssh user', checkSshUser],
    ['docker container', checkDockerContainer],
    ['kubernetes namespace', (v) => checkK8sName('namespace', v)],
    ['kubernetes pod', (v) => checkK8sName('pod', v)],
    ['kubernetes container', (v) => checkK8sName('container', v)],
  ];
  for (const [name, check] of fields) {
    it(`${name}: all ${HOSTILE_VALUES.length} refused with a message`, () => {
      for (const v of HOSTILE_VALUES) {
        const r = check(v);
        expect(r.ok, `${name} accepted ${JSON.stringify(v).slice(0, 60)}`).toBe(false);
        if (!r.ok && 'reason' in r) expect(String(r.reason)).toMatch(new RegExp(name.split(' ').pop() ?? ''));
      }
    });
  }

  it('kube context: refused, or accepted only when it cannot be read as an option or split', () => {
    const accepted = HOSTILE_VALUES.filter((v) => checkKubeContext(v).ok);
    expect(accepted.sort()).toEqual(['.', '../../etc/passwd', ':', 'a=b', 'db1:22', 'ssh://db1', 'user@db1', '~', '~root'].sort());
    for (const v of accepted) {
      const argv = argvOf(buildKubectlCommand({ namespace: 'ns', pod: 'p', context: v }, { argv: ['true'] }));
      expect(argv).toEqual(['kubectl', '--context', v, '-n', 'ns', 'exec', 'p', '--', 'true']);
    }
    const r = checkKubeContext('-oProxyCommand=id');
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.reason).toContain('not starting with "-"');
  });

  it('docker user: refused, except user:group, which docker takes as one -u value', () => {
    expect(HOSTILE_VALUES.filter((v) => checkDockerUser(v).ok)).toEqual(['db1:22']);
    expect(argvOf(buildDockerCommand({ container: 'c', user: 'db1:22' }, { argv: ['true'] }))).toEqual(['docker', 'exec', '-u', 'db1:22', '--', 'c', 'true']);
  });

  it('accepts ordinary names', () => {
    for (const h of ['db1', 'db-1.example.internal', '127.0.0.1', '::1', 'fe80::1', 'prod_cassandra_1', 'DB1']) expect(checkSshHost(h).ok, h).toBe(true);
    for (const u of ['ops', 'root', 'first.last', 'svc-cassandra', '_x']) expect(checkSshUser(u).ok, u).toBe(true);
    for (const c of ['cass1', 'cassandra_1', 'a.b-c', 'f'.repeat(64)]) expect(checkDockerContainer(c).ok, c).toBe(true);
    for (const u of ['cassandra', '999', '999:999', 'cassandra:cassandra']) expect(checkDockerUser(u).ok, u).toBe(true);
    for (const n of ['default', 'cassandra', 'k8ssandra-operator']) expect(checkK8sName('namespace', n).ok, n).toBe(true);
    for (const p of ['cass-0', 'dc1-rack1-sts-0', 'a.b.c']) expect(checkK8sName('pod', p).ok, p).toBe(true);
    for (const c of ['prod', 'arn:aws:eks:us-east-1:123456789012:cluster/prod', 'gke_proj_europe-west1_prod', 'admin@kind-kind'])
      expect(checkKubeContext(c).ok, c).toBe(true);
    // Kubernetes names are lower case: the API server refuses others, so we do too.
    expect(checkK8sName('pod', 'Cass-0').ok).toBe(false);
    expect(checkK8sName('namespace', 'a.b').ok).toBe(false);
    expect(checkK8sName('namespace', 'a'.repeat(64)).ok).toBe(false);
  });
});

describe('buildSshCommand', () => {
  it('builds the minimal argv', () => {
    const b = buildSshCommand({ host: 'db1' }, { argv: ['nodetool', 'status'] }, 10);
    expect(b).toEqual({ ok: true, argv: [...SSH_PREFIX, '--', 'db1', "'nodetool' 'status'"], stdinPrefix: '', clientEnv: {} });
  });

  it('places every option before "--" and the host after it', () => {
    const argv = argvOf(
      buildSshCommand(
        {
          host: 'db1.example.com',
          user: 'ops',
          port: 2222,
          identityFile: '/home/ops/.ssh/id_ed25519',
          configFile: '/etc/cql-tuner/ssh_config',
          knownHostsFile: '/tmp/kh',
          hostKeyCheck: 'yes',
        },
        { argv: ['nodetool', 'info'] },
        7,
      ),
    );
    expect(argv).toEqual([
      'ssh',
      '-T',
      '-o',
      'BatchMode=yes',
      '-o',
      'ConnectTimeout=7',
      '-o',
      'LogLevel=ERROR',
      '-o',
      'ClearAllForwardings=yes',
      '-o',
      'StrictHostKeyChecking=yes',
      '-o',
      'UserKnownHostsFile=/tmp/kh',
      '-F',
      '/etc/cql-tuner/ssh_config',
      '-p',
      '2222',
      '-i',
      '/home/ops/.ssh/id_ed25519',
      '-o',
      'IdentitiesOnly=yes',
      '-l',
      'ops',
      '--',
      'db1.example.com',
      "'nodetool' 'info'",
    ]);
  });

  it('leaves host key checking to ssh_config when asked, and takes IPv6 literals', () => {
    const argv = argvOf(buildSshCommand({ host: '::1', hostKeyCheck: 'config' }, { argv: ['true'] }, 10));
    expect(argv).toEqual([
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
      '--',
      '::1',
      "'true'",
    ]);
  });

  it('quotes each hostile argument literally as one word of the remote command', () => {
    for (const v of HOSTILE_VALUES) {
      const argv = argvOf(buildSshCommand({ host: 'db1' }, { argv: ['printf', '%s\\n', v] }, 10));
      expect(argv).toEqual([...SSH_PREFIX, '--', 'db1', `'printf' '%s\\n' ${quoteByHand(v)}`]);
    }
  });

  it('refuses hostile hosts, users and paths with a message naming the field', () => {
    for (const v of HOSTILE_VALUES) {
      expect(reasonOf(buildSshCommand({ host: v }, { argv: ['true'] }, 10))).toMatch(/^ssh host /);
      expect(reasonOf(buildSshCommand({ host: 'db1', user: v }, { argv: ['true'] }, 10))).toMatch(/^ssh user /);
      expect(reasonOf(buildSshCommand({ host: 'db1', identityFile: v }, { argv: ['true'] }, 10))).toMatch(/^ssh identity file /);
    }
    expect(reasonOf(buildSshCommand({ host: 'db1', identityFile: '/home/a b/key' }, { argv: ['true'] }, 10))).toContain('no spaces');
    expect(reasonOf(buildSshCommand({ host: 'db1', knownHostsFile: '/tmp/%h' }, { argv: ['true'] }, 10))).toContain('no %');
    expect(reasonOf(buildSshCommand({ host: 'db1', configFile: 'relative/config' }, { argv: ['true'] }, 10))).toContain('absolute path');
    for (const port of [0, -1, 65536, 1.5, Number.NaN]) expect(reasonOf(buildSshCommand({ host: 'db1', port }, { argv: ['true'] }, 10))).toMatch(/^ssh port /);
  });

  it('refuses NUL, lone surrogates and an empty command', () => {
    expect(reasonOf(buildSshCommand({ host: 'db1' }, { argv: [] }, 10))).toBe('the command argv is empty');
    expect(reasonOf(buildSshCommand({ host: 'db1' }, { argv: ['echo', 'a\0b'] }, 10))).toContain('NUL');
    expect(reasonOf(buildSshCommand({ host: 'db1' }, { argv: ['echo', '\uDC00'] }, 10))).toContain('surrogate');
  });

  it('takes 10 kB arguments and refuses a command longer than one exec argument', () => {
    const ten = 'x'.repeat(10_240);
    expect(argvOf(buildSshCommand({ host: 'db1' }, { argv: ['echo', ten] }, 10)).at(-1)).toBe(`'echo' '${ten}'`);
    const big = 'y'.repeat(MAX_REMOTE_COMMAND_BYTES);
    expect(reasonOf(buildSshCommand({ host: 'db1' }, { argv: ['echo', big] }, 10))).toMatch(
      /^the remote command is 131080 bytes once quoted; one exec argument holds at most 131071 bytes/,
    );
    // Bytes, not UTF-16 units: 3-byte characters count three times.
    expect(buildSshCommand({ host: 'db1' }, { argv: ['日'.repeat(44_000)] }, 10).ok).toBe(false);
  });

  it('sends env values on stdin to an sh wrapper, never in argv', () => {
    const b = buildSshCommand({ host: 'db1' }, { argv: ['nodetool', 'status'], env: { JMX_PASS: 's3cr3t $(id)', B: '' } }, 10);
    if (!b.ok) throw new Error(b.reason);
    expect(b.argv).toEqual([
      ...SSH_PREFIX,
      '--',
      'db1',
      shJoin(['sh', '-c', ENV_WRAPPER_SCRIPT, 'cql-tuner', '', 'JMX_PASS', 'B', '--', 'nodetool', 'status']),
    ]);
    expect(b.argv.join(' ')).not.toContain('s3cr3t');
    expect(b.stdinPrefix).toBe('s3cr3t $(id)\n\n');
    expect(b.clientEnv).toEqual({});
  });

  it('wraps for a cwd alone, and an empty env needs no wrapper', () => {
    expect(argvOf(buildSshCommand({ host: 'db1' }, { argv: ['ls'], cwd: '/var/lib/cassandra' }, 10)).at(-1)).toBe(
      shJoin(['sh', '-c', ENV_WRAPPER_SCRIPT, 'cql-tuner', '/var/lib/cassandra', '--', 'ls']),
    );
    expect(buildSshCommand({ host: 'db1' }, { argv: ['ls'], env: {} }, 10)).toEqual({
      ok: true,
      argv: [...SSH_PREFIX, '--', 'db1', "'ls'"],
      stdinPrefix: '',
      clientEnv: {},
    });
  });

  it('refuses env it cannot carry safely', () => {
    expect(reasonOf(buildSshCommand({ host: 'db1' }, { argv: ['ls'], env: { A: 'x\ny' } }, 10))).toContain('line break');
    expect(reasonOf(buildSshCommand({ host: 'db1' }, { argv: ['ls'], env: { A: 'x\ry' } }, 10))).toContain('line break');
    for (const name of ['1A', 'A-B', 'A B', '', '--', 'A=B', '$(id)']) {
      expect(reasonOf(buildSshCommand({ host: 'db1' }, { argv: ['ls'], env: { [name]: 'v' } }, 10))).toContain('environment variable name');
    }
  });
});

describe('sshConnectTimeoutSec', () => {
  it('stays under the run timeout so ssh reports a slow host before it is killed', () => {
    expect(sshConnectTimeoutSec(60_000)).toBe(10);
    expect(sshConnectTimeoutSec(60_000, 30)).toBe(30);
    expect(sshConnectTimeoutSec(5_000)).toBe(4);
    expect(sshConnectTimeoutSec(1_000)).toBe(1);
    expect(sshConnectTimeoutSec(100)).toBe(1);
  });
});

describe('buildKubectlCommand', () => {
  it('passes argv after "--" untouched, no shell', () => {
    for (const v of HOSTILE_VALUES) {
      expect(argvOf(buildKubectlCommand({ namespace: 'cassandra', pod: 'cass-0' }, { argv: ['printf', '%s', v] }))).toEqual([
        'kubectl',
        '-n',
        'cassandra',
        'exec',
        'cass-0',
        '--',
        'printf',
        '%s',
        v,
      ]);
    }
  });

  it('adds kubeconfig, context, container and -i for stdin', () => {
    expect(
      argvOf(
        buildKubectlCommand(
          { namespace: 'cassandra', pod: 'cass-0', container: 'cassandra', context: 'arn:aws:eks:eu-west-1:1:cluster/prod', kubeconfig: '/etc/kube/config' },
          { argv: ['nodetool', 'status'], hasStdin: true },
        ),
      ),
    ).toEqual([
      'kubectl',
      '--kubeconfig',
      '/etc/kube/config',
      '--context',
      'arn:aws:eks:eu-west-1:1:cluster/prod',
      '-n',
      'cassandra',
      'exec',
      '-i',
      'cass-0',
      '-c',
      'cassandra',
      '--',
      'nodetool',
      'status',
    ]);
  });

  it('carries env through an sh wrapper and stdin', () => {
    const b = buildKubectlCommand({ namespace: 'ns', pod: 'p' }, { argv: ['nodetool', 'info'], env: { PW: 'hunter2' }, cwd: '/opt' });
    if (!b.ok) throw new Error(b.reason);
    expect(b.argv).toEqual([
      'kubectl',
      '-n',
      'ns',
      'exec',
      '-i',
      'p',
      '--',
      'sh',
      '-c',
      ENV_WRAPPER_SCRIPT,
      'cql-tuner',
      '/opt',
      'PW',
      '--',
      'nodetool',
      'info',
    ]);
    expect(b.argv).not.toContain('hunter2');
    expect(b.stdinPrefix).toBe('hunter2\n');
  });

  it('refuses hostile names with a message naming the field', () => {
    for (const v of HOSTILE_VALUES) {
      expect(reasonOf(buildKubectlCommand({ namespace: v, pod: 'p' }, { argv: ['true'] }))).toMatch(/^kubernetes namespace /);
      expect(reasonOf(buildKubectlCommand({ namespace: 'ns', pod: v }, { argv: ['true'] }))).toMatch(/^kubernetes pod /);
      expect(reasonOf(buildKubectlCommand({ namespace: 'ns', pod: 'p', container: v }, { argv: ['true'] }))).toMatch(/^kubernetes container /);
    }
    expect(reasonOf(buildKubectlCommand({ namespace: 'ns', pod: 'p', context: '-oProxyCommand=id' }, { argv: ['true'] }))).toMatch(/^kubectl context /);
    expect(reasonOf(buildKubectlCommand({ namespace: 'ns', pod: 'p', context: 'a b' }, { argv: ['true'] }))).toMatch(/^kubectl context /);
    expect(reasonOf(buildKubectlCommand({ namespace: 'ns', pod: 'p', kubeconfig: '-x' }, { argv: ['true'] }))).toMatch(/^kubeconfig /);
    expect(reasonOf(buildKubectlCommand({ namespace: 'ns', pod: 'p' }, { argv: ['a\0'] }))).toContain('NUL');
  });
});

describe('buildDockerCommand', () => {
  it('puts "--" before the container and passes argv untouched', () => {
    for (const v of HOSTILE_VALUES) {
      expect(argvOf(buildDockerCommand({ container: 'cass1' }, { argv: ['printf', '%s', v] }))).toEqual(['docker', 'exec', '--', 'cass1', 'printf', '%s', v]);
    }
  });

  it('maps user, cwd, stdin and env names; env values go to the client environment', () => {
    const b = buildDockerCommand(
      { container: 'cass1', user: 'cassandra' },
      { argv: ['nodetool', 'status'], env: { PW: 'hunter2', B: 'x\ny' }, cwd: '/opt', hasStdin: true },
    );
    expect(b).toEqual({
      ok: true,
      argv: ['docker', 'exec', '-i', '-u', 'cassandra', '-w', '/opt', '-e', 'PW', '-e', 'B', '--', 'cass1', 'nodetool', 'status'],
      stdinPrefix: '',
      clientEnv: { PW: 'hunter2', B: 'x\ny' },
    });
  });

  it('refuses hostile names, relative cwd and NUL env values', () => {
    for (const v of HOSTILE_VALUES) {
      expect(reasonOf(buildDockerCommand({ container: v }, { argv: ['true'] }))).toMatch(/^docker container /);
      if (v !== 'db1:22') expect(reasonOf(buildDockerCommand({ container: 'c', user: v }, { argv: ['true'] }))).toMatch(/^docker user /);
    }
    expect(reasonOf(buildDockerCommand({ container: 'c' }, { argv: ['true'], cwd: 'rel' }))).toContain('absolute');
    expect(reasonOf(buildDockerCommand({ container: 'c' }, { argv: ['true'], env: { A: 'a\0' } }))).toContain('NUL');
  });
});

describe('explainClientFailure', () => {
  const base = { exitCode: 1, stderr: '', timedOut: false, cancelled: false };

  it('names the missing binary and how to install it', () => {
    for (const kind of ['ssh', 'kubectl', 'docker'] as const) {
      const msg = explainClientFailure(kind, 'x', { ...base, exitCode: null, spawnError: `ENOENT: Command failed with ENOENT: ${kind} …` });
      expect(msg).toMatch(new RegExp(`^${kind} not found: the ${kind} target runs .*install`));
    }
  });

  it('reads ssh exit 255 as a connection failure, other codes as the command’s', () => {
    expect(explainClientFailure('ssh', 'ops@db1:22', { ...base, exitCode: 255, stderr: 'ssh: connect to host db1 port 22: Connection refused\r\n' })).toBe(
      'ssh to ops@db1:22 failed: ssh: connect to host db1 port 22: Connection refused',
    );
    expect(explainClientFailure('ssh', 'db1', { ...base, exitCode: 255 })).toMatch(/^ssh to db1 failed: exit 255 without a message/);
    expect(explainClientFailure('ssh', 'db1', { ...base, exitCode: 1, stderr: 'boom' })).toBeUndefined();
    expect(explainClientFailure('ssh', 'db1', { ...base, exitCode: null, timedOut: true })).toBeUndefined();
  });

  it('skips klog noise for kubectl and leaves the remote command’s failures alone', () => {
    const stderr =
      'E1121 22:08:00.434424   15669 memcache.go:265] "Unhandled Error" err="couldn\'t get current server API group list"\n' +
      'The connection to the server localhost:8080 was refused - did you specify the right host or port?\n';
    expect(explainClientFailure('kubectl', 'ns/p', { ...base, stderr })).toBe(
      'kubectl exec on ns/p failed: The connection to the server localhost:8080 was refused - did you specify the right host or port?',
    );
    expect(explainClientFailure('kubectl', 'ns/p', { ...base, exitCode: 2, stderr: 'error: oops\ncommand terminated with exit code 2\n' })).toBeUndefined();
  });

  it('recognises the docker client’s own errors only', () => {
    expect(
      explainClientFailure('docker', 'cass1', {
        ...base,
        stderr: 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n',
      }),
    ).toBe('docker exec on cass1 failed: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?');
    expect(explainClientFailure('docker', 'cass1', { ...base, stderr: 'Error response from daemon: No such container: cass1\n' })).toBe(
      'docker exec on cass1 failed: Error response from daemon: No such container: cass1',
    );
    expect(explainClientFailure('docker', 'cass1', { ...base, stderr: 'grep: x: No such file\n' })).toBeUndefined();
  });
});
