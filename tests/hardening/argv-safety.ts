/**
 * What an executed argv may look like. A problem string means the argv could run a shell, an unlisted nodetool
 * subcommand, or let a value be read as an option (ssh/kubectl/docker -o / -- injection).
 */
import { basename } from 'node:path';
import { NODETOOL_ALLOW_LIST, isAllowedSubcommand } from '../../mcp-server/src/core/nodetool-commands.js';
import {
  checkDockerContainer,
  checkDockerUser,
  checkK8sName,
  checkKubeContext,
  checkLocalPath,
  checkSshHost,
  checkSshUser,
} from '../../mcp-server/src/core/remote-argv.js';
import { checkHost } from '../../mcp-server/src/core/validate.js';

const SHELLS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'csh',
  'tcsh',
  'fish',
  'busybox',
  'env',
  'xargs',
  'perl',
  'python',
  'python3',
  'ruby',
  'node',
  'eval',
  'exec',
]);

/** nodetool [-h H -p P] [--ssl] [-u U] [-pwf F] <allowed sub> [-H|-d] [ks [table] | ks.table]. */
export function nodetoolArgvProblem(argv: readonly string[]): string | null {
  // The lab runs `java … org.apache.cassandra.tools.NodeTool`; everything else is a script named nodetool.
  const start = argv.findIndex((a, i) => (i === 0 && /^nodetool(\.sh)?$/.test(basename(a))) || a === 'org.apache.cassandra.tools.NodeTool');
  if (start < 0) return `not a nodetool command: ${JSON.stringify(argv.slice(0, 3))}`;
  let i = start + 1;
  const take = (flag: string, ok: (v: string) => boolean): string | null => {
    if (argv[i] !== flag) return null;
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('-') || !ok(v)) return `bad value ${JSON.stringify(v)} for ${flag}`;
    i += 2;
    return null;
  };
  for (;;) {
    const before = i;
    const p =
      take('-h', (v) => checkHost(v).ok) ??
      take('-p', (v) => /^\d{1,5}$/.test(v)) ??
      take('-u', (v) => /^\S+$/.test(v)) ??
      take('-pwf', (v) => v.startsWith('/'));
    if (p) return p;
    if (argv[i] === '--ssl') i++;
    if (i === before) break;
  }
  const sub = argv[i];
  if (sub === undefined || !isAllowedSubcommand(sub)) return `nodetool subcommand ${JSON.stringify(sub)} is not on the allow-list`;
  const spec = NODETOOL_ALLOW_LIST[sub] as { humanReadableFlag?: string; retry?: { addArgs: string[] }; samplesFor?: { fixedArgs: readonly string[] } };
  if (spec.samplesFor) {
    // A sampler (profileload): exactly its fixed arguments, then a duration in whole ms.
    const rest = argv.slice(i + 1);
    const fixed = spec.samplesFor.fixedArgs;
    const same = rest.length === fixed.length + 1 && fixed.every((f, k) => rest[k] === f) && /^\d{1,6}$/.test(rest[fixed.length]!);
    return same ? null : `${sub} arguments ${JSON.stringify(rest).slice(0, 120)} are not its fixed list plus a duration`;
  }
  for (const a of argv.slice(i + 1)) {
    if (a.startsWith('-')) {
      if (a !== spec.humanReadableFlag && !(spec.retry?.addArgs ?? []).includes(a)) return `unexpected option ${JSON.stringify(a)} after ${sub}`;
    } else if (!/^\w{1,222}(\.\w{1,222})?$/.test(a)) return `argument ${JSON.stringify(a.slice(0, 60))} is not a plain keyspace/table name`;
  }
  return null;
}

/** Splits a command line made by shJoin ('a' 'b' with '\'' for quotes) back into argv; null when it is anything else. */
export function splitShQuoted(line: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    let word = '';
    let any = false;
    while (i < line.length && line[i] !== ' ') {
      if (line[i] === "'") {
        const end = line.indexOf("'", i + 1);
        if (end < 0) return null;
        word += line.slice(i + 1, end);
        i = end + 1;
      } else if (line.startsWith("\\'", i)) {
        word += "'";
        i += 2;
      } else return null; // an unquoted character: the remote shell would interpret it
      any = true;
    }
    if (!any) return null;
    out.push(word);
    i++;
  }
  return out;
}

