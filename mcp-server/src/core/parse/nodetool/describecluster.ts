/**
 * nodetool describecluster (Cassandra tools/nodetool/DescribeCluster.java; ScyllaDB scylla-nodetool.cc).
 * All versions: Name, Snitch, Partitioner, "Schema versions:" with "uuid: [endpoints]" lines ("UNREACHABLE"
 * as the key for nodes that did not answer). 4.0+ adds DynamicEndPointSnitch, "Stats for all nodes:",
 * "Data Centers:" (#Nodes/#Down), "Database versions:" and "Keyspaces:" with replication. ScyllaDB always
 * prints "DynamicEndPointSnitch: disabled" (it has none) and stops after the schema versions.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { limitWarnings, nodetoolError, nodetoolLines, num } from './nodetool-text.js';
import { pushAll } from '../../arrays.js';

export interface VersionGroup {
  version: string;
  endpoints: string[];
}

export interface KeyspaceReplication {
  name: string;
  /** Strategy as printed: SimpleStrategy, NetworkTopologyStrategy, LocalStrategy, EverywhereStrategy … */
  strategy: string;
  options: Record<string, string>;
  /** Numeric replication options: replication_factor for SimpleStrategy, one entry per DC for NTS. */
  replicationFactors: Record<string, number>;
}

export interface NodetoolDescribeCluster {
  name: string | null;
  snitch: string | null;
  dynamicSnitch: boolean | null;
  partitioner: string | null;
  schemaVersions: VersionGroup[];
  /** Endpoints listed under UNREACHABLE (they did not answer the schema check). */
  unreachable: string[];
  /** One schema version among reachable nodes; null when no version line was printed. */
  schemaAgreement: boolean | null;
  stats: { live: number | null; joining: number | null; moving: number | null; leaving: number | null; unreachable: number | null } | null;
  datacenters: { name: string; nodes: number | null; down: number | null }[];
  databaseVersions: VersionGroup[];
  keyspaces: KeyspaceReplication[];
  /** Layout oddities, e.g. early ScyllaDB's "endpoint: [schema]" lines read back the right way round. */
  notes: string[];
}

type Section = 'info' | 'schema' | 'stats' | 'dcs' | 'dbversions' | 'keyspaces';

function endpoints(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * describeSchemaVersions() as a Java Map's toString, the form clients print (Thrift describe_schema_versions,
 * JMX StorageProxy): `{1774c2d0-…=[10.0.0.1, 10.0.0.2], UNREACHABLE=[10.0.0.5]}` on one line. Null when absent.
 */
const SCHEMA_MAP =
  /^\{(?:[0-9a-fA-F]{8}-[0-9a-fA-F-]{27}|UNREACHABLE)=\[[^\]]{0,20000}\](?:, (?:[0-9a-fA-F]{8}-[0-9a-fA-F-]{27}|UNREACHABLE)=\[[^\]]{0,20000}\]){0,100}\}$/;
const SCHEMA_MAP_ENTRY = /([0-9a-fA-F]{8}-[0-9a-fA-F-]{27}|UNREACHABLE)=\[([^\]]{0,20000})\]/g;

function schemaVersionMap(lines: string[]): { versions: VersionGroup[]; unreachable: string[] } | null {
  const line = lines.map((l) => l.trim()).find((l) => SCHEMA_MAP.test(l));
  if (line === undefined) return null;
  const versions: VersionGroup[] = [];
  const unreachable: string[] = [];
  for (const m of line.matchAll(SCHEMA_MAP_ENTRY)) {
    if (m[1] === 'UNREACHABLE') pushAll(unreachable, endpoints(m[2]!));
    else versions.push({ version: m[1]!, endpoints: endpoints(m[2]!) });
  }
  return { versions, unreachable };
}

