/**
 * A diagnostic tarball, unpacked: OpsCenter's "Diagnostics" download and DataStax's ds-collector lay out one folder per
 * node, `nodes/<address>/`, holding `nodetool/<command>` outputs, `conf/cassandra/cassandra.yaml`,
 * `logs/cassandra/{system,debug}.log` and `os-metrics/…`. This reads such a tree as a bundle: the nodetool outputs
 * become the node's raw sources (the same parsers as a live sweep), the logs and configs are named for the caller.
 * The tree is untrusted: every file goes through collect/safe-file.ts (no link, no special file, nothing outside the
 * tree, a size cap), and a folder whose name is not an address or host name is not a node.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { OpError } from '../core/errors.js';
import type { NodeRaw, RawSourceResult } from '../core/reports/sweep.js';
import { BUNDLE_MAX_FILE_BYTES, BUNDLE_MAX_TOTAL_BYTES } from './bundle-store.js';
import { namedDirectory, openBundleFile, readBundleFile } from './safe-file.js';

/** The nodetool file names of a diag tree and the subcommand whose parser reads each (3.x names included). */
const NODETOOL_FILES: Readonly<Record<string, string>> = {
  status: 'status',
  info: 'info',
  version: 'version',
  tpstats: 'tpstats',
  cfstats: 'tablestats',
  tablestats: 'tablestats',
  compactionstats: 'compactionstats',
  cfhistograms: 'tablehistograms',
  tablehistograms: 'tablehistograms',
  proxyhistograms: 'proxyhistograms',
  gcstats: 'gcstats',
  describecluster: 'describecluster',
  netstats: 'netstats',
  ring: 'ring',
  gossipinfo: 'gossipinfo',
  statusbinary: 'statusbinary',
  getcompactionthroughput: 'getcompactionthroughput',
  getstreamthroughput: 'getstreamthroughput',
  compactionhistory: 'compactionhistory',
};

/** Log files of a node, in the order they are read (debug.log repeats system.log; the reader counts an event once). */
const LOG_FILES = ['logs/cassandra/system.log', 'logs/cassandra/debug.log'];
const YAML_FILES = ['conf/cassandra/cassandra.yaml', 'conf/dse/cassandra.yaml'];
/** Host outputs interpret reads (iostat, df, blockdev --report), where ds-collector and OpsCenter put them. */
const HOST_FILES = ['os-metrics/iostat', 'os-metrics/df', 'os-metrics/blockdev_report', 'blockdev_report'];
/** An address (IPv4, IPv6 with its colons) or a host name: what the collectors name node folders. */
const NODE_DIR = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,252}$/;
const MAX_NODES = 1000;

export interface DiagTree {
  root: string;
  /** When the collector wrote it, as near as the tree says: the newest modification time of its node folders. */
  collectedAt: string;
  nodes: NodeRaw[];
  /** Per node address, its log files relative to the root (present ones only). */
  logFiles: Record<string, string[]>;
  /** Per node address, its cassandra.yaml text. */
  yamls: Record<string, string>;
  /** Per node address, host outputs by their path in the tree (interpret judges them). */
  hostFiles: Record<string, { path: string; text: string }[]>;
  /** Files that were there but refused (a link, too large), with why. */
  refused: string[];
}

/** True when `dir` looks like a diagnostic tree (a `nodes` folder) rather than a cql-tuner bundle. */
export async function isDiagTree(dir: string): Promise<boolean> {
  const root = await namedDirectory(dir);
  if (!root.ok) return false;
  const entries = await readdir(root.path, { withFileTypes: true }).catch(() => []);
  return entries.some((e) => e.name === 'nodes' && e.isDirectory()) && !entries.some((e) => e.name === 'manifest.json');
}

export async function readDiagTree(dir: string, opts: { signal?: AbortSignal } = {}): Promise<DiagTree> {
  const named = await namedDirectory(dir);
  if (!named.ok) throw new OpError('NOT_A_BUNDLE', `${dir} ${named.reason}`, 'Point at the unpacked diagnostic tarball (the folder holding nodes/).');
  const root = named.path;
  const dirents = await readdir(join(root, 'nodes'), { withFileTypes: true }).catch(() => []);
  // Folders only (a link named like a node is not followed), named like an address or host.
  const nodeDirs = dirents
    .filter((e) => e.isDirectory() && NODE_DIR.test(e.name))
    .map((e) => e.name)
    .sort()
    .slice(0, MAX_NODES);
  if (!nodeDirs.length) {
    throw new OpError('NOT_A_BUNDLE', `${dir}/nodes holds no node folder`, 'Point at the unpacked diagnostic tarball: nodes/<address>/nodetool, conf, logs.');
  }
  const times = await Promise.all(
    nodeDirs.map((n) =>
      lstat(join(root, 'nodes', n)).then(
        (st) => st.mtimeMs,
        () => 0,
      ),
    ),
  );
  const tree: DiagTree = { root, collectedAt: new Date(Math.max(...times)).toISOString(), nodes: [], logFiles: {}, yamls: {}, hostFiles: {}, refused: [] };
  let total = 0;
  const read = async (rel: string): Promise<string | null> => {
    if (opts.signal?.aborted) throw new OpError('CANCELLED', `reading ${dir} was cancelled`, 'Run it again.');
    const r = await readBundleFile(root, rel, {
      maxBytes: Math.min(BUNDLE_MAX_FILE_BYTES, BUNDLE_MAX_TOTAL_BYTES - total),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (r.ok) {
      total += r.bytes;
      return r.text;
    }
    if (r.code !== 'NOT_FOUND') tree.refused.push(`${rel} ${r.reason}`);
    return null;
  };
  for (const name of nodeDirs) {
    const sources: RawSourceResult[] = [];
    for (const [file, sub] of Object.entries(NODETOOL_FILES)) {
      // cfstats and tablestats may both be there: the first read wins.
      if (sources.some((s) => s.name === `nodetool:${sub}`)) continue;
      const text = await read(`nodes/${name}/nodetool/${file}`);
      if (text !== null) sources.push({ name: `nodetool:${sub}`, via: 'nodetool', ok: true, ms: 0, text });
    }
    const logs: string[] = [];
    for (const rel of LOG_FILES.map((f) => `nodes/${name}/${f}`)) {
      const f = await openBundleFile(root, rel);
      if (f.ok) {
        await f.handle.close().catch(() => {});
        logs.push(rel);
      } else if (f.code !== 'NOT_FOUND') tree.refused.push(`${rel} ${f.reason}`);
    }
    if (logs.length) tree.logFiles[name] = logs;
    for (const rel of YAML_FILES.map((f) => `nodes/${name}/${f}`)) {
      const text = await read(rel);
      if (text !== null) {
        tree.yamls[name] = text;
        break;
      }
    }
    for (const rel of HOST_FILES.map((f) => `nodes/${name}/${f}`)) {
      const text = await read(rel);
      if (text !== null) (tree.hostFiles[name] ??= []).push({ path: rel, text });
    }
    tree.nodes.push({
      // The collector reached the node (its outputs are here); where it runs is not recorded.
      node: { address: name, cqlPort: 9042, jmxHost: name, jmxPort: 7199, datacenter: null, rack: null, hostId: null, upPerDriver: sources.length > 0 },
      sources,
      ms: 0,
      cqlReachable: false,
      virtualTables: [],
    });
  }
  return tree;
}
