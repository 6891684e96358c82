/**
 * A generated corpus of hostile values, at least 500 per parameter kind: shell metacharacters and command
 * substitution, option injection (-oProxyCommand, --, -h), control characters, unicode look-alikes and
 * invisible characters, percent-encoding, 10 kB strings, paths into /proc, /dev, ../ and symlinks, destructive
 * nodetool verbs, target specs with -o/-- injection for ssh, kubectl and docker, and hostile numbers.
 * Deterministic: the same list every run, so a refusal count is comparable between runs.
 */

export type HostileKind = 'host' | 'identifier' | 'path' | 'subcommand' | 'nodetoolPath' | 'target' | 'k8sName' | 'number' | 'device';

const LONG = 'a'.repeat(10 * 1024);

/** Fragments that mean something to a shell, an option parser, or a terminal. */
export const FRAGMENTS: readonly string[] = [
  ';id',
  ';rm -rf /',
  '$(id)',
  '${IFS}id',
  '`id`',
  '|id',
  '||id',
  '&&id',
  '&id',
  '>/tmp/pwned',
  '</etc/passwd',
  '2>&1',
  '\nid',
  '\r\nid',
  '\rid',
  '\0id',
  '\tid',
  ' id',
  "'",
  '"',
  '\\',
  "';id;'",
  '";id;"',
  '*',
  '?',
  '[a-z]',
  '~',
  '~root',
  '#',
  '!',
  '%',
  '%0aid',
  '%00',
  '%2e%2e%2f',
  '%3Bid',
  '%24(id)',
  '{a,b}',
  '$HOME',
  '${PATH}',
  '$((1+1))',
  '-oProxyCommand=id',
  '-o ProxyCommand=id',
  '-oLocalCommand=id',
  '-F/tmp/evil',
  '-i/tmp/key',
  '-l root',
  '--',
  '-',
  '-h',
  '-h evil',
  '--help',
  '-v',
  '-p 1',
  '-pw secret',
  '-pwf /etc/shadow',
  '-u admin',
  '--ssl',
  '-e',
  '-e FOO=bar',
  '--exec',
  '--privileged',
  '-it',
  '-u root',
  '--user=root',
  '-w /',
  '--kubeconfig=/tmp/k',
  '--context=prod',
  '--namespace=kube-system',
  '-n kube-system',
  '-c other',
  '--as=system:admin',
  '--token=x',
  '-H',
  '-d',
  '--force',
  '-f',
  '-N',
  '-K',
  '\u200b',
  '\u202e',
  '\ufeff',
  '\u00a0',
  '\u2028',
  '\u0000',
  '\u001b[31m',
  '\u007f',
  '\ud800',
  '\u{1f4a9}',
  'ǀ',
  '；id',
  '＄(id)',
];

/** Look-alikes that read like a plain value but are not ASCII (homoglyphs, fullwidth digits). */
const LOOKALIKES = ['１２７.０.０.１', '127.0.0.１', 'ⅼocalhost', 'lоcalhost', 'locaIhost', 'ѕtatus', 'stаtus', 'ѕystem', 'tablеstats', 'іnfo', '127。0。0。1'];

function expand(bases: readonly string[], extra: readonly string[], min = 500): string[] {
  const out = new Set<string>(extra);
  for (const b of bases) {
    for (const f of FRAGMENTS) {
      out.add(b + f);
      out.add(f + b);
    }
  }
  for (const f of FRAGMENTS) out.add(f);
  // Pairs of fragments until the floor is reached (deterministic order).
  for (let i = 0; out.size < min && i < FRAGMENTS.length; i++)
    for (let j = 0; j < 8 && out.size < min; j++) out.add(bases[0] + FRAGMENTS[i]! + FRAGMENTS[(i + j + 1) % FRAGMENTS.length]!);
  return [...out];
}

export const HOSTS = expand(
  ['127.0.0.1', 'localhost', 'db1.example.com', '::1', '10.0.0.1'],
  [
    ...LOOKALIKES,
    LONG,
    `${'a'.repeat(64)}.example.com`,
    'a'.repeat(254),
    '',
    ' ',
    '127.0.0.1 ',
    ' 127.0.0.1',
    '127.0.0.1:7199',
    '[::1]',
    '::1%eth0',
    'fe80::1%25eth0',
    '127.1',
    '0x7f000001',
    '2130706433',
    '127.0.0.256',
    '-127.0.0.1',
    '.',
    '..',
    'a..b',
    'a_b',
    'user@host',
    'host/path',
    'http://127.0.0.1',
    '127.0.0.1#x',
    'localhost.',
    '*.example.com',
  ],
);

