/**
 * Remote Targets for real: SshTarget against a throwaway sshd on 127.0.0.1 (skipped with a message when no
 * sshd is installed), and the kubectl/docker clients against a missing binary, an unreachable server, and
 * small fake API servers that record exactly what the clients were asked to run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerTarget } from '../../mcp-server/src/collect/docker-target.js';
import { KubectlTarget } from '../../mcp-server/src/collect/kubectl-target.js';
import { SshTarget, type RemoteTargetOptions } from '../../mcp-server/src/collect/ssh-target.js';
import type { SshConnection } from '../../mcp-server/src/core/remote-argv.js';
import { findSshd, HOSTILE_VALUES, SSHD_MISSING_MESSAGE, startSshd, type TestSshd } from '../helpers/sshd.js';

const SSHD = findSshd();
if (!SSHD) process.stderr.write(`note: ${SSHD_MISSING_MESSAGE}\n`);

function onPath(bin: string): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v "$1"', 'sh', bin], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const HAVE_SSH = onPath('ssh');
const HAVE_KUBECTL = onPath('kubectl');
const HAVE_DOCKER = onPath('docker');
if (!HAVE_KUBECTL) process.stderr.write('note: kubectl is not installed; kubectl client tests are skipped\n');
if (!HAVE_DOCKER) process.stderr.write('note: docker CLI is not installed; docker client tests are skipped\n');

/** A port nothing listens on (taken from the kernel, then released). */
async function closedPort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const addr = srv.address();
  await new Promise<void>((r) => srv.close(() => r()));
  return typeof addr === 'object' && addr ? addr.port : 0;
}

function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Ends a remote command left running after its ssh was killed (same machine here). It may still be starting
 * when the local side gives up, so wait a little for its PID file.
 */
