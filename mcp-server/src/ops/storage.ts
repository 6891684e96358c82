/**
 * inspect_storage / `cql-tuner storage`: read a host's block devices, md arrays, mounts and XFS geometry
 * through a Target, resolve the database directories to physical disks, and run the storage rules.
 * Read-only: every command is a reader (find, grep, cat, readlink, lsblk, xfs_info).
 */
import { HostFiles, readHostStorage } from '../collect/storage/read-host.js';
import { checkedRow } from '../core/rules/rule.js';
import { WatchedTarget } from '../collect/storage/watched-target.js';
import { createTarget, parseTargetSpec, targetForms, TOOL_TARGET_FORMS, type TargetOrigin } from '../collect/target-spec.js';
import type { Target } from '../collect/target.js';
import { dbDirsFromConfig, type DbDir } from '../core/parse/storage/db-dirs.js';
import type { DirRole, StorageProduct } from '../core/parse/storage/facts.js';
import { worstFirst } from '../core/findings.js';
import { storageRules } from '../core/rules/storage.js';
import type { StorageReport } from '../core/reports/storage.js';
import { OpError } from './errors.js';
import { noProgress, type ProgressFn } from './progress.js';
import { z } from 'zod';
import { hostCommandTimeoutSchema, productSchema, rootPrefixSchema } from './input-schemas.js';

/** inspect_storage's input, registered by the MCP tool and checked by `cql-tuner storage` (whose --target is trusted). */
export const inspectStorageInputSchema = z.object({
  target: z.string().max(1000).default('local').describe(`Where to look: ${TOOL_TARGET_FORMS}`),
  product: productSchema.optional().describe('Database on the host (read-ahead matters for Cassandra only; XFS/RAID0 checks for ScyllaDB)'),
  config: z.string().max(4096).optional().describe('Path of cassandra.yaml or scylla.yaml on the target (default: the packaged location for the product)'),
  dirs: z
    .array(z.string().max(4096))
    .max(64)
    .optional()
    .describe('Explicit directories: "/path" (data) or "role=/path", role data|commitlog|hints|saved_caches'),
  root: rootPrefixSchema.describe('Read a recorded host tree under this prefix instead of "/" (testing, saved captures)'),
  timeoutMs: hostCommandTimeoutSchema().describe('Per-command timeout'),
});

export interface InspectStorageSpec {
  /** Target spec (local, ssh://…, k8s://…, docker://…); default local. */
  target?: string;
  /** Root prefix of the file system to read (recorded trees); default "/". */
  root?: string;
  product?: StorageProduct;
  /** Path of cassandra.yaml / scylla.yaml on the target; default the packaged location when product is given. */
  config?: string;
  /** Explicit directories: "path" (data) or "role=path" with role data|commitlog|hints|saved_caches. */
  dirs?: string[];
  timeoutMs?: number;
}

const ROLES: DirRole[] = ['data', 'commitlog', 'hints', 'saved_caches'];
const DEFAULT_CONFIG: Record<StorageProduct, string[]> = {
  cassandra: ['/etc/cassandra/cassandra.yaml', '/etc/cassandra/conf/cassandra.yaml'],
  scylla: ['/etc/scylla/scylla.yaml'],
};

export function parseDirArgs(dirs: string[]): { role: DirRole; path: string }[] {
  return dirs.map((d) => {
    const m = /^([a-z_]+)=(.+)$/.exec(d);
    if (!m) {
      if (!d.startsWith('/'))
        throw new OpError(
          'BAD_DIR',
          `directory "${d}" is not an absolute path`,
          'Give absolute paths, optionally as role=path (data, commitlog, hints, saved_caches).',
        );
      return { role: 'data', path: d };
    }
    if (!ROLES.includes(m[1] as DirRole))
      throw new OpError('BAD_DIR', `unknown directory role "${m[1]}"`, `Use one of ${ROLES.join(', ')}: e.g. commitlog=/var/lib/cassandra/commitlog.`);
    if (!m[2]!.startsWith('/')) throw new OpError('BAD_DIR', `directory "${m[2]}" is not an absolute path`, 'Give absolute paths.');
    return { role: m[1] as DirRole, path: m[2]! };
  });
}

/**
 * The Target for a spec string. origin 'trusted' only for the user's own --target flag: a tool argument may
 * not name an ssh key, ssh_config, known_hosts, kubeconfig or kube context (they come from the environment).
 */
export function targetOf(spec: string | undefined, origin: TargetOrigin = 'untrusted'): Target {
  const parsed = parseTargetSpec(spec ?? 'local', origin);
  if (!parsed.ok) throw new OpError('BAD_TARGET', parsed.error, `Use one of: ${targetForms(origin)}.`);
  try {
    return createTarget(parsed.spec);
  } catch (e) {
    // An invalid CQL_TUNER_SSH_* / CQL_TUNER_KUBE* setting: the message names the variable.
    throw new OpError('BAD_TARGET', e instanceof Error ? e.message : String(e), 'Fix or unset the named environment variable.');
  }
}

/**
 * The error for a target that ran no command at all because its client failed (login refused, host down),
 * or null. Without it such a host reads as one with nothing to report.
 */
