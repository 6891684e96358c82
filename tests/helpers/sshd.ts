/**
 * A throwaway OpenSSH server for integration tests: foreground sshd on a free 127.0.0.1 port, its own host
 * key, a client key allowed in by public key only, everything in one temp dir. It never installs anything:
 * without an sshd binary the tests skip with a message (CI installs Debian's openssh-server).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { freeLoopbackPort } from './free-port.js';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';

const SSHD_CANDIDATES = ['/usr/sbin/sshd', '/usr/local/sbin/sshd', '/usr/bin/sshd', '/sbin/sshd'];

/** Absolute path of sshd (sshd refuses to run from a relative path), or null. */
export function findSshd(): string | null {
  const fromPath = (process.env['PATH'] ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, 'sshd'));
  for (const p of [...SSHD_CANDIDATES, ...fromPath]) if (p.startsWith('/') && existsSync(p)) return p;
  return null;
}

export function findSshKeygen(): string | null {
  for (const d of ['/usr/bin', '/usr/local/bin', ...(process.env['PATH'] ?? '').split(delimiter)]) {
    const p = join(d, 'ssh-keygen');
    if (d.startsWith('/') && existsSync(p)) return p;
  }
  return null;
}

export const SSHD_MISSING_MESSAGE =
  'sshd not found (looked in /usr/sbin, /usr/local/sbin, /usr/bin, /sbin and PATH): SSH integration tests are skipped. ' +
  'Install it with: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends openssh-server openssh-client';

export interface TestSshd {
  dir: string;
  port: number;
  user: string;
  /** Private key that the server accepts. */
  clientKey: string;
  /** A valid key the server does not know (authentication failure tests). */
  strangerKey: string;
  /** Throwaway known_hosts the client writes to, so ~/.ssh is never touched. */
  knownHosts: string;
  /** The server's host public key line ("ssh-ed25519 AAAA…"). */
  hostPublicKey: string;
  pid: number;
  /** sshd's own log (-e sends it to stderr). */
  log(): string;
  stop(): Promise<void>;
}

function keygen(bin: string, file: string, comment: string): void {
  execFileSync(bin, ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
}

function waitForListening(child: ChildProcess, log: () => string, port: number, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => finish(new Error(`sshd did not report listening on port ${port} within ${ms} ms; log:\n${log()}`)), ms);
    const onData = () => {
      if (log().includes(`Server listening on 127.0.0.1 port ${port}`)) finish();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      finish(new Error(`sshd exited (code ${String(code)}, signal ${String(signal)}) before listening; log:\n${log()}`));
    function finish(err?: Error) {
      clearTimeout(deadline);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    }
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    onData();
  });
}

/** Starts sshd; retries with a new port if another process took the one picked (a small race). */
export async function startSshd(sshdPath: string): Promise<TestSshd> {
  const keygenBin = findSshKeygen();
  if (!keygenBin) throw new Error('ssh-keygen not found: install openssh-client');
  const dir = await mkdtemp(join(tmpdir(), 'cql-tuner-sshd-'));
  const user = userInfo().username;
  // Running as root, sshd wants its privilege-separation directory (the Debian service creates it at boot).
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  const hostKey = join(dir, 'host_ed25519');
  const clientKey = join(dir, 'client_ed25519');
  const strangerKey = join(dir, 'stranger_ed25519');
  keygen(keygenBin, hostKey, 'cql-tuner-test-host');
  keygen(keygenBin, clientKey, 'cql-tuner-test-client');
  keygen(keygenBin, strangerKey, 'cql-tuner-test-stranger');
  await writeFile(join(dir, 'authorized_keys'), await readFile(`${clientKey}.pub`, 'utf8'), { mode: 0o600 });
  const knownHosts = join(dir, 'known_hosts');
  await writeFile(knownHosts, '', { mode: 0o600 });
  const hostPublicKey = (await readFile(`${hostKey}.pub`, 'utf8')).trim().split(/\s+/).slice(0, 2).join(' ');

  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freeLoopbackPort();
    const config = join(dir, 'sshd_config');
    await writeFile(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${hostKey}`,
        `PidFile ${join(dir, 'sshd.pid')}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        // Temp dirs are not owned/moded the way StrictModes wants; PAM would need a service config.
        'StrictModes no',
        'UsePAM no',
        'PermitRootLogin prohibit-password',
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'AuthenticationMethods publickey',
        `AllowUsers ${user}`,
        'PrintMotd no',
        'PrintLastLog no',
        'X11Forwarding no',
        'AllowTcpForwarding no',
        'LogLevel INFO',
        '',
      ].join('\n'),
    );
    const child = spawn(sshdPath, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let logText = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => {
      logText += d;
    });
    const log = () => logText;
    try {
      await waitForListening(child, log, port, 10_000);
    } catch (e) {
      lastError = e;
      if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
      continue;
    }
    const pid = child.pid;
    if (pid === undefined) throw new Error('sshd started without a pid');
    return {
      dir,
      port,
      user,
      clientKey,
      strangerKey,
      knownHosts,
      hostPublicKey,
      pid,
      log,
      async stop() {
        // Stop the listener by its PID; per-connection sshd children end with their connections.
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise<void>((r) => child.once('exit', () => r()));
          process.kill(pid, 'SIGTERM');
          const timer = setTimeout(() => {
            if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
          }, 3000);
          await exited;
          clearTimeout(timer);
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

/**
 * Hostile values shared by the remote-argv unit tests and the SSH round trip: each must be refused where a
 * name is expected, and must arrive byte for byte when it is a command argument.
 */
export const HOSTILE_VALUES: readonly string[] = [
  '127.0.0.1;id',
  '$(id)',
  '`id`',
  '-oProxyCommand=id',
  '-oProxyCommand=sh -c "touch /tmp/cql-tuner-pwned"',
  '--',
  '-',
  '-h',
  '--help',
  '-e',
  '',
  ' ',
  'db1 ',
  ' db1',
  'db1\n',
  'db1\nid',
  'db1\r\nid',
  'db1\tid',
  '\x1b[31mred',
  'ｌocalhost', // fullwidth l
  'db1.еxample.com', // Cyrillic е
  'db1\u200b', // zero-width space
  'db1\u00a0', // no-break space
  '\u202eexe.txt', // right-to-left override
  '\ufeffdb1', // byte order mark
  'line\u2028sep',
  'a'.repeat(10_240),
  '$HOME',
  '${IFS}',
  "$'\\x41'",
  'a b',
  "it's",
  '"dq"',
  "'",
  "''",
  "'; id; '",
  "x'$(id)'y",
  '\\',
  "\\'",
  'back\\slash\\n',
  '*',
  '?',
  '~',
  '~root',
  '!',
  '!!',
  '#comment',
  '&',
  '|id',
  '>out',
  '<in',
  '(sub)',
  '{a,b}',
  '[x]',
  'user@db1',
  'db1:22',
  'ssh://db1',
  '../../etc/passwd',
  '%h%p',
  'a=b',
  '日本語',
  '🔥',
  'db1;rm -rf /',
  'line1\nline2\n',
  ':',
  '.',
  '%',
];
