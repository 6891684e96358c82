/**
 * nodetool gossipinfo: one block per endpoint, headed "/ip" or "hostname/ip" (with ":port" on 4.0+ when
 * asked), then "  generation:N", "  heartbeat:N" and application states. 3.x and ScyllaDB print
 * "KEY:value"; 4.0+ print "KEY:version:value" (Cassandra tools/nodetool/GossipInfo.java,
 * gms/EndpointState). Values may contain colons (NATIVE_ADDRESS_AND_PORT:3:127.0.0.1:9042).
 * Early ScyllaDB (2015, scylladb/scylladb#444, #508) printed the bare address with no "/" and, for a while, the
 * application states as numbers ("0:NORMAL,…", "3:datacenter1"): those are mapped back to names by the
 * ScyllaDB application_state order (gms/application_state.hh; its first 14 are Cassandra 2.1's), with a note.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { limitWarnings, nodetoolError, nodetoolLines, num } from './nodetool-text.js';
import { maxOf } from '../../arrays.js';

export interface GossipState {
  /** The state's version (4.0+ only). */
  version: number | null;
  value: string;
}

export interface GossipEndpoint {
  /** The address as printed after "/", port included when printed. */
  address: string;
  hostname: string | null;
  generation: number | null;
  heartbeat: number | null;
  states: Record<string, GossipState>;
  /** STATUS_WITH_PORT or STATUS, first part: NORMAL, LEAVING, LEFT, BOOT, shutdown, removing … */
  status: string | null;
  datacenter: string | null;
  rack: string | null;
  releaseVersion: string | null;
  hostId: string | null;
  schemaVersion: string | null;
  /** LOAD is bytes as a double. */
  loadBytes: number | null;
  rpcReady: boolean | null;
}

export interface NodetoolGossipinfo {
  endpoints: GossipEndpoint[];
  /** 4.0+ "KEY:version:value" layout. */
  versionedStates: boolean;
  schemaVersions: string[];
  releaseVersions: string[];
  /** Layout oddities worth knowing when reading the values (e.g. numbered states mapped to names). */
  notes: string[];
}

// "/10.0.0.1", "host/10.0.0.1", "/10.0.0.1:7000"; early ScyllaDB printed the bare IPv4 address.
const HEADER = /^(?:([^\s/]*)\/(\S+)|()(\d{1,3}(?:\.\d{1,3}){3}))$/;
const STATE_KEY = /^([A-Z][A-Z0-9_]*|X\d+|\d{1,2}):(.*)$/;
// ScyllaDB's own application_state ordinals (scylladb/scylladb gms/application_state.hh, enum class
// application_state, STATUS = 0 …): the first 14 are Cassandra 2.1's ApplicationState order, the rest ScyllaDB's.
const STATE_BY_ORDINAL = [
  'STATUS',
  'LOAD',
  'SCHEMA',
  'DC',
  'RACK',
  'RELEASE_VERSION',
  'REMOVAL_COORDINATOR',
  'INTERNAL_IP',
  'RPC_ADDRESS',
  'X_11_PADDING',
  'SEVERITY',
  'NET_VERSION',
  'HOST_ID',
  'TOKENS',
  'SUPPORTED_FEATURES',
  'CACHE_HITRATES',
  'SCHEMA_TABLES_VERSION',
  'RPC_READY',
  'VIEW_BACKLOG',
  'SHARD_COUNT',
  'IGNORE_MSB_BITS',
  'CDC_GENERATION_ID',
  'SNITCH_NAME',
  'RAFT_SERVER_ID',
];

function finish(e: GossipEndpoint): void {
  const s = (k: string) => e.states[k]?.value ?? null;
  const status = s('STATUS_WITH_PORT') ?? s('STATUS');
  e.status = status === null ? null : status.split(',')[0]!;
  e.datacenter = s('DC');
  e.rack = s('RACK');
  e.releaseVersion = s('RELEASE_VERSION');
  e.hostId = s('HOST_ID');
  e.schemaVersion = s('SCHEMA');
  e.loadBytes = num(s('LOAD') ?? undefined);
  const ready = s('RPC_READY');
  e.rpcReady = ready === null ? null : /^true$/i.test(ready);
}

