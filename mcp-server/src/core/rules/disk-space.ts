/**
 * Free space on the filesystems holding each node's data and commit log: `df -P -k` of the node's host, matched to
 * the directories the node itself reports (system_views.settings). A data disk near full stalls compaction (its
 * merges need free space), then flushes and writes fail. PURE: the df text and the settings come in as values.
 */
import type { Finding, RuleOutcome } from '../findings.js';
import { threshold } from '../knowledge/index.js';
import { filesystemOf, parseDf, type DfRow } from '../parse/host/df.js';
import { partly, skipped } from './rule.js';

export const DISK_SPACE_RULE = 'disk-space';
export const DISK_SPACE_CHECKS = "free space on the filesystems of each node's data_file_directories and commitlog_directory (df of its host)";

/** One host's df, as read through its Target. */
export interface HostDf {
  /** How the host was reached, e.g. "local". */
  target: string;
  /** Node addresses running on it. */
  nodes: string[];
  /** `df -P -k` stdout, or why it could not be read. */
  dfText?: string;
  error?: string;
}

export interface NodeDir {
  /** The setting it comes from: data_file_directories, commitlog_directory. */
  setting: string;
  path: string;
}

/**
 * The directories a node writes to, from its settings virtual table. data_file_directories is printed as a list
 * ("[/a, /b]"); paths are kept only when absolute (they are compared, never used to reach anything).
 */
export function nodeDirsFromSettings(settings: Record<string, unknown> | undefined): NodeDir[] {
  if (!settings) return [];
  const out: NodeDir[] = [];
  const add = (setting: string, v: unknown) => {
    if (typeof v !== 'string') return;
    for (const p of v
      .replace(/^\[|\]$/g, '')
      .split(',')
      .map((x) => x.trim())) {
      if (/^\/[^\0]*$/.test(p) && p.length < 4096) out.push({ setting, path: p.replace(/\/+$/, '') || '/' });
    }
  };
  add('data_file_directories', settings['data_file_directories']);
  add('commitlog_directory', settings['commitlog_directory']);
  return out;
}

const mib = (kib: number) => Math.round(kib / 1024);

/** Findings for one host: each filesystem holding a node's directories, at or above the knowledge thresholds. */
export function diskSpaceOutcome(hosts: readonly HostDf[], dirsByNode: Readonly<Record<string, NodeDir[]>>): RuleOutcome {
  if (hosts.length === 0) return skipped(DISK_SPACE_RULE, 'no host was reachable to run df on');
  const t = threshold('host.disk.space-used');
  const findings: Finding[] = [];
  const problems: string[] = [];
  let matched = 0;
  for (const h of hosts) {
    if (h.error !== undefined || h.dfText === undefined) {
      // readDf's errors already name the host.
      problems.push(h.error ?? `${h.target}: no df output`);
      continue;
    }
    const df = parseDf(h.dfText);
    if (!df.ok) {
      problems.push(`${h.target}: df output not understood (${df.reason})`);
      continue;
    }
    for (const node of h.nodes) {
      const dirs = dirsByNode[node] ?? [];
      if (!dirs.length) problems.push(`${node}: its data directories are unknown (no system_views.settings)`);
      // One finding per filesystem per node, naming every directory of the node on it.
      const byFs = new Map<string, { fs: DfRow; dirs: NodeDir[] }>();
      for (const d of dirs) {
        const fs = filesystemOf(df.value, d.path);
        if (!fs) continue;
        matched++;
        const e = byFs.get(fs.mount) ?? { fs, dirs: [] };
        e.dirs.push(d);
        byFs.set(fs.mount, e);
      }
      for (const { fs, dirs: on } of byFs.values()) {
        const sev = t.critical !== undefined && fs.usedPct >= t.critical ? 'critical' : t.warning !== undefined && fs.usedPct >= t.warning ? 'warning' : null;
        if (!sev) continue;
        findings.push({
          id: 'host.disk.space-low',
          severity: sev,
          node,
          title: `${node}: the filesystem of its ${on.map((d) => d.setting).join(' and ')} is ${fs.usedPct} % full (${mib(fs.availKiB)} MiB free)`,
          evidence: [
            `df -P -k on ${h.target}: ${fs.filesystem} mounted on ${fs.mount}, ${mib(fs.sizeKiB)} MiB, ` +
              `${mib(fs.usedKiB)} MiB used, ${mib(fs.availKiB)} MiB available (${fs.usedPct} %)`,
            ...on.map((d) => `${d.setting} ${d.path} (system_views.settings of ${node})`),
            `thresholds: warning at ${t.warning ?? '?'} %, critical at ${t.critical ?? '?'} % used`,
          ],
          recommendation:
            'Free space before compaction stalls and flushes fail: remove old snapshots (`nodetool listsnapshots`, `nodetool clearsnapshot`), ' +
            'drop or TTL data that is not needed, or add disk or nodes. Compaction needs headroom (STCS up to half the disk).',
          knowledgeIds: ['host.disk.space-used', 'compaction.stcs.large-data'],
          confidence: 'high',
          when: 'now',
        });
      }
    }
  }
  if (matched === 0) return { ...skipped(DISK_SPACE_RULE, problems.join('; ') || 'no node directory was found in df'), findings };
  return partly(DISK_SPACE_RULE, findings, problems);
}
