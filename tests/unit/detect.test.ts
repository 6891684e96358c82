import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { corpus, corpusFiles, FIXTURES_DIR, HAVE_CORPUS } from '../helpers/corpus.js';

// Which kind each real sample must be detected as, from its file name.
function expectedKind(file: string): string | null {
  const base = file.split('/').pop()!;
  const m = /nodetool[-_](?:n\d+_|n41_|node\d_)?([a-z]+)/.exec(base) ?? /^([a-z]+)_/.exec(base);
  if (!m) return null;
  const sub = m[1]!.replace(/^cfstats$/, 'tablestats').replace(/^cfhistograms$/, 'tablehistograms');
  return `nodetool.${sub}`;
}

describe('detect', () => {
  it.skipIf(!HAVE_CORPUS)('names the kind of every nodetool sample in the shared corpus', () => {
    const files = [...corpusFiles('nodetool', /\.txt$/), ...corpusFiles('local-runs', /^nodetool_.*\.txt$/)].filter((f) => !/timings/.test(f));
    expect(files.length).toBeGreaterThan(30);
    for (const f of files) {
      const want = expectedKind(f);
      const text = corpus(f);
      const d = detect(text);
      // The idle-node proxyhistograms failure is an error message, not an output.
      if (/InstanceNotFoundException/.test(text)) {
        expect(d.ok, f).toBe(false);
        continue;
      }
      expect(d.ok ? d.kind : d.reason, f).toBe(want);
    }
  });

  it('names the kind of every nodetool capture of the project’s own lab', () => {
    const root = join(FIXTURES_DIR, 'lab');
    let n = 0;
    for (const scenario of readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)) {
      for (const node of readdirSync(join(root, scenario)).filter((d) => d.startsWith('node'))) {
        for (const file of readdirSync(join(root, scenario, node)).filter((f) => f.startsWith('nodetool-'))) {
          const text = readFileSync(join(root, scenario, node, file), 'utf8');
          const sub = /^nodetool-([a-z]+)/.exec(file)![1]!;
          const d = detect(text);
          if (/Exception|error:/i.test(text.split('\n')[0] ?? '')) continue;
          expect(d.ok ? d.kind : `${d.reason}`, `${scenario}/${node}/${file}`).toBe(`nodetool.${sub}`);
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(40);
  });

  it('says what is supported when it does not know the text', () => {
    const d = detect('hello world\nthis is not cassandra output');
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.reason).toMatch(/no supported output kind/);
      expect(d.supported).toContain('nodetool.tpstats');
    }
    expect(detect('').ok).toBe(false);
  });
});

describe('detect: stress, storage and config samples', () => {
  it.skipIf(!HAVE_CORPUS)('names the kind of every stress, disk and config sample in the shared corpus', () => {
    const want: Record<string, string> = {
      'disk/blockdev_report_readahead_8192_montecristo.txt': 'storage.blockdev-report',
      'disk/lsblk_custom_ra_rota_dse68_collector.txt': 'storage.lsblk',
      'disk/mkfs_xfs_md0_raid0_i3_4xlarge_scylla_ami.txt': 'storage.mkfs-xfs',
      'disk/sys_block_vda_queue_rotational1_dse68_collector.txt': 'storage.sys-block-queue',
      'config/cassandra2117_java_cmdline_cms_2g_heap.txt': 'config.jvm-options',
      'config/cassandra_yaml_pre41_unthrottled_compaction_10s_timeouts_no_dsnitch.txt': 'config.cassandra-yaml',
      'config/dse67_jvm_options_heap_unset_g1_pause500.txt': 'config.jvm-options',
      'stress/cassandra_stress_read_autorate_saturation_dse.txt': 'stress.cassandra-stress',
      'stress/cassandra_stress_write_gc_pause_equals_max_latency_dse.txt': 'stress.cassandra-stress',
      'stress/cassandra_stress_write_bimodal_p99_wca_docstring.txt': 'stress.cassandra-stress',
      'stress/latte_read_vs_baseline_report.txt': 'stress.latte',
      'local-runs/cassandra-4.1.10-single/stress/stress_read.txt': 'stress.cassandra-stress',
      'local-runs/cassandra-5.0.9-cluster3/latte/latte_read.txt': 'stress.latte',
      'local-runs/cassandra-5.0.9-cluster3/latte/latte_write.json': 'stress.latte-json',
    };
    for (const [file, kind] of Object.entries(want)) {
      const d = detect(corpus(file));
      expect(d.ok ? d.kind : d.reason, file).toBe(kind);
    }
  });

  it.skipIf(!HAVE_CORPUS)('logs that quote JVM flags stay logs', () => {
    for (const f of corpusFiles('logs', /\.txt$/)) {
      const d = detect(corpus(f));
      expect(d.ok ? d.kind : d.reason, f).toBe('logs');
    }
  });
});