async function reapRemote(pidFile: string): Promise<void> {
  for (let i = 0; i < 30 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
  const pid = existsSync(pidFile) ? Number((await readFile(pidFile, 'utf8')).trim()) : NaN;
  if (Number.isInteger(pid) && pid > 1) killIfAlive(pid);
}

let scratch: string;
let emptyDir: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cql-tuner-remote-'));
  emptyDir = await mkdtemp(join(tmpdir(), 'cql-tuner-emptypath-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  await rm(emptyDir, { recursive: true, force: true });
});

describe.skipIf(!SSHD || !HAVE_SSH)('SshTarget against a real sshd on 127.0.0.1', () => {
  let sshd: TestSshd;
  const target = (over: Partial<SshConnection> = {}, options: RemoteTargetOptions = {}) =>
    new SshTarget(
      // -F /dev/null: the machine's ~/.ssh/config must not change what the test exercises.
      { host: '127.0.0.1', port: sshd.port, user: sshd.user, identityFile: sshd.clientKey, knownHostsFile: sshd.knownHosts, configFile: '/dev/null', ...over },
      options,
    );

  beforeAll(async () => {
    sshd = await startSshd(SSHD as string);
  });
  afterAll(async () => {
    await sshd?.stop();
  });

  it('connects by key on first use (accept-new), quietly, and records the host key', async () => {
    const r = await target().run(['printf', '%s\\n', 'a b', '$(id)', "it's"], { timeoutMs: 20_000 });
    expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, spawnError: r.spawnError }).toEqual({
      exitCode: 0,
      stdout: "a b\n$(id)\nit's\n",
      stderr: '',
      spawnError: undefined,
    });
    expect(r.argv).toEqual(['printf', '%s\\n', 'a b', '$(id)', "it's"]);
    expect(await readFile(sshd.knownHosts, 'utf8')).toContain(sshd.hostPublicKey);
    expect(target().describe()).toBe(`ssh ${sshd.user}@127.0.0.1:${sshd.port}`);
  });

  it('honours an ssh_config: a Host alias alone reaches the node (HostName, Port, User, IdentityFile from the config)', async () => {
    // What ~/.ssh/config does for operators (aliases, bastions); -F points ssh at this one because ssh reads
    // ~/.ssh/config from the passwd home, which a test must not touch.
    const cfg = join(scratch, 'ssh_config');
    await writeFile(
      cfg,
      [
        'Host cql-tuner-alias',
        '  HostName 127.0.0.1',
        `  Port ${sshd.port}`,
        `  User ${sshd.user}`,
        `  IdentityFile ${sshd.clientKey}`,
        '  IdentitiesOnly yes',
        `  UserKnownHostsFile ${sshd.knownHosts}`,
        '',
      ].join('\n'),
    );
    const t = new SshTarget({ host: 'cql-tuner-alias', configFile: cfg });
    const r = await t.run(['printf', '%s', 'via-alias'], { timeoutMs: 20_000 });
    expect({ exitCode: r.exitCode, stdout: r.stdout, spawnError: r.spawnError }).toEqual({ exitCode: 0, stdout: 'via-alias', spawnError: undefined });
    expect(t.describe()).toBe('ssh cql-tuner-alias');
  });

  it(`delivers all ${HOSTILE_VALUES.length} hostile arguments byte for byte`, async () => {
    const r = await target().run(['printf', '%s\\0', ...HOSTILE_VALUES], { timeoutMs: 20_000 });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\0').slice(0, -1)).toEqual([...HOSTILE_VALUES]);
  });

  it('never lets the remote shell run what an argument says', async () => {
    const canary = join(sshd.dir, 'pwned');
    const r = await target().run(['echo', `$(touch ${canary})`, `;touch ${canary}`, `\`touch ${canary}\``, `' ; touch ${canary} ; '`, `\ntouch ${canary}`], {
      timeoutMs: 20_000,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`$(touch ${canary}) ;touch ${canary} \`touch ${canary}\` ' ; touch ${canary} ; ' \ntouch ${canary}\n`);
    expect(existsSync(canary)).toBe(false);
  });

  it('propagates exit codes and keeps stdout and stderr apart', async () => {
    const t = target();
    expect((await t.run(['sh', '-c', 'exit 3'], { timeoutMs: 20_000 })).exitCode).toBe(3);
    expect((await t.run(['false'], { timeoutMs: 20_000 })).exitCode).toBe(1);
    const missing = await t.run(['cql-tuner-no-such-command'], { timeoutMs: 20_000 });
    expect(missing.exitCode).toBe(127);
    expect(missing.spawnError).toBeUndefined();
    const both = await t.run(['sh', '-c', 'echo out; echo err >&2; echo out2'], { timeoutMs: 20_000 });
    expect({ stdout: both.stdout, stderr: both.stderr, exitCode: both.exitCode }).toEqual({ stdout: 'out\nout2\n', stderr: 'err\n', exitCode: 0 });
  });

  it('passes stdin, and env (on stdin, not argv) and cwd through the sh wrapper', async () => {
    const t = target();
    expect((await t.run(['cat'], { timeoutMs: 20_000, stdin: 'line1\nline2 $(id)\n' })).stdout).toBe('line1\nline2 $(id)\n');
    const env = { CQL_TUNER_A: " spaced $(id) \\ 'q' end ", CQL_TUNER_B: '' };
    const argv = ['sh', '-c', 'printf "%s|%s|%s|" "$CQL_TUNER_A" "$CQL_TUNER_B" "$(pwd)"; cat'];
    const opts = { timeoutMs: 20_000, env, cwd: '/tmp', stdin: 'rest of stdin\n' };
    expect(t.commandFor(argv, opts).argv.join('\n')).not.toContain('spaced');
    const r = await t.run(argv, opts);
    expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual({
      stdout: ` spaced $(id) \\ 'q' end ||/tmp|rest of stdin\n`,
      stderr: '',
      exitCode: 0,
    });
    const badDir = await t.run(['true'], { timeoutMs: 20_000, cwd: '/nonexistent-cql-tuner' });
    expect(badDir.exitCode).toBe(125);
    expect(badDir.stderr).toContain('/nonexistent-cql-tuner');
  });

  it('kills the local ssh on timeout (the remote process may linger; the test ends it)', async () => {
    const pidFile = join(sshd.dir, 'sleeper.pid');
    const r = await target().run(['sh', '-c', `echo $$ > ${pidFile}; exec sleep 30`], { timeoutMs: 1_500 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(r.spawnError).toBeUndefined();
    expect(r.ms).toBeLessThan(5_000);
    // Same machine here, so the lingering remote sleep can be stopped by its PID.
    await reapRemote(pidFile);
  });

  it('stops on an AbortSignal', async () => {
    const pidFile = join(sshd.dir, 'cancelled.pid');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 700);
    const r = await target().run(['sh', '-c', `echo $$ > ${pidFile}; exec sleep 30`], { timeoutMs: 20_000, signal: ac.signal });
    expect(r.cancelled).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(r.ms).toBeLessThan(5_000);
    await reapRemote(pidFile);
  });

  it('caps output at maxBytes', async () => {
    const r = await target().run(['head', '-c', '200000', '/dev/zero'], { timeoutMs: 20_000, maxBytes: 1_000 });
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(1_000);
  });

  it('reports a closed port precisely and at once', async () => {
    const port = await closedPort();
    const r = await target({ port }).run(['true'], { timeoutMs: 10_000 });
    expect(r.exitCode).toBe(255);
    expect(r.timedOut).toBe(false);
    expect(r.spawnError).toBe(`ssh to ${sshd.user}@127.0.0.1:${port} failed: ssh: connect to host 127.0.0.1 port ${port}: Connection refused`);
    expect(r.ms).toBeLessThan(3_000);
  });

  it('gives up on a silent server within ConnectTimeout, before the run timeout', async () => {
    const sockets: Socket[] = [];
    const silent: NetServer = createNetServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const addr = silent.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    try {
      const r = await target({ port, connectTimeoutSec: 1 }).run(['true'], { timeoutMs: 15_000 });
      expect(r.exitCode).toBe(255);
      expect(r.timedOut).toBe(false);
      expect(r.spawnError).toMatch(new RegExp(`^ssh to ${sshd.user}@127\\.0\\.0\\.1:${port} failed: .*timed out`, 'i'));
      expect(r.ms).toBeLessThan(6_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('fails an unknown key without prompting (BatchMode)', async () => {
    const r = await target({ identityFile: sshd.strangerKey }).run(['true'], { timeoutMs: 15_000 });
    expect(r.exitCode).toBe(255);
    expect(r.spawnError).toBe(`ssh to ${sshd.user}@127.0.0.1:${sshd.port} failed: ${sshd.user}@127.0.0.1: Permission denied (publickey).`);
    expect(r.ms).toBeLessThan(5_000);
  });

  it('refuses a changed or unknown host key under strict checking', async () => {
    const wrong = join(sshd.dir, 'known_hosts_wrong');
    const strangerPub = (await readFile(`${sshd.strangerKey}.pub`, 'utf8')).trim().split(/\s+/).slice(0, 2).join(' ');
    await writeFile(wrong, `[127.0.0.1]:${sshd.port} ${strangerPub}\n`);
    for (const hostKeyCheck of ['yes', 'accept-new'] as const) {
      const r = await target({ knownHostsFile: wrong, hostKeyCheck }).run(['true'], { timeoutMs: 15_000 });
      expect(r.exitCode, hostKeyCheck).toBe(255);
      expect(r.spawnError, hostKeyCheck).toBe(`ssh to ${sshd.user}@127.0.0.1:${sshd.port} failed: Host key verification failed.`);
    }
    const empty = join(sshd.dir, 'known_hosts_empty');
    await writeFile(empty, '');
    const unknown = await target({ knownHostsFile: empty, hostKeyCheck: 'yes' }).run(['true'], { timeoutMs: 15_000 });
    expect(unknown.spawnError).toBe(`ssh to ${sshd.user}@127.0.0.1:${sshd.port} failed: Host key verification failed.`);
    expect(await readFile(empty, 'utf8')).toBe('');
  });

  it('names ssh and how to install it when the client is missing', async () => {
    const r = await target({}, { clientEnv: { PATH: emptyDir } }).run(['true'], { timeoutMs: 5_000 });
    expect(r.exitCode).toBeNull();
    expect(r.spawnError).toBe(
      'ssh not found: the ssh target runs the OpenSSH client on this machine; install it (Debian/Ubuntu: apt-get install openssh-client; RHEL/Fedora: dnf install openssh-clients) and make sure `ssh` is on PATH',
    );
  });
});

describe('KubectlTarget for real', () => {
  it('names kubectl and how to install it when the client is missing', async () => {
    const t = new KubectlTarget({ namespace: 'ns', pod: 'pod' }, { clientEnv: { PATH: emptyDir } });
    const r = await t.run(['nodetool', 'status'], { timeoutMs: 5_000 });
    expect(r.exitCode).toBeNull();
    expect(r.spawnError).toMatch(
      /^kubectl not found: the kubectl target runs `kubectl exec` on this machine; install kubectl \(https:\/\/kubernetes\.io\/docs\/tasks\/tools\//,
    );
  });

  describe.skipIf(!HAVE_KUBECTL)('with the kubectl client', () => {
    // HOME and the discovery cache point into the scratch dir: the machine's ~/.kube is never touched.
    const clientEnv = () => ({ HOME: scratch, KUBECACHEDIR: join(scratch, 'kubecache') });
    const kubeconfigFor = async (name: string, server: string) => {
      const file = join(scratch, name);
      await writeFile(
        file,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters:',
          '- name: c',
          '  cluster:',
          `    server: ${server}`,
          'contexts:',
          '- name: test',
          '  context: {cluster: c, user: u}',
          'current-context: test',
          'users:',
          '- name: u',
          '  user: {}',
          '',
        ].join('\n'),
      );
      return file;
    };

    it('reports an unreachable API server precisely', async () => {
      const port = await closedPort();
      const kubeconfig = await kubeconfigFor('kubeconfig-closed', `http://127.0.0.1:${port}`);
      const r = await new KubectlTarget({ namespace: 'ns', pod: 'pod', kubeconfig }, { clientEnv: clientEnv() }).run(['true'], { timeoutMs: 30_000 });
      expect(r.exitCode).toBe(1);
      expect(r.spawnError).toBe(
        `kubectl exec on ns/pod failed: The connection to the server 127.0.0.1:${port} was refused - did you specify the right host or port?`,
      );
    });

    it('reports an unknown context precisely', async () => {
      const kubeconfig = await kubeconfigFor('kubeconfig-ctx', 'http://127.0.0.1:1');
      const r = await new KubectlTarget({ namespace: 'ns', pod: 'pod', kubeconfig, context: 'nope' }, { clientEnv: clientEnv() }).run(['true'], {
        timeoutMs: 30_000,
      });
      expect(r.spawnError).toBe('kubectl exec on ns/pod (context nope) failed: error: context "nope" does not exist');
    });

    describe('against a fake API server that records exec requests', () => {
      let server: HttpServer;
      let kubeconfig: string;
      const execs: URL[] = [];
      beforeAll(async () => {
        server = createHttpServer((req, res) => {
          const url = new URL(req.url ?? '/', 'http://fake');
          const json = (code: number, body: object) => {
            res.writeHead(code, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify(body));
          };
          if (url.pathname === '/version') return json(200, { major: '1', minor: '32', gitVersion: 'v1.32.0' });
          if (url.pathname === '/api') return json(200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] });
          if (url.pathname === '/apis') return json(200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
          if (url.pathname === '/api/v1') {
            return json(200, {
              kind: 'APIResourceList',
              groupVersion: 'v1',
              resources: [
                { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list'] },
                { name: 'pods/exec', singularName: '', namespaced: true, kind: 'PodExecOptions', verbs: ['create', 'get'] },
              ],
            });
          }
          if (url.pathname === '/api/v1/namespaces/cassandra/pods/cass-0') {
            return json(200, {
              kind: 'Pod',
              apiVersion: 'v1',
              metadata: { name: 'cass-0', namespace: 'cassandra' },
              spec: { containers: [{ name: 'cassandra', image: 'cassandra' }] },
              status: { phase: 'Running' },
            });
          }
          if (url.pathname === '/api/v1/namespaces/cassandra/pods/cass-0/exec') execs.push(url);
          return json(403, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'fake: exec refused', reason: 'Forbidden', code: 403 });
        });
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        const addr = server.address();
        kubeconfig = await kubeconfigFor('kubeconfig-fake', `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
      });
      afterAll(async () => {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      });

      it('hands every hostile argument to the API server as one command element each', async () => {
        execs.length = 0;
        const argv = ['printf', '%s', ...HOSTILE_VALUES.filter((v) => v.length < 1000)];
        const t = new KubectlTarget({ namespace: 'cassandra', pod: 'cass-0', container: 'cassandra', kubeconfig }, { clientEnv: clientEnv() });
        const r = await t.run(argv, { timeoutMs: 30_000 });
        expect(r.spawnError).toBe('kubectl exec on cassandra/cass-0/cassandra failed: Error from server (Forbidden): fake: exec refused');
        expect(execs.length).toBeGreaterThan(0);
        for (const u of execs) {
          expect(u.searchParams.getAll('command')).toEqual(argv);
          expect(u.searchParams.get('container')).toBe('cassandra');
        }
      });

      it('sends env names in the command and values on stdin only', async () => {
        execs.length = 0;
        const t = new KubectlTarget({ namespace: 'cassandra', pod: 'cass-0', kubeconfig }, { clientEnv: clientEnv() });
        await t.run(['nodetool', 'info'], { timeoutMs: 30_000, env: { JMX_PASSWORD: 'hunter2' } });
        expect(execs.length).toBeGreaterThan(0);
        for (const u of execs) {
          expect(u.searchParams.getAll('command').slice(0, 2)).toEqual(['sh', '-c']);
          expect(u.searchParams.getAll('command').slice(-4)).toEqual(['JMX_PASSWORD', '--', 'nodetool', 'info']);
          expect(u.searchParams.get('stdin')).toBe('true');
          expect(u.href).not.toContain('hunter2');
        }
      });
    });
  });
});

describe('DockerTarget for real', () => {
  it('names docker and how to install it when the client is missing', async () => {
    const r = await new DockerTarget({ container: 'cass1' }, { clientEnv: { PATH: emptyDir } }).run(['nodetool', 'status'], { timeoutMs: 5_000 });
    expect(r.exitCode).toBeNull();
    expect(r.spawnError).toBe(
      "docker not found: the docker target runs `docker exec` on this machine; install the Docker CLI (Debian/Ubuntu: apt-get install docker.io, or docker-ce-cli from Docker's repository) and make sure `docker` is on PATH",
    );
  });

  describe.skipIf(!HAVE_DOCKER)('with the docker client', () => {
    const clientEnv = (sock: string) => ({ DOCKER_HOST: `unix://${sock}`, DOCKER_CONFIG: join(scratch, 'docker-config'), HOME: scratch });

    it('surfaces "Cannot connect to the Docker daemon" precisely', async () => {
      const sock = join(scratch, 'no-such-docker.sock');
      const r = await new DockerTarget({ container: 'cass1' }, { clientEnv: clientEnv(sock) }).run(['nodetool', 'status'], { timeoutMs: 20_000 });
      expect(r.exitCode).toBe(1);
      const message = `Cannot connect to the Docker daemon at unix://${sock}. Is the docker daemon running?`;
      expect(r.stderr).toContain(message);
      expect(r.spawnError).toBe(`docker exec on cass1 failed: ${message}`);
    });

    describe('against a fake engine that records exec requests', () => {
      let server: HttpServer;
      let sock: string;
      const creates: { url: string; body: { Cmd?: string[]; Env?: string[]; User?: string; WorkingDir?: string; AttachStdin?: boolean } }[] = [];
      beforeAll(async () => {
        sock = join(scratch, 'fake-docker.sock');
        server = createHttpServer((req, res) => {
          let body = '';
          req.setEncoding('utf8');
          req.on('data', (d: string) => {
            body += d;
          });
          req.on('end', () => {
            const path = new URL(req.url ?? '/', 'http://fake').pathname;
            const json = (code: number, o: object) => {
              res.writeHead(code, { 'Content-Type': 'application/json', 'Api-Version': '1.45' });
              res.end(JSON.stringify(o));
            };
            if (path.endsWith('/_ping')) {
              res.writeHead(200, { 'Content-Type': 'text/plain', 'Api-Version': '1.45' });
              res.end('OK');
              return;
            }
            if (/\/containers\/cass1\/json$/.test(path))
              return json(200, { Id: 'c0ffee', Name: '/cass1', State: { Running: true, Status: 'running' }, Config: { Tty: false } });
            if (/\/containers\/cass1\/exec$/.test(path)) creates.push({ url: path, body: JSON.parse(body) as (typeof creates)[number]['body'] });
            json(409, { message: 'fake engine: exec refused' });
          });
        });
        await new Promise<void>((r) => server.listen(sock, r));
      });
      afterAll(async () => {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      });

      it('hands argv, user, workdir and env to the engine exactly, with env values kept out of argv', async () => {
        const argv = ['printf', '%s', ...HOSTILE_VALUES];
        const t = new DockerTarget({ container: 'cass1', user: 'cassandra' }, { clientEnv: clientEnv(sock) });
        const opts = { timeoutMs: 20_000, env: { JMX_PASSWORD: 'hunter2 $(id)' }, cwd: '/var/lib/cassandra' };
        expect(t.commandFor(argv, opts).argv.join('\n')).not.toContain('hunter2');
        const r = await t.run(argv, opts);
        expect(r.spawnError).toBe('docker exec on cass1 (user cassandra) failed: Error response from daemon: fake engine: exec refused');
        expect(creates).toHaveLength(1);
        expect(creates[0]?.body).toMatchObject({
          Cmd: argv,
          Env: ['JMX_PASSWORD=hunter2 $(id)'],
          User: 'cassandra',
          WorkingDir: '/var/lib/cassandra',
          AttachStdin: false,
        });
      });
    });
  });
});
