/**
 * GET /api/v0/metadata/endpoints of the k8ssandra Management API: one node's gossip view of every endpoint.
 * Shape (management-api-for-apache-cassandra v0.1.125, CassandraAPI50x.getEndpointStates, wrapped by
 * BaseResources.executeWithJSONResponse): {"entity": [{ "<ApplicationState name>": "<value>", …, "ENDPOINT_IP",
 * "IS_ALIVE": "true"|"false", "IS_LOCAL", "CLUSTER_NAME", "PARTITIONER" }]}. Older agents (3.11) send TOKENS as raw
 * bytes; 4.1/5.0 agents send them comma-separated.
 *
 * The endpoints become the same NodetoolStatus a `nodetool status` on that node prints, so the topology rules run
 * unchanged. Everything here is cluster data: an address that is no IP or host name keeps an addressProblem and is
 * never contacted; names lose their control characters.
 */
import { parsedOk, unrecognized, type Parsed } from '../../parsed.js';
import { checkNodeAddress } from '../../validate.js';
import type { NodetoolStatus, StatusNode } from '../nodetool/status.js';
import { cleanText, isRecord, readJson } from './json.js';

export interface MgmtEndpoint {
  address: string;
  addressProblem?: string;
  /** IS_ALIVE as the observer sees it; null when the field is missing or odd. */
  alive: boolean | null;
  /** First word of STATUS_WITH_PORT (or STATUS): NORMAL, BOOT, LEAVING, MOVING, shutdown, LEFT, removed … */
  gossipStatus: string | null;
  datacenter: string;
  rack: string;
  hostId: string | null;
  releaseVersion: string | null;
  schemaVersion: string | null;
  loadBytes: number | null;
  /** Number of tokens when the agent listed them; null for the raw-byte form of old agents. */
  tokens: number | null;
  isLocal: boolean;
}

export interface MgmtEndpoints {
  endpoints: MgmtEndpoint[];
  clusterName: string | null;
  partitioner: string | null;
  notes: string[];
}

/** A real cluster has hundreds of endpoints at most; more is no answer of a real node. */
export const MAX_ENDPOINTS = 5000;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const VERSION = /^\d+\.\d+(?:\.\d+)?(?:[-.][A-Za-z0-9.]{1,40})?$/;
const TOKEN_LIST = /^-?\d{1,40}(?:,-?\d{1,40})*$/;

function str(m: Record<string, unknown>, key: string): string | null {
  const v = m[key];
  return typeof v === 'string' ? v : null;
}

function endpointOf(m: Record<string, unknown>): MgmtEndpoint | string {
  const ip = str(m, 'ENDPOINT_IP');
  if (ip === null) return 'an entry without ENDPOINT_IP';
  const addr = checkNodeAddress(ip);
  const alive = str(m, 'IS_ALIVE');
  const status = str(m, 'STATUS_WITH_PORT') ?? str(m, 'STATUS');
  const hostId = str(m, 'HOST_ID');
  const release = str(m, 'RELEASE_VERSION');
  const schema = str(m, 'SCHEMA');
  const load = Number(str(m, 'LOAD') ?? NaN);
  const tokens = str(m, 'TOKENS');
  return {
    address: addr.ok ? ip : (cleanText(ip, 80) ?? '?'),
    ...(addr.ok ? {} : { addressProblem: addr.reason }),
    alive: alive === 'true' ? true : alive === 'false' ? false : null,
    gossipStatus: status === null ? null : (cleanText(status.split(',')[0], 40) ?? null),
    datacenter: cleanText(str(m, 'DC'), 100) ?? '',
    rack: cleanText(str(m, 'RACK'), 100) ?? '',
    hostId: hostId !== null && UUID.test(hostId) ? hostId.toLowerCase() : null,
    releaseVersion: release !== null && VERSION.test(release) ? release : null,
    schemaVersion: schema !== null && UUID.test(schema) ? schema.toLowerCase() : null,
    loadBytes: Number.isFinite(load) && load >= 0 ? load : null,
    tokens: tokens !== null && TOKEN_LIST.test(tokens) ? tokens.split(',').length : null,
    isLocal: str(m, 'IS_LOCAL') === 'true',
  };
}