/**
 * Read-only host inspection commands (storage, OS): the options each may carry. Operands must not start with
 * "-" (a value read as an option) and never hold a NUL or a newline.
 */
const READ_ONLY_HOST: Record<string, { flags: RegExp; valueFlags?: RegExp; forbidden?: RegExp; operands?: RegExp }> = {
  cat: { flags: /^$/ },
  grep: { flags: /^-[sHhEFiqc]+$/ },
  find: {
    flags: /^(-L|-H|-P|-o|-a|-not|-prune|-print|-print0|-mindepth|-maxdepth|-name|-iname|-type|-path|-xtype)$/,
    forbidden: /^-(delete|exec|execdir|ok|okdir|fprint0?|fprintf|fls|printf)$/,
  },
  lsblk: {
    flags: /^(--json|-J|--bytes|-b|-d|--nodeps|-n|--noheadings|-P|--pairs|-a|--all|-o|--output|-O|--output-all|-e|--exclude)$/,
    valueFlags: /^(-o|--output|-e|--exclude)$/,
  },
  readlink: { flags: /^(-f|-e|-m|-n)$/ },
  realpath: { flags: /^(-e|-m|-s)$/ },
  stat: { flags: /^(-L|-f|-c|--format|-t)$/, valueFlags: /^(-c|--format)$/ },
  xfs_info: { flags: /^$/ },
  blockdev: { flags: /^(--report|--getra|--getfra|--getss|--getpbsz|--getbsz|--getsize64|--getro|--getiomin|--getioopt)$/ },
  mdadm: { flags: /^(--detail|-D|--examine|-E|--query|-Q|--scan|-s|--brief|-b)$/ },
  sysctl: { flags: /^(-n|-a|-e|-b)$/ },
  findmnt: { flags: /^(-J|--json|-n|-o|--output|-T|--target|-M|-b|--bytes|-l|--list)$/, valueFlags: /^(-o|--output|-T|--target|-M)$/ },
  df: { flags: /^(-P|-B1|-k|-T|--output.*)$/ },
  uname: { flags: /^-[asrvmnpio]+$/ },
  nproc: { flags: /^(--all)$/ },
  free: { flags: /^-[bkmgh]$/ },
  pgrep: { flags: /^-[ofnxla]+$/ },
  // Tools with subcommands: only the ones that read (timedatectl set-ntp, chronyc makestep … change the host).
  timedatectl: { flags: /^(-p|--property|--value|-a|--all)$/, valueFlags: /^(-p|--property)$/, operands: /^(show|status|show-timesync|timesync-status)$/ },
  chronyc: { flags: /^-[nc]+$/, operands: /^(tracking|sources|sourcestats|activity|ntpdata)$/ },
};

export function hostCommandProblem(argv: readonly string[]): string | null {
  const name = basename(argv[0] ?? '');
  const rule = READ_ONLY_HOST[name];
  if (!rule) return `${JSON.stringify(argv[0])} is neither nodetool nor a read-only host command`;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (/[\0\n\r]/.test(a)) return `${name} argument ${JSON.stringify(a.slice(0, 60))} holds a NUL or newline`;
    if (name === 'find' && (a === '(' || a === ')' || a === '!')) continue;
    if (a.startsWith('-')) {
      if (rule.forbidden?.test(a)) return `${name} ${a} changes or writes something`;
      if (!rule.flags.test(a)) return `${name} option ${JSON.stringify(a.slice(0, 60))} is not a read-only option cql-tuner uses`;
      // Options that take a value (find -name X, -maxdepth N; lsblk -o COLS): skip the value.
      if (rule.valueFlags?.test(a) || (name === 'find' && /^-(mindepth|maxdepth|name|iname|type|path|xtype)$/.test(a))) i++;
      continue;
    }
    if (name === 'sysctl' && a.includes('=')) return `sysctl ${a} would write a setting`;
    if (rule.operands && !rule.operands.test(a)) return `${name} ${JSON.stringify(a.slice(0, 60))} is not a read-only subcommand`;
  }
  return null;
}

/** The command inside a client argv: no shell; nodetool as the allow-list permits; read-only host commands. */
function innerProblem(inner: readonly string[]): string | null {
  if (!inner.length) return 'empty remote command';
  if (SHELLS.has(basename(inner[0]!))) return `remote command starts with a shell/interpreter ${JSON.stringify(inner[0])}`;
  if (READ_ONLY_HOST[basename(inner[0]!)]) return hostCommandProblem(inner);
  return nodetoolArgvProblem(inner);
}

