/**
 * GET /api/v1/ops/node/schema/versions: {"<schema uuid>": ["<endpoint>", …], "UNREACHABLE": [...]}, which is
 * StorageProxy.getSchemaVersions() (NodeOpsProvider.getSchemaVersions at v0.1.125), the same call `nodetool
 * describecluster` prints its "Schema versions:" from. It becomes the describecluster facts the topology rule reads.
 */
import { parsedOk, unrecognized, type Parsed } from '../../parsed.js';
import type { NodetoolDescribeCluster, VersionGroup } from '../nodetool/describecluster.js';
import { cleanText, isRecord, readJson } from './json.js';
import type { MgmtEndpoints } from './endpoints.js';

const MAX_GROUPS = 1000;
const MAX_ENDPOINTS_PER_GROUP = 5000;

export function parseMgmtSchemaVersions(text: string): Parsed<VersionGroup[]> {
  const kind = 'mgmt-api-schema-versions';
  const j = readJson(text);
  if (!j.ok) return unrecognized(kind, j.reason);
  if (!isRecord(j.value)) return unrecognized(kind, 'not an object of schema version → endpoints');
  const entries = Object.entries(j.value);
  if (entries.length > MAX_GROUPS) return unrecognized(kind, `${entries.length} schema versions is more than ${MAX_GROUPS}`);
  const groups: VersionGroup[] = [];
  for (const [version, list] of entries) {
    if (!Array.isArray(list)) continue;
    const endpoints = list
      .slice(0, MAX_ENDPOINTS_PER_GROUP)
      .map((x) => cleanText(x, 80))
      .filter((x): x is string => x !== null);
    groups.push({ version: cleanText(version, 80) ?? '?', endpoints });
  }
  if (!groups.length && entries.length) return unrecognized(kind, 'no schema version maps to a list of endpoints');
  return parsedOk(kind, groups);
}

/** The describecluster facts the Management API gives: schema versions (and name/partitioner from the endpoints). */
export function describeClusterFrom(groups: VersionGroup[], endpoints: MgmtEndpoints | null): NodetoolDescribeCluster {
  const reachable = groups.filter((g) => !/UNREACHABLE/i.test(g.version));
  return {
    name: endpoints?.clusterName ?? null,
    snitch: null,
    dynamicSnitch: null,
    partitioner: endpoints?.partitioner ?? null,
    schemaVersions: groups,
    unreachable: groups.filter((g) => /UNREACHABLE/i.test(g.version)).flatMap((g) => g.endpoints),
    schemaAgreement: reachable.length ? reachable.length === 1 : null,
    stats: null,
    datacenters: [],
    databaseVersions: [],
    keyspaces: [],
    notes: ['from the Management API (/api/v1/ops/node/schema/versions)'],
  };
}