export function parseMgmtEndpoints(text: string): Parsed<MgmtEndpoints> {
  const kind = 'mgmt-api-endpoints';
  const j = readJson(text);
  if (!j.ok) return unrecognized(kind, j.reason);
  const entity = isRecord(j.value) ? j.value['entity'] : Array.isArray(j.value) ? j.value : undefined;
  if (!Array.isArray(entity)) return unrecognized(kind, 'no "entity" list of endpoint states');
  if (entity.length > MAX_ENDPOINTS) return unrecognized(kind, `${entity.length} endpoints is more than ${MAX_ENDPOINTS}: no real cluster answer`);
  const endpoints: MgmtEndpoint[] = [];
  const notes: string[] = [];
  let clusterName: string | null = null;
  let partitioner: string | null = null;
  for (const e of entity) {
    if (!isRecord(e)) {
      notes.push('an endpoint entry that is not an object was left out');
      continue;
    }
    const ep = endpointOf(e);
    if (typeof ep === 'string') {
      notes.push(`${ep} was left out`);
      continue;
    }
    endpoints.push(ep);
    clusterName ??= cleanText(str(e, 'CLUSTER_NAME'), 100);
    partitioner ??= cleanText(str(e, 'PARTITIONER'), 100);
  }
  if (!endpoints.length && entity.length) return unrecognized(kind, `none of the ${entity.length} entries is an endpoint state (${notes[0] ?? ''})`);
  return parsedOk(kind, { endpoints, clusterName, partitioner, notes: notes.slice(0, 20) });
}

/** Gossip STATUS word → nodetool status's state letter; null: not part of the ring (nodetool status leaves it out). */
const STATE_OF: Record<string, StatusNode['state'] | null> = {
  NORMAL: 'normal',
  shutdown: 'normal',
  BOOT: 'joining',
  BOOT_REPLACE: 'joining',
  hibernate: 'joining',
  LEAVING: 'leaving',
  removing: 'leaving',
  MOVING: 'moving',
  LEFT: null,
  removed: null,
};
const LETTER: Record<StatusNode['state'], string> = { normal: 'N', joining: 'J', leaving: 'L', moving: 'M' };

/** The observer's endpoints as the ring `nodetool status` would print from the same node (owns: not known here). */
export function statusFromEndpoints(e: MgmtEndpoints): NodetoolStatus {
  const nodes: StatusNode[] = [];
  const notes = ['from the Management API (/api/v0/metadata/endpoints): ownership is not reported'];
  for (const ep of e.endpoints) {
    const word = ep.gossipStatus ?? 'NORMAL';
    const state = Object.hasOwn(STATE_OF, word) ? STATE_OF[word] : 'normal';
    if (state === null) continue;
    const up = ep.alive === true && word !== 'shutdown';
    nodes.push({
      datacenter: ep.datacenter,
      code: `${ep.alive === null ? '?' : up ? 'U' : 'D'}${LETTER[state ?? 'normal']}`,
      up,
      state: state ?? 'normal',
      address: ep.address,
      ...(ep.addressProblem ? { addressProblem: ep.addressProblem } : {}),
      loadBytes: ep.loadBytes,
      loadText: ep.loadBytes === null ? '?' : `${ep.loadBytes} bytes`,
      tokens: ep.tokens,
      ownsPercent: null,
      hostId: ep.hostId,
      rack: ep.rack,
    });
  }
  const datacenters = [...new Set(nodes.map((n) => n.datacenter))];
  return { datacenters, nodes, ownsEffective: null, notes, rowsNotParsed: [] };
}