const STRESS_TOOLS = new Set(['latte', 'cassandra-stress', 'scylla-bench']);

const SSH_OPTS = new Set([
  'BatchMode=yes',
  'LogLevel=ERROR',
  'ClearAllForwardings=yes',
  'IdentitiesOnly=yes',
  'StrictHostKeyChecking=accept-new',
  'StrictHostKeyChecking=yes',
]);

/** ssh -T -o … -- HOST 'quoted' 'argv': fixed options, validated values, "--" before the host. */
export function clientArgvProblem(argv: readonly string[]): string | null {
  const tool = basename(argv[0] ?? '');
  if (tool === 'nodetool' || argv.includes('org.apache.cassandra.tools.NodeTool')) return nodetoolArgvProblem(argv);
  const dd = argv.indexOf('--');
  if (tool === 'ssh') {
    if (dd < 0 || argv.length !== dd + 3) return 'ssh argv without "--" HOST COMMAND at its end';
    for (let i = 1; i < dd; i++) {
      const a = argv[i]!;
      const v = argv[i + 1] ?? '';
      if (a === '-T') continue;
      if (a === '-o' && (SSH_OPTS.has(v) || /^ConnectTimeout=\d+$/.test(v) || (v.startsWith('UserKnownHostsFile=') && checkLocalPath('', v.slice(19)).ok))) i++;
      else if ((a === '-F' || a === '-i') && checkLocalPath('', v).ok) i++;
      else if (a === '-p' && /^\d{1,5}$/.test(v)) i++;
      else if (a === '-l' && checkSshUser(v).ok) i++;
      else return `ssh option ${JSON.stringify(a)} ${JSON.stringify(v.slice(0, 60))} is not one cql-tuner sets`;
    }
    if (!checkSshHost(argv[dd + 1]!).ok) return `ssh host ${JSON.stringify(argv[dd + 1])} is not a validated host`;
    const inner = splitShQuoted(argv[dd + 2]!);
    if (!inner) return 'ssh remote command is not fully quoted';
    return innerProblem(inner);
  }
  if (tool === 'kubectl') {
    if (dd < 0) return 'kubectl argv without "--"';
    for (let i = 1; i < dd; i++) {
      const a = argv[i]!;
      const v = argv[i + 1] ?? '';
      if (a === 'exec' || a === '-i') continue;
      if (a === '--kubeconfig' && checkLocalPath('', v).ok) i++;
      else if (a === '--context' && checkKubeContext(v).ok) i++;
      else if (a === '-n' && checkK8sName('namespace', v).ok) i++;
      else if (a === '-c' && checkK8sName('container', v).ok) i++;
      else if (!a.startsWith('-') && checkK8sName('pod', a).ok && argv[i - 1] !== undefined) continue;
      else return `kubectl argument ${JSON.stringify(a.slice(0, 60))} is not one cql-tuner sets`;
    }
    return innerProblem(argv.slice(dd + 1));
  }
  if (tool === 'docker') {
    if (argv[1] !== 'exec' || dd < 0) return 'docker argv is not `docker exec … --`';
    for (let i = 2; i < dd; i++) {
      const a = argv[i]!;
      const v = argv[i + 1] ?? '';
      if (a === '-i') continue;
      if (a === '-u' && checkDockerUser(v).ok) i++;
      else if (a === '-w' && v.startsWith('/')) i++;
      else if (a === '-e' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) i++;
      else return `docker option ${JSON.stringify(a.slice(0, 60))} is not one cql-tuner sets`;
    }
    if (!checkDockerContainer(argv[dd + 1] ?? '').ok) return `docker container ${JSON.stringify(argv[dd + 1])} is not validated`;
    return innerProblem(argv.slice(dd + 2));
  }
  if (READ_ONLY_HOST[tool]) return hostCommandProblem(argv);
  // Stress tools (run_stress builds their argv from structured parameters): listed, and no value smuggles a line.
  if (STRESS_TOOLS.has(tool)) return argv.find((a) => /[\0\n\r]/.test(a)) !== undefined ? `${tool} argument holds a NUL or newline` : null;
  if (SHELLS.has(tool)) return `runs a shell/interpreter ${JSON.stringify(argv[0])}`;
  return `runs ${JSON.stringify(argv[0])}, which is no command cql-tuner is meant to run here`;
}
