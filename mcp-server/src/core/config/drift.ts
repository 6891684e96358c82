/**
 * Drift (PURE): a cassandra.yaml compared with what each node runs (system_views.settings, or ScyllaDB's
 * system.config), and the nodes compared with each other. Values are normalised before comparing: units
 * (5000 under *_in_ms = 5000ms = 5s), booleans, class names with or without their package, null/None.
 */
import type { Finding } from '../findings.js';
import type { CassandraYaml } from '../parse/config/cassandra-yaml.js';
import { parseDataRateBytesPerSec, parseDataSizeBytes, parseDurationMs, MEGABIT_PER_SEC } from '../parse/config/units.js';
import { allKeyChanges, oldNamesOf, renameOf, type KeyChange } from './renames.js';

export interface NodeSettings {
  node: string;
  /** name → value as the node reports it; null = the node gave no settings table. */
  settings: Record<string, string | null> | null;
  releaseVersion?: string | null;
}

export interface FileNodeDrift {
  node: string;
  /** The key as written in the file. */
  key: string;
  fileValue: string;
  /** The name the node reports it under (the 4.1 name when the file uses the old one). */
  liveName: string;
  liveValue: string | null;
}

export interface NodeNodeDrift {
  name: string;
  values: Record<string, string | null>;
}

export interface DriftReport {
  nodesCompared: number;
  /** Scalar keys of the file found in the nodes' settings. */
  keysCompared: number;
  /** Scalar keys of the file that no node reports (not exposed, or unknown to the version). */
  notVisible: string[];
  fileVsNode: FileNodeDrift[];
  betweenNodes: NodeNodeDrift[];
  findings: Finding[];
}

// Per-node by nature: never drift between nodes.
const NODE_SPECIFIC =
  /^(?:listen_address|listen_interface|rpc_address|rpc_interface|broadcast_address|broadcast_rpc_address|initial_token|local_system_data_file_directory|data_file_directories|commitlog_directory|saved_caches_directory|hints_directory|cdc_raw_directory|.*_directory|.*_directories|host_id|api_address|prometheus_address|seed_provider.*)$/;

type ValueType = NonNullable<KeyChange['valueType']>;

const ROWS = allKeyChanges().filter((c) => c.change === 'renamed' || c.change === 'unit');

/** The value type and the unit of a bare number under this name (old names, and unit-only keys). */
function unitInfo(name: string): { type: ValueType | null; bareUnit: string | null } {
  const asOld = ROWS.find((c) => c.key === name);
  if (asOld) return { type: asOld.valueType ?? null, bareUnit: asOld.oldUnit ?? null };
  const asNew = ROWS.find((c) => c.replacement === name);
  if (asNew) return { type: asNew.valueType ?? null, bareUnit: asNew.change === 'unit' ? (asNew.oldUnit ?? null) : null };
  return { type: null, bareUnit: null };
}

const DURATION_MS: Record<string, number> = { ms: 1, s: 1000, minutes: 60_000 };
const SIZE_B: Record<string, number> = { B: 1, KiB: 1024, MiB: 1024 ** 2 };
const RATE_BPS: Record<string, number> = { 'MiB/s': 1024 ** 2, 'megabits/s': MEGABIT_PER_SEC };

/** A comparable form: numbers in base units (ms, bytes, bytes/s) where the type is known, else canonical text. */
function normalise(value: unknown, name: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'bigint') return null;
  let s = String(value).trim();
  // ScyllaDB's system.config holds JSON values: "\"SimpleSnitch\"" is the string SimpleSnitch.
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) s = s.slice(1, -1);
  if (s === '' || /^(?:null|none)$/i.test(s)) return null;
  const { type, bareUnit } = unitInfo(name);
  if (type === 'duration') {
    const v = parseDurationMs(s, bareUnit ? (DURATION_MS[bareUnit] ?? null) : null);
    if (v !== null) return `${v}ms`;
  } else if (type === 'data-storage') {
    const v = parseDataSizeBytes(s, bareUnit ? (SIZE_B[bareUnit] ?? null) : null);
    if (v !== null) return `${v}B`;
  } else if (type === 'data-rate') {
    const v = parseDataRateBytesPerSec(s, bareUnit ? (RATE_BPS[bareUnit] ?? null) : null);
    if (v !== null) return `${Math.round(v)}B/s`;
  }
  if (/^(?:true|false|yes|no|on|off)$/i.test(s)) return /^(?:true|yes|on)$/i.test(s) ? 'true' : 'false';
  if (/^-?\d+(?:\.\d+)?$/.test(s)) return String(Number(s));
  // org.apache.cassandra.locator.SimpleSnitch ≡ SimpleSnitch
  if (/^[A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)+$/.test(s)) return s.slice(s.lastIndexOf('.') + 1);
  return s;
}