export const parseDescribecluster = total<NodetoolDescribeCluster>('nodetool.describecluster', (text) => {
  const kind = 'nodetool.describecluster';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);

  const v: NodetoolDescribeCluster = {
    name: null,
    snitch: null,
    dynamicSnitch: null,
    partitioner: null,
    schemaVersions: [],
    unreachable: [],
    schemaAgreement: null,
    stats: null,
    datacenters: [],
    databaseVersions: [],
    keyspaces: [],
    notes: [],
  };
  const warnings: string[] = [];
  let section: Section | null = null;
  let sawStats = false;

  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (/^Cluster Information:$/.test(line)) {
      section = 'info';
      continue;
    }
    if (section === null) continue;
    if (/^Schema versions:$/.test(line)) section = 'schema';
    else if (/^Stats for all nodes:$/.test(line)) {
      section = 'stats';
      sawStats = true;
      v.stats = { live: null, joining: null, moving: null, leaving: null, unreachable: null };
    } else if (/^Data Centers:$/.test(line)) section = 'dcs';
    else if (/^Database versions:$/.test(line)) section = 'dbversions';
    else if (/^Keyspaces:$/.test(line)) section = 'keyspaces';
    else if (section === 'info') {
      const m = /^(Name|Snitch|DynamicEndPointSnitch|Partitioner):\s*(.*)$/.exec(line);
      if (!m) continue;
      const val = m[2]!.trim();
      if (m[1] === 'Name') v.name = val;
      else if (m[1] === 'Snitch') v.snitch = val;
      else if (m[1] === 'Partitioner') v.partitioner = val;
      else v.dynamicSnitch = /^enabled$/i.test(val) ? true : /^disabled$/i.test(val) ? false : null;
    } else if (section === 'schema' || section === 'dbversions') {
      const m = /^(.+?):\s*\[(.*)\]$/.exec(line);
      if (!m) {
        warnings.push(`version line not understood: ${line.slice(0, 120)}`);
        continue;
      }
      const group = { version: m[1]!.trim(), endpoints: endpoints(m[2]!) };
      if (section === 'dbversions') v.databaseVersions.push(group);
      else if (group.version === 'UNREACHABLE') pushAll(v.unreachable, group.endpoints);
      else v.schemaVersions.push(group);
    } else if (section === 'stats' && v.stats) {
      const m = /^(Live|Joining|Moving|Leaving|Unreachable):\s*(\d+)$/.exec(line);
      if (m) v.stats[m[1]!.toLowerCase() as keyof NonNullable<NodetoolDescribeCluster['stats']>] = Number(m[2]);
    } else if (section === 'dcs') {
      const m = /^(.+?)\s+#Nodes:\s*(\d+)(?:\s+#Down:\s*(\d+))?$/.exec(line);
      if (m) v.datacenters.push({ name: m[1]!, nodes: Number(m[2]), down: m[3] === undefined ? null : Number(m[3]) });
    } else if (section === 'keyspaces') {
      const m = /^(\S+)\s*->\s*Replication class:\s*(\S+)\s*(?:\{(.*)\})?\s*$/.exec(line);
      if (!m) {
        warnings.push(`keyspace line not understood: ${line.slice(0, 120)}`);
        continue;
      }
      const options: Record<string, string> = {};
      const replicationFactors: Record<string, number> = {};
      for (const part of (m[3] ?? '').split(',')) {
        const kv = /^\s*([^=]+?)\s*=\s*(.*?)\s*$/.exec(part);
        if (!kv) continue;
        options[kv[1]!] = kv[2]!;
        // "3" or a transient "3/1": the leading number is the full replica count.
        const rf = /^(\d+)(?:\/\d+)?$/.exec(kv[2]!);
        if (kv[1] !== 'class' && rf) replicationFactors[kv[1]!] = num(rf[1])!;
      }
      v.keyspaces.push({ name: m[1]!, strategy: m[2]!.replace(/^org\.apache\.cassandra\.locator\./, ''), options, replicationFactors });
    }
  }

  if (section === null) {
    const map = schemaVersionMap(lines);
    if (map === null) return unrecognized(kind, 'no "Cluster Information:" line');
    v.schemaVersions = map.versions;
    v.unreachable = map.unreachable;
    v.schemaAgreement = map.versions.length === 0 ? null : map.versions.length === 1;
    v.notes.push(
      'read from the schema-versions map as a client prints it ({version=[endpoints], UNREACHABLE=[…]}, StorageProxy.describeSchemaVersions): no cluster name, snitch or partitioner',
    );
    return parsedOk(kind, v, warnings);
  }
  if (v.name === null && v.partitioner === null) return unrecognized(kind, 'no cluster Name or Partitioner under "Cluster Information:" (output cut?)');
  // 3.x has no DynamicEndPointSnitch line; it names the wrapper itself as the snitch when it is on.
  if (v.dynamicSnitch === null && v.snitch?.endsWith('.DynamicEndpointSnitch')) v.dynamicSnitch = true;
  // Early ScyllaDB (2015, scylladb/scylladb#684) printed "172.31.44.214: [2bf601ed-…]", endpoint first: regroup by
  // schema version so agreement is judged on versions, not on addresses.
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (v.schemaVersions.length && v.schemaVersions.every((g) => !UUID.test(g.version) && g.endpoints.length > 0 && g.endpoints.every((e) => UUID.test(e)))) {
    const byVersion = new Map<string, string[]>();
    for (const g of v.schemaVersions) for (const ver of g.endpoints) byVersion.set(ver, [...(byVersion.get(ver) ?? []), g.version]);
    v.schemaVersions = [...byVersion].map(([version, eps]) => ({ version, endpoints: eps }));
    v.notes.push('schema versions printed as "endpoint: [version]" (early ScyllaDB, scylladb/scylladb#684): regrouped by version');
  }
  v.schemaAgreement = v.schemaVersions.length === 0 ? null : v.schemaVersions.length === 1;
  if (v.schemaVersions.length === 0 && v.unreachable.length === 0) warnings.push('no schema version lines: the output looks truncated');
  if (sawStats && v.keyspaces.length === 0) warnings.push('4.x layout without the "Keyspaces:" section: the output looks truncated');
  return parsedOk<NodetoolDescribeCluster>(kind, v, limitWarnings(warnings));
});