export const parseGossipinfo = total<NodetoolGossipinfo>('nodetool.gossipinfo', (text) => {
  const kind = 'nodetool.gossipinfo';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);

  const endpoints: GossipEndpoint[] = [];
  const warnings: string[] = [];
  let current: GossipEndpoint | null = null;
  let versioned = 0;
  let unversioned = 0;
  let bareHeaders = 0;
  let ordinalKeys = 0;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    const h = raw === line ? HEADER.exec(line) : null; // endpoint headers are not indented
    if (h) {
      if (h[4] !== undefined) bareHeaders++;
      current = {
        address: h[2] ?? h[4]!,
        hostname: h[1] || null,
        generation: null,
        heartbeat: null,
        states: {},
        status: null,
        datacenter: null,
        rack: null,
        releaseVersion: null,
        hostId: null,
        schemaVersion: null,
        loadBytes: null,
        rpcReady: null,
      };
      endpoints.push(current);
      continue;
    }
    if (!current) continue;
    const g = /^(generation|heartbeat):\s*(\d+)$/.exec(line);
    if (g) {
      current[g[1] as 'generation' | 'heartbeat'] = Number(g[2]);
      continue;
    }
    const s = STATE_KEY.exec(line);
    if (!s) {
      warnings.push(`gossip line not understood: ${line.slice(0, 120)}`);
      continue;
    }
    const v = /^(\d+):(.*)$/.exec(s[2]!);
    // A number followed by a colon is the 4.0+ version, except for values that are themselves "n:…" in the
    // unversioned layout; the layout is decided by the majority below.
    if (v) versioned++;
    else unversioned++;
    let key = s[1]!;
    if (/^\d+$/.test(key)) {
      ordinalKeys++;
      key = STATE_BY_ORDINAL[Number(key)] ?? key;
    }
    current.states[key] = v ? { version: Number(v[1]), value: v[2]! } : { version: null, value: s[2]! };
  }
  if (endpoints.length === 0) return unrecognized(kind, 'no "/address" endpoint header');
  if (endpoints.every((e) => e.generation === null)) return unrecognized(kind, 'no "generation:" line under any endpoint');

  const versionedStates = versioned > unversioned;
  if (!versionedStates) {
    // Undo accidental splits: in the unversioned layout "X:12:rest" is the whole value "12:rest".
    for (const e of endpoints) {
      for (const [k, st] of Object.entries(e.states)) if (st.version !== null) e.states[k] = { version: null, value: `${st.version}:${st.value}` };
    }
  }
  endpoints.forEach(finish);
  const last = endpoints[endpoints.length - 1]!;
  const most = maxOf(endpoints.map((e) => Object.keys(e.states).length));
  if (endpoints.length > 1 && Object.keys(last.states).length < most / 2) {
    warnings.push(`endpoint ${last.address} has ${Object.keys(last.states).length} states where others have up to ${most}: the output looks truncated`);
  } else if (last.generation === null || last.heartbeat === null)
    warnings.push(`endpoint ${last.address} has no generation/heartbeat: the output looks truncated`);
  const notes: string[] = [];
  if (bareHeaders) notes.push('endpoint headers without "/": early ScyllaDB layout (scylladb/scylladb#444)');
  if (ordinalKeys)
    notes.push(
      `${ordinalKeys} application state(s) printed as numbers (early ScyllaDB, scylladb/scylladb#508): named by ScyllaDB's application_state order, gms/application_state.hh (0 STATUS, 1 LOAD, 2 SCHEMA, 3 DC, 4 RACK, 5 RELEASE_VERSION, 8 RPC_ADDRESS, 11 NET_VERSION, 12 HOST_ID)`,
    );
  const uniq = (f: (e: GossipEndpoint) => string | null) => [...new Set(endpoints.map(f).filter((x): x is string => x !== null))];
  return parsedOk<NodetoolGossipinfo>(
    kind,
    { endpoints, versionedStates, schemaVersions: uniq((e) => e.schemaVersion), releaseVersions: uniq((e) => e.releaseVersion), notes },
    limitWarnings(warnings),
  );
});
