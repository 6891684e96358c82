/** The cassandra.yaml rename map (knowledge/config-renames.yaml) and its pure look-ups. */
import { describe, expect, it } from 'vitest';
import { allKeyChanges, keyChangesFor, keyStatus, newNames, oldNamesOf, renameOf, renamesFor } from '../../mcp-server/src/core/config/renames.js';
import { allKnowledge } from '../../mcp-server/src/core/knowledge/index.js';
import { ConfigKeyChangeSchema } from '../../mcp-server/src/core/knowledge/schema.js';

describe('config rename map', () => {
  it('holds the 4.1 renames from Config.java @Replaces with their old units', () => {
    const r41 = renamesFor('4.0', '4.1');
    expect(r41.length).toBeGreaterThanOrEqual(90);
    expect(renameOf('compaction_throughput_mb_per_sec')).toMatchObject({
      replacement: 'compaction_throughput',
      valueType: 'data-rate',
      oldUnit: 'MiB/s',
      since: '4.1',
    });
    expect(renameOf('read_request_timeout_in_ms')).toMatchObject({ replacement: 'read_request_timeout', valueType: 'duration', oldUnit: 'ms' });
    expect(renameOf('stream_throughput_outbound_megabits_per_sec')?.oldUnit).toBe('megabits/s');
    expect(renameOf('column_index_size_in_kb')).toMatchObject({ replacement: 'column_index_size', oldUnit: 'KiB' });
    expect(renameOf('enable_materialized_views')).toMatchObject({ replacement: 'materialized_views_enabled', valueType: 'boolean' });
    expect(renameOf('cross_node_timeout')?.replacement).toBe('internode_timeout');
    expect(renameOf('internode_send_buff_size_in_bytes')?.replacement).toBe('internode_socket_send_buffer_size');
    expect(renameOf('index_summary_resize_interval_in_minutes')?.oldUnit).toBe('minutes');
    expect(renameOf('cluster_name')).toBeUndefined();
    expect(renameOf('compaction_throughput')).toBeUndefined();
  });

  it('follows chains only as far as the target version', () => {
    expect(renameOf('compaction_large_partition_warning_threshold_mb', '4.1')?.replacement).toBe('compaction_large_partition_warning_threshold');
    const to50 = renameOf('compaction_large_partition_warning_threshold_mb', '5.0');
    expect(to50).toMatchObject({ key: 'compaction_large_partition_warning_threshold_mb', replacement: 'partition_size_warn_threshold', oldUnit: 'MiB' });
    expect(renameOf('compaction_large_partition_warning_threshold_mb')?.replacement).toBe('partition_size_warn_threshold');
    expect(renameOf('read_request_timeout_in_ms', '4.0')).toBeUndefined();
    expect(renameOf('read_request_timeout_in_ms', '4.1.10')?.replacement).toBe('read_request_timeout');
  });

  it('windows: 3.11→4.1 includes 4.0 removals and 4.1 renames; 4.1→5.0 only 5.0 changes', () => {
    const a = keyChangesFor('3.11', '4.1');
    expect(a.some((c) => c.key === 'start_rpc' && c.change === 'removed')).toBe(true);
    expect(a.some((c) => c.key === 'read_request_timeout_in_ms')).toBe(true);
    expect(a.some((c) => c.since === '5.0')).toBe(false);
    const b = keyChangesFor('4.1', '5.0');
    expect(b.length).toBeGreaterThan(0);
    expect(b.every((c) => c.since === '5.0')).toBe(true);
    expect(renamesFor('4.1.3', '4.1.10')).toEqual([]);
  });

  it('keyStatus by version', () => {
    expect(keyStatus('start_rpc', '3.11.4').status).toBe('current');
    expect(keyStatus('start_rpc', '4.0').status).toBe('removed');
    expect(keyStatus('read_request_timeout_in_ms', '3.11').status).toBe('current');
    expect(keyStatus('read_request_timeout_in_ms', '4.1').status).toBe('renamed');
    expect(keyStatus('otc_coalescing_window_us', '4.0').status).toBe('deprecated');
    expect(keyStatus('read_request_timeout', '5.0').status).toBe('current');
  });

  it('every row validates, old names are unique per version, and no new name is itself an old name of the same version', () => {
    for (const { knowledgeId, ...row } of allKeyChanges()) {
      expect(knowledgeId).toMatch(/^config\./);
      expect(ConfigKeyChangeSchema.safeParse(row).success, row.key).toBe(true);
    }
    const seen = new Set<string>();
    for (const c of allKeyChanges()) {
      const k = `${c.key}@${c.since}@${c.change}`;
      expect(seen.has(k), k).toBe(false);
      seen.add(k);
    }
    expect(oldNamesOf('internode_socket_send_buffer_size').sort()).toEqual(['internode_send_buff_size_in_bytes', 'internode_socket_send_buffer_size_in_bytes']);
    expect(newNames().has('compaction_throughput')).toBe(true);
  });

  it('agrees with the older single-rename entries tagged old:/new: in config.yaml', () => {
    for (const e of allKnowledge()) {
      const olds = (e.tags ?? []).filter((t) => t.startsWith('old:')).map((t) => t.slice(4));
      const news = (e.tags ?? []).filter((t) => t.startsWith('new:')).map((t) => t.slice(4));
      if (olds.length !== 1 || news.length !== 1) continue;
      expect(renameOf(olds[0]!)?.replacement, e.id).toBe(news[0]);
    }
  });
});
