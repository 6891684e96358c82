import { KIND_MODULES } from './kinds/registry.js';
/**
 * What each output kind is, in a few words, for people: README's "What interpret reads" table and the interpret
 * tool's description are generated from this and from KINDS (detect.ts); a test holds the keys to KINDS exactly.
 */
export const KIND_TITLES: Readonly<Record<string, string>> = {
  'nodetool.proxyhistograms': 'nodetool proxyhistograms',
  'nodetool.tablehistograms': 'nodetool tablehistograms',
  'nodetool.tpstats': 'nodetool tpstats',
  'nodetool.gcstats': 'nodetool gcstats',
  'nodetool.describecluster': 'nodetool describecluster',
  'nodetool.compactionhistory': 'nodetool compactionhistory',
  'nodetool.compactionstats': 'nodetool compactionstats',
  'nodetool.tablestats': 'nodetool tablestats / cfstats',
  'nodetool.status': 'nodetool status',
  'nodetool.ring': 'nodetool ring',
  'nodetool.netstats': 'nodetool netstats',
  'nodetool.gossipinfo': 'nodetool gossipinfo',
  'nodetool.info': 'nodetool info',
  'nodetool.version': 'nodetool version',
  'nodetool.getcompactionthroughput': 'nodetool getcompactionthroughput',
  'nodetool.getstreamthroughput': 'nodetool getstreamthroughput',
  'nodetool.statusbinary': 'nodetool statusbinary',
  'stress.cassandra-stress': 'cassandra-stress results (2.0 CSV to 4.x)',
  'stress.latte': 'latte run report',
  'stress.latte-json': 'latte JSON report',
  'stress.scylla-bench': 'scylla-bench results',
  'stress.ycsb': 'YCSB results',
  'storage.mkfs-xfs': 'XFS geometry (mkfs.xfs, its -N dry run, xfs_info)',
  'storage.blockdev-report': 'blockdev --report',
  'storage.lsblk': 'lsblk',
  'storage.sys-block-queue': '/sys/block/*/queue dump',
  'storage.mdstat': '/proc/mdstat',
  'storage.mdadm-detail': 'mdadm --detail',
  'storage.io-properties': 'ScyllaDB io_properties.yaml',
  'storage.findmnt': 'findmnt',
  'host.iostat': 'iostat -x (any sysstat layout)',
  'host.vmstat': 'vmstat',
  'host.mpstat': 'mpstat',
  'host.sar': 'sar',
  'host.ttop': 'sjk ttop (DSE / sperf thread top)',
  'host.scylla-setup': 'ScyllaDB host set-up files (/etc/scylla.d/*.conf, perftune.yaml, scylla-server defaults)',
  'host.interrupts': '/proc/interrupts',
  'host.seastar-aio': "Seastar's AIO lines of a ScyllaDB start-up log",
  'host.ethtool-stats': 'ethtool -S (cloud allowance counters)',
  'cql.schema': 'CQL DESCRIBE output',
  'k8s.resources': 'K8ssandraCluster / CassandraDatacenter / ScyllaCluster resources',
  'config.cassandra-yaml': 'cassandra.yaml / scylla.yaml',
  logs: 'system.log, debug.log, gc.log, ScyllaDB journal (any era, wrapped or not)',
  'logs.slow-queries': 'debug.log slow / timed-out query reports alone',
  'config.jvm-options': 'jvm*.options, cassandra-env.sh, a java command line',
  'cql.table': 'cqlsh result tables (system_views and others)',
  'cql.tsv': 'tab-separated query results',
  // kind modules (core/kinds/) carry their own title
  ...Object.fromEntries(KIND_MODULES.map((m) => [m.kind, m.title])),
};

/** The kinds as "title" lines grouped by family (the part of the kind before its first dot). */
export function kindFamilies(kinds: readonly string[]): { family: string; titles: string[] }[] {
  const out: { family: string; titles: string[] }[] = [];
  for (const k of kinds) {
    const family = k.includes('.') ? k.slice(0, k.indexOf('.')) : k;
    const title = KIND_TITLES[k] ?? k;
    const row = out.find((r) => r.family === family);
    if (row) row.titles.push(title);
    else out.push({ family, titles: [title] });
  }
  return out;
}

/** One sentence of what interpret reads, by family (nodetool subcommands counted, not listed), for tool text. */
export function kindsSentence(kinds: readonly string[]): string {
  const parts = kindFamilies(kinds).map((f) => (f.family === 'nodetool' ? `nodetool (${f.titles.length} subcommands)` : `${f.family}: ${f.titles.join(', ')}`));
  return `${kinds.length} kinds — ${parts.join('; ')}`;
}

/** README's table of what interpret reads (between its kinds markers), one row per family. */
export function kindsMarkdownTable(kinds: readonly string[]): string {
  const rows = kindFamilies(kinds).map((f) => `| ${f.family} | ${f.titles.map((t) => t.replace(/\|/g, '\\|')).join(', ')} |`);
  return ['| family | outputs |', '|---|---|', ...rows].join('\n');
}