export function targetFailure(target: WatchedTarget): OpError | null {
  const f = target.unreachable;
  if (!f) return null;
  const detail = f.stderrFirstLine && !f.message.includes(f.stderrFirstLine) ? `${f.message} (stderr: ${f.stderrFirstLine.slice(0, 300)})` : f.message;
  if (/permission denied|authenticat|publickey|password|unauthori[sz]ed|forbidden|host key verification/i.test(`${f.message}\n${f.stderrFirstLine}`)) {
    return new OpError(
      'AUTH_FAILED',
      `${target.describe()} refused the login, so nothing was read: ${detail}`,
      'Check the user in the target and its key (ssh-add, or IdentityFile in ~/.ssh/config; known_hosts for a host key), or the kubeconfig / docker ' +
        'context; cql-tuner never prompts for a password. Try the same target in a terminal first.',
    );
  }
  return new OpError(
    'TARGET_UNREACHABLE',
    `could not run commands on ${target.describe()}, so nothing was read: ${detail}`,
    'Check that the host (pod, container) is up and reachable and that the client works: try the same target in a terminal first.',
  );
}

/** Which directories to resolve: explicit ones, else those of the config file (or package defaults). */
async function chooseDirs(io: HostFiles, spec: InspectStorageSpec, warnings: string[]): Promise<(DbDir & { role: DirRole })[]> {
  if (spec.dirs && spec.dirs.length > 0) return parseDirArgs(spec.dirs).map((d) => ({ ...d, from: 'given' }));
  if (!spec.product && !spec.config) return [];
  const product = spec.product ?? 'cassandra';
  const candidates = spec.config ? [spec.config] : DEFAULT_CONFIG[product];
  for (const c of candidates) {
    const r = await io.cat(c);
    if (r.ok) {
      const d = dbDirsFromConfig(r.text, product);
      warnings.push(...d.warnings);
      return d.dirs.map((x) => ({ ...x, from: x.from === 'default' ? `default (${c} does not set it)` : `${c} ${x.from}` }));
    }
    if (spec.config)
      throw new OpError(
        'CONFIG_UNREADABLE',
        `cannot read ${c} on the target: ${r.why}`,
        'Check the path (it is read on the target, not locally) or pass the directories with --dir.',
      );
  }
  warnings.push(`no ${candidates.join(' or ')} on the target: using ${product} package default directories`);
  return dbDirsFromConfig(null, product).dirs.map((x) => ({ ...x, from: 'package default' }));
}

/** `opts.target` overrides spec.target: the CLI builds it from its trusted --target flag (tests pass recorders). */
export async function inspectStorage(
  spec: InspectStorageSpec,
  opts: { signal?: AbortSignal; onProgress?: ProgressFn; target?: Target } = {},
): Promise<StorageReport> {
  const target = new WatchedTarget(opts.target ?? targetOf(spec.target));
  const progress = opts.onProgress ?? noProgress;
  const timeoutMs = spec.timeoutMs ?? 20_000;
  const io = new HostFiles(target, spec.root ?? '/', timeoutMs, opts.signal);
  const warnings: string[] = [];
  const dirs = await chooseDirs(io, spec, warnings).catch((e: unknown) => {
    throw targetFailure(target) ?? e;
  });
  const { facts } = await readHostStorage(target, {
    root: spec.root ?? '/',
    product: spec.product ?? null,
    dirs: dirs.map((d) => ({ role: d.role, path: d.path })),
    timeoutMs,
    ...(opts.signal ? { signal: opts.signal } : {}),
    onStep: (m) => progress({ message: m }),
  });
  const down = targetFailure(target);
  if (down) throw down;
  if (facts.devices.length === 0 && facts.unread.some((u) => u.what === '/sys/block')) {
    const why = facts.unread.find((u) => u.what === '/sys/block')!.why;
    if (/not installed|ENOENT|connect|refused|timed out/i.test(why)) {
      throw new OpError(
        'TARGET_UNREACHABLE',
        `could not read /sys/block on ${target.describe()}: ${why}`,
        'Check that the target is reachable and is a Linux host (ssh login, pod/container name).',
      );
    }
  }
  const outcomes = storageRules(facts);
  const findings = worstFirst(outcomes.flatMap((o) => o.findings));
  const report: StorageReport = {
    target: target.describe(),
    origin: facts.origin,
    product: facts.product,
    summary: '',
    dirs: facts.dirs.map((d, i) => ({ ...d, from: dirs[i]?.from ?? 'given' })),
    devices: facts.devices,
    md: facts.md,
    mounts: facts.mounts.filter((m) => facts.devices.some((d) => d.name === m.device)),
    xfs: facts.xfs,
    ...(facts.ioProperties ? { ioProperties: facts.ioProperties } : {}),
    findings,
    checked: outcomes.map(checkedRow),
    unread: facts.unread,
    warnings,
  };
  report.summary = summarise(report);
  return report;
}

function summarise(r: StorageReport): string {
  const disks = r.devices.filter((d) => d.type !== 'part' && !/^(loop|ram|zram|sr)/.test(d.name ?? ''));
  const w = r.findings.filter((f) => f.severity !== 'info').length;
  return `${r.target}: ${disks.length} block device${disks.length === 1 ? '' : 's'}${r.md.length ? `, ${r.md.length} md array${r.md.length > 1 ? 's' : ''}` : ''}, ${r.dirs.length} database director${r.dirs.length === 1 ? 'y' : 'ies'} resolved; ${r.findings.length} finding${r.findings.length === 1 ? '' : 's'} (${w} warning or worse)${r.unread.length ? `; ${r.unread.length} thing${r.unread.length > 1 ? 's' : ''} not read` : ''}`;
}
