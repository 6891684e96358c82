/**
 * A process-level recording Target for the built server and the CLI: a folder of stand-ins for every command
 * cql-tuner might start (nodetool, ssh, kubectl, docker, java, stress tools, mkfs …). Each appends its argv
 * and the environment names it got to a log and runs nothing. PATH is that folder alone, so any command
 * resolved through PATH lands in a recorder.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RECORDED_COMMANDS = [
  'nodetool',
  'ssh',
  'kubectl',
  'docker',
  'java',
  'cassandra-stress',
  'latte',
  'scylla-bench',
  'mkfs',
  'mkfs.xfs',
  'mkfs.ext4',
  'blockdev',
  'lsblk',
  'xfs_info',
  'mdadm',
  'sysctl',
  'cqlsh',
  'sh',
  'bash',
  'dash',
  'sudo',
  'rm',
  'dd',
  'curl',
  'wget',
  'nc',
  'python3',
  'perl',
  'tar',
] as const;

export interface ExecRecord {
  cmd: string;
  argv: string[];
  envNames: string[];
  /** Env values that look like credentials, kept so a secrets test can tell they reached the child (never argv). */
  secretEnv: Record<string, string>;
}

export interface Recorders {
  bin: string;
  log: string;
  home: string;
  /** Environment for a child cql-tuner process: PATH = the recorders only. */
  env: Record<string, string>;
  read(): ExecRecord[];
  /** Removes the folder (bin, home, log). */
  cleanup(): void;
}

export function makeRecorders(opts: { stdout?: string; exitCode?: number } = {}): Recorders {
  const root = mkdtempSync(join(tmpdir(), 'cql-tuner-hardening-'));
  const bin = join(root, 'bin');
  const home = join(root, 'home');
  mkdirSync(bin);
  mkdirSync(home);
  const log = join(root, 'exec.jsonl');
  writeFileSync(log, '');
  // The recorder is a node script; node itself is reached by absolute path, not through PATH.
  const script = `#!${process.execPath}
const fs = require('node:fs'), path = require('node:path');
const secretEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => /PASSWORD|SECRET|TOKEN/i.test(k)));
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ cmd: path.basename(process.argv[1]), argv: process.argv.slice(2), envNames: Object.keys(process.env).sort(), secretEnv }) + '\\n');
process.stdout.write(${JSON.stringify(opts.stdout ?? '')});
process.exitCode = ${opts.exitCode ?? 1};
`;
  const impl = join(root, 'recorder.cjs');
  writeFileSync(impl, script);
  chmodSync(impl, 0o755);
  for (const c of RECORDED_COMMANDS) {
    const p = join(bin, c);
    if (!existsSync(p)) symlinkSync(impl, p);
  }
  return {
    bin,
    log,
    home,
    env: { PATH: bin, HOME: home, CQL_TUNER_HOME: join(home, 'cql-tuner'), CQL_TUNER_NODETOOL: join(bin, 'nodetool'), LANG: 'C.UTF-8' },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
    read: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ExecRecord),
  };
}