export const IDENTIFIERS = expand(
  ['ks', 'system', 'keyspace1', 'standard1'],
  [
    ...LOOKALIKES,
    LONG,
    'a'.repeat(223),
    '',
    ' ',
    'ks.t',
    'ks t',
    '"ks"',
    "'ks'",
    'kéyspace',
    'ks-1',
    '1ks',
    '_',
    '__proto__',
    'constructor',
    'toString',
    'system_auth.roles',
    'ks/t',
    '../t',
    'ks\tt',
  ],
);

export const SUBCOMMANDS = expand(
  ['status', 'tablestats', 'info'],
  [
    ...LOOKALIKES,
    // Verbs that change the cluster or the node: never on the allow-list.
    'cleanup',
    'compact',
    'drain',
    'decommission',
    'removenode',
    'assassinate',
    'truncatehints',
    'stopdaemon',
    'setcompactionthroughput',
    'setstreamthroughput',
    'repair',
    'repair_admin',
    'flush',
    'rebuild',
    'move',
    'disablegossip',
    'disablebinary',
    'enablebinary',
    'clearsnapshot',
    'snapshot',
    'scrub',
    'upgradesstables',
    'garbagecollect',
    'invalidatekeycache',
    'resetlocalschema',
    'setlogginglevel',
    'import',
    'refresh',
    'reloadtriggers',
    'settraceprobability',
    'join',
    'bootstrap',
    'forcecompact',
    'relocatesstables',
    'sjk',
    'help',
    'STATUS',
    ' status ',
    'Status',
    'status\n',
    'cfstats',
    'cfhistograms',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    '',
    ' ',
    LONG,
  ],
);

export const PATHS = expand(
  ['/tmp/x.log', '../../etc/shadow', '/proc/self/environ'],
  [
    '../../etc/shadow',
    '../../../../../../etc/passwd',
    '/etc/shadow',
    '/etc/passwd',
    '/root/.ssh/id_rsa',
    '~/.ssh/id_rsa',
    '/proc/self/environ',
    '/proc/self/mem',
    '/proc/self/cmdline',
    '/proc/kcore',
    '/proc/1/environ',
    '/proc/self/fd/0',
    '/dev/zero',
    '/dev/urandom',
    '/dev/random',
    '/dev/stdin',
    '/dev/tty',
    '/dev/null',
    '/dev/full',
    '/dev/sda',
    '/sys/kernel/mm/transparent_hugepage/enabled',
    '/',
    '/tmp',
    '.',
    '..',
    '',
    ' ',
    'C:\\Windows\\win.ini',
    'file:///etc/passwd',
    '\\\\server\\share',
    `/${LONG}`,
    `/tmp/${'a/'.repeat(3000)}x`,
    '/tmp/does-not-exist',
    'relative/path.log',
    '/tmp/a b.log',
    '/tmp/x.log\0.txt',
    '/tmp/*.log',
    '/tmp/$(id).log',
    '/tmp/`id`.log',
    '-rf',
    '--',
    '-',
  ],
);

export const NODETOOL_PATHS = expand(
  ['/opt/cassandra/bin/nodetool', '/usr/bin/nodetool'],
  [
    '/bin/sh',
    '/bin/bash',
    '/usr/bin/env',
    '/usr/bin/python3',
    '/bin/rm',
    'nodetool',
    './nodetool',
    '../nodetool',
    '/tmp/nodetool;id',
    '/usr/bin/nodetool --help',
    '/usr/bin/nodetool -h evil',
    '/proc/self/exe',
    '/dev/zero',
    '/tmp/nodetool/../../bin/sh',
    '/tmp/nodetool.sh;id',
    '/tmp/ nodetool',
    '/tmp/nodetool\n/bin/sh',
    '/bin/nodetool\0/bin/sh',
    'C:\\nodetool.bat',
    '~/nodetool',
    '$HOME/nodetool',
    '',
  ],
);