/** The names a file key can appear under in system_views.settings, best first. */
function liveNames(key: string): string[] {
  const names = [key, renameOf(key, '4.1')?.replacement, renameOf(key)?.replacement, ...oldNamesOf(key)];
  return [...new Set(names.filter((n): n is string => !!n))];
}

export function configDrift(yaml: CassandraYaml | null, source: string | null, nodes: NodeSettings[]): DriftReport {
  const withSettings = nodes.filter((n) => n.settings && Object.keys(n.settings).length > 0);
  const fileVsNode: FileNodeDrift[] = [];
  const notVisible: string[] = [];
  let keysCompared = 0;

  if (yaml) {
    for (const [key, raw] of Object.entries(yaml.settings)) {
      if (raw !== null && typeof raw === 'object') continue; // lists and maps: not compared
      if (NODE_SPECIFIC.test(key)) continue;
      const fileNorm = normalise(raw, key);
      let seen = false;
      for (const n of withSettings) {
        const name = liveNames(key).find((x) => x in n.settings!);
        if (!name) continue;
        seen = true;
        const live = n.settings![name] ?? null;
        if (normalise(live, name) !== fileNorm) fileVsNode.push({ node: n.node, key, fileValue: String(raw), liveName: name, liveValue: live });
      }
      if (seen) keysCompared++;
      else if (withSettings.length) notVisible.push(key);
    }
  }

  // Between nodes: every setting all nodes report, compared after normalisation.
  const betweenNodes: NodeNodeDrift[] = [];
  if (withSettings.length > 1) {
    const names = new Set(withSettings.flatMap((n) => Object.keys(n.settings!)));
    for (const name of [...names].sort()) {
      if (NODE_SPECIFIC.test(name)) continue;
      if (!withSettings.every((n) => name in n.settings!)) continue;
      const norm = new Set(withSettings.map((n) => normalise(n.settings![name], name)));
      if (norm.size > 1) betweenNodes.push({ name, values: Object.fromEntries(withSettings.map((n) => [n.node, n.settings![name] ?? null])) });
    }
    // 4.1 lists a setting under both names; report it once, under the new name.
    const olds = new Set(ROWS.filter((c) => c.change === 'renamed').map((c) => c.key));
    for (let i = betweenNodes.length - 1; i >= 0; i--) {
      const d = betweenNodes[i]!;
      const newer = renameOf(d.name)?.replacement;
      if (olds.has(d.name) && newer && betweenNodes.some((x) => x.name === newer)) betweenNodes.splice(i, 1);
    }
  }

  const findings: Finding[] = [];
  const src = source ?? 'the file';
  if (fileVsNode.length) {
    const nodesHit = [...new Set(fileVsNode.map((d) => d.node))];
    findings.push({
      id: 'config.drift.file-vs-node',
      severity: 'warning',
      title: `${fileVsNode.length} setting value${fileVsNode.length > 1 ? 's' : ''} differ between ${src} and the running node${nodesHit.length > 1 ? 's' : ''}`,
      evidence: fileVsNode
        .slice(0, 12)
        .map((d) => `${d.node}: ${d.key}: ${d.fileValue} in ${src}, ${d.liveName} = ${d.liveValue ?? 'null'} in system_views.settings`),
      recommendation:
        'Either the file changed after the node started (a restart is pending), the node was changed at runtime (nodetool set…/JMX, lost at restart), or this is not the file the node reads. Decide which value is right and make file and node agree.',
      knowledgeIds: ['config.renames.cassandra-4.1'],
      confidence: 'high',
    });
  }
  if (betweenNodes.length) {
    findings.push({
      id: 'config.drift.between-nodes',
      severity: 'warning',
      title: `${betweenNodes.length} setting${betweenNodes.length > 1 ? 's' : ''} differ between nodes`,
      evidence: betweenNodes.slice(0, 12).map(
        (d) =>
          `${d.name}: ${Object.entries(d.values)
            .map(([n, v]) => `${n}=${v ?? 'null'}`)
            .join(', ')}`,
      ),
      recommendation:
        'Nodes of one cluster should run the same settings (addresses and directories aside); a differing node behaves differently under the same load. Roll the intended value out to every node.',
      knowledgeIds: [],
      confidence: 'high',
    });
  }
  return { nodesCompared: withSettings.length, keysCompared, notVisible, fileVsNode, betweenNodes, findings };
}