/** ssh/k8s/docker target specs, with every part (user, host, port, query values, names) made hostile. */
export const TARGETS = (() => {
  const out = new Set<string>([
    'local;id',
    'local ',
    ' local',
    'LOCAL',
    'locаl',
    'file:///etc/passwd',
    'http://127.0.0.1',
    'ssh:/host',
    'ssh:host',
    'ssh://',
    'ssh://@',
    'SSH://db1',
    'ssh+exec://db1',
    'k8s://',
    'k8s://ns',
    'k8s://ns/',
    'k8s://ns/pod/c/extra',
    'docker://',
    'docker://a/b',
    'docker://c#frag',
    '-oProxyCommand=id',
    '--',
    '-h',
    LONG,
    `ssh://${LONG}`,
  ]);
  const parts = [...FRAGMENTS.slice(0, 70), ...LOOKALIKES, '-oProxyCommand=id', '--'];
  const enc = (s: string) => encodeURIComponent(s);
  for (const f of parts) {
    out.add(`ssh://${f}`);
    out.add(`ssh://db1${f}`);
    out.add(`ssh://${f}@db1`);
    out.add(`ssh://ops${f}@db1`);
    out.add(`ssh://db1:22${f}`);
    out.add(`ssh://db1?identity=${f}`);
    out.add(`ssh://db1?identity=${enc(`/tmp/k${f}`)}`);
    out.add(`ssh://db1?config=${enc(f)}`);
    out.add(`ssh://db1?knownHosts=${enc(`/tmp/kh${f}`)}`);
    out.add(`ssh://db1?hostKeyCheck=${enc(f)}`);
    out.add(`ssh://db1?connectTimeout=${enc(f)}`);
    out.add(`k8s://${enc(f)}/pod`);
    out.add(`k8s://ns/${f}`);
    out.add(`k8s://ns/pod/${f}`);
    out.add(`k8s://ns/pod?context=${enc(f)}`);
    out.add(`k8s://ns/pod?kubeconfig=${enc(f)}`);
    out.add(`docker://${f}`);
    out.add(`docker://c${f}`);
    out.add(`docker://c?user=${enc(f)}`);
  }
  for (const q of [
    'identity=/k&identity=/k2',
    'bogus=1',
    'identity',
    'identity=',
    'identity=%zz',
    'hostKeyCheck=no',
    'connectTimeout=-1',
    'connectTimeout=99999',
  ]) {
    out.add(`ssh://db1?${q}`);
  }
  for (const p of ['0', '-1', '65536', '99999', '0x16', '22.5', '', '22 ', '1e3']) out.add(`ssh://db1:${p}`);
  return [...out];
})();

export const K8S_NAMES = expand(
  ['cassandra-0', 'cass', 'default'],
  [...LOOKALIKES, 'Pod', 'pod_1', '-pod', 'pod-', 'a'.repeat(64), 'a'.repeat(254), '', '.', '..'],
);

/** Stress parameters and other numbers: negative, huge, fractional, non-finite, and strings posing as numbers. */
export const NUMBERS: readonly unknown[] = (() => {
  const nums: unknown[] = [
    -1,
    -0,
    0,
    0.5,
    1.5,
    -1e9,
    1e9,
    2 ** 31,
    2 ** 31 - 1,
    -(2 ** 31),
    2 ** 53,
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.EPSILON,
    1e308,
    -1e308,
    86_400_000 * 365,
    3600 * 24 * 365 * 100,
  ];
  const strs = [
    '-1',
    '1e308',
    'NaN',
    'Infinity',
    '10s;id',
    '$(id)',
    '60s',
    '1h',
    '-5m',
    '0x10',
    '1,000',
    '١٢',
    '',
    ' ',
    '--',
    '-h',
    LONG.slice(0, 200),
    'null',
    'true',
    '[]',
    '{}',
  ];
  const out: unknown[] = [...nums, ...strs, null, true, false, [], {}, [1], { valueOf: 5 }];
  for (let i = 0; out.length < 640; i++) {
    out.push(-(2 ** (i % 64)) - i, 2 ** (i % 70) + 0.5, `${-i}`, `${i}${FRAGMENTS[i % FRAGMENTS.length]}`);
  }
  return out;
})();

export const DEVICES = expand(
  ['/dev/sda', 'nvme0n1', '/dev/md0'],
  [
    '/dev/sda',
    '/dev/sda1',
    'sda',
    '/dev/nvme0n1p1',
    '/dev/mapper/vg-data',
    '/dev/disk/by-id/x',
    '/dev/../etc/passwd',
    '/dev/sda -f',
    '/dev/sda;id',
    '-f',
    '--force',
    '-K',
    '/dev/sda1 /dev/sdb1',
    '/proc/self/fd/1',
    '/dev/stdout',
    '/dev/null',
    '/dev/zero',
    '/dev/loop0',
    '/tmp/file.img',
    '',
    LONG,
  ],
);

export const HOSTILE: Record<HostileKind, readonly unknown[]> = {
  host: HOSTS,
  identifier: IDENTIFIERS,
  path: PATHS,
  subcommand: SUBCOMMANDS,
  nodetoolPath: NODETOOL_PATHS,
  target: TARGETS,
  k8sName: K8S_NAMES,
  number: NUMBERS,
  device: DEVICES,
};

/** Every nth value of a kind: a spread-out sample for slower paths (the built server, the CLI). */
export function spread<T>(values: readonly T[], n: number): T[] {
  if (values.length <= n) return [...values];
  const step = values.length / n;
  return Array.from({ length: n }, (_, i) => values[Math.floor(i * step)]!);
}
