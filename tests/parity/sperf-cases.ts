/**
 * Every test function of DataStax sperf's own suite (datastax-labs/sperf @b3f66da39276, 179 tests, pytest node ids) and what
 * cql-tuner does about it. tests/unit/sperf-parity.test.ts asserts sperf's figure for each 'asserted' case, on the same
 * input (tests/fixtures/sperf, or the inline text of sperf's test), and checks this list is complete.
 *
 * dse (how much of the test needs DataStax Enterprise): Y a DSE-only format or feature, P partly, N-DF a format Apache
 * Cassandra shares but read from a DSE file, N generic or Apache input.
 * status: 'asserted' (the it named here asserts sperf's figure), 'dse-only' (a DSE format or feature we do not aim at),
 * 'internal' (sperf's own helpers or CLI wiring: nothing to compare), 'gap' (Apache-applicable, not reproduced: see note).
 */

export type SperfDse = 'Y' | 'P' | 'N-DF' | 'N';
export type SperfStatus = 'asserted' | 'gap' | 'dse-only' | 'internal';

interface CaseBase {
  /** pytest node id (the class is part of it: core/test_slowquery.py has two test_timeout). */
  id: string;
  feature: string;
  dse: SperfDse;
  note: string;
}

/** An asserted case names the `it` of sperf-parity.test.ts that asserts it; a gap may name one that shows our figure. */
export type SperfCase = CaseBase & ({ status: 'asserted'; it: string } | { status: Exclude<SperfStatus, 'asserted'>; it?: string });

const WIRING = 'argparse wiring of a sperf command: nothing to compare';
const WIRING_SEARCH = 'argparse wiring of a DSE Search command: nothing to compare';
const MISSING_DIR = 'runs on tests/commands/testdata/diag/statuslogger, a path that does not exist: only proves no crash';
const DRIFT = 'configDrift lists the keys that differ between nodes: none for one group, abc (zzz vs xyz) for two';
const NODE_CONFIG_LOG =
  'the "Node configuration:[…]" line of system.log is not read, so memtable_cleanup_threshold ("default" for 10.101.33.205) is not known from the logs';
const DIAG_FORMAT = 'formatting helpers of the core diag report';
const INLINE = 'same inline text';
const SL68 =
  'DSE 6.8 StatusLogger (Backpressure/Delayed/Shared/Stolen columns): the TPC rows follow an all-N/A "TPC/all" row, which once ended the table ' +
  '(busiest pool read as MemtablePostFlush 6); read through now';
const SL68_IT = 'statuslogger: DSE 6.8 table — busiest pending pool TPC/all/WRITE_REMOTE 13094 after the all-N/A TPC/all row';
const SL67 = 'DSE TPC pool, but our StatusLogger reader handles this table';
const SAME_INPUT = 'same input';
const DSECONFIG = 'DSE-only line, read by our start-up facts (cpuThreads, threadsPerCore)';
const ACCESS_MODE = 'the DatabaseDescriptor "DiskAccessMode … indexAccessMode is …" start-up line: start-up facts diskAccessMode / indexAccessMode';
const ACCESS_IT = `outputlog: DatabaseDescriptor access modes — "'auto' determined to be", "is", with and without a commit log mode`;
const DSECONFIG_OLD = 'pre-5.1 DSE wording "This machine appears to have N thread(s) per CPU core." is not read (threadsPerCore null)';
const APACHE_LOGS = 'same Apache system.log files';
const TPC_ROW = 'regex for a single DSE TPC StatusLogger row';
const SEARCH = 'DSE Search (Solr filter cache, query score)';
const BGREP =
  'no regex search over log entries (sperf core bgrep counts matches per time bucket, a stack trace kept with its entry); cql-tuner has no grep command';
const DATES = 'sperf date-parsing helpers';
const FIND_FILES = "sperf's discovery of log files in a diag directory";
const OPSC_MISSING = 'completeness warnings of an OpsCenter diagnostic tarball (node_info.json decides the blockdev warning)';
const HUMANIZE = 'sperf humanize helpers';
const CLASSPATH = 'the "Classpath:" start-up line is not read: no jar list and no jar comparison between nodes';
const JARCHECK_CLI = '"Nothing analyzed" / "Analyzed 1 file" message of the CLI on no or empty input';
const SAME_FILE = 'same file';
const SEARCH_TPC_RECS = 'DSE Search filter cache or DSE TPC stage recommendations';
const TPC_SEARCH_RECS = 'DSE TPC stage or DSE Search recommendations';
const WHOLE_REPORT =
  'whole-report integration test on DSE diag trees: DSE/Solr/Spark versions, TPC backpressure, DSE StatusLogger; the portable figures of D67 (GC, slow ' +
  'queries) are compared under test_gcinspector and test_slowquery';
const HOST_FILE = 'same file (tests/fixtures/host, byte-identical)';
const UTIL = 'sperf util helpers';

export const SPERF_CASES: readonly SperfCase[] = [
  { id: 'tests/commands/core/test_gc.py::TestGCIntegration::test_args', feature: 'core gc (args)', dse: 'N', status: 'internal', note: WIRING },
  { id: 'tests/commands/core/test_gc.py::TestGCIntegration::test_gc_run', feature: 'core gc `-r nodes`', dse: 'N', status: 'internal', note: MISSING_DIR },
  { id: 'tests/commands/core/test_jarcheck.py::TestJarCheckCommand::test_args', feature: 'core jarcheck (args)', dse: 'N', status: 'internal', note: WIRING },
  {
    id: 'tests/commands/core/test_jarcheck.py::TestJarCheckCommand::test_jarcheck_run',
    feature: 'core jarcheck',
    dse: 'N',
    status: 'internal',
    note: 'expects FileNotFoundError on missing files: sperf CLI behaviour',
  },
  { id: 'tests/commands/core/test_schema.py::TestSchemaCommands::test_args', feature: 'core schema (args)', dse: 'N', status: 'internal', note: WIRING },
  {
    id: 'tests/commands/core/test_schema.py::TestSchemaCommands::test_shema_run',
    feature: 'core schema',
    dse: 'N',
    status: 'internal',
    note: 'runs on missing files and must not crash: sperf CLI behaviour',
  },
  {
    id: 'tests/commands/core/test_statuslogger.py::TestStatusLoggerCommand::test_args',
    feature: 'core statuslogger (args)',
    dse: 'N',
    status: 'internal',
    note: WIRING,
  },
  {
    id: 'tests/commands/core/test_statuslogger.py::TestStatusLoggerCommand::test_statuslogger_run',
    feature: 'core statuslogger `-r histogram`',
    dse: 'N',
    status: 'internal',
    note: MISSING_DIR,
  },
  { id: 'tests/commands/test_sperf.py::TestSperfCommands::test_core_diag_wired', feature: 'core diag (args)', dse: 'N', status: 'internal', note: WIRING },
  { id: 'tests/commands/test_sperf.py::TestSperfCommands::test_jarcheck_wired', feature: 'core jarcheck (args)', dse: 'N', status: 'internal', note: WIRING },
  { id: 'tests/commands/test_sperf.py::TestSperfCommands::test_schema_wired', feature: 'core schema (args)', dse: 'N', status: 'internal', note: WIRING },
  {
    id: 'tests/commands/test_sperf.py::TestSperfCommands::test_search_filtercache_wired',
    feature: 'search filtercache (args)',
    dse: 'Y',
    status: 'internal',
    note: WIRING_SEARCH,
  },
  { id: 'tests/commands/test_sperf.py::TestSperfCommands::test_slowquery_wired', feature: 'core slowquery (args)', dse: 'N', status: 'internal', note: WIRING },
  {
    id: 'tests/commands/test_sperf.py::TestSperfCommands::test_solrqueryagg_wired',
    feature: 'search queryscore (args)',
    dse: 'Y',
    status: 'internal',
    note: WIRING_SEARCH,
  },
  { id: 'tests/commands/test_sperf.py::TestSperfCommands::test_sperf_global_flags', feature: 'sperf (args)', dse: 'N', status: 'internal', note: WIRING },
  { id: 'tests/commands/test_sperf.py::TestSperfCommands::test_sperf_global_short_flags', feature: 'sperf (args)', dse: 'N', status: 'internal', note: WIRING },
  {
    id: 'tests/commands/test_sperf.py::TestSperfCommands::test_sperf_will_break_if_incorrect_comamnd_is_used',
    feature: 'sperf (args)',
    dse: 'N',
    status: 'internal',
    note: WIRING,
  },
  { id: 'tests/commands/test_sperf.py::TestSperfCommands::test_sysbottle_wired', feature: 'sysbottle (args)', dse: 'N', status: 'internal', note: WIRING },
  { id: 'tests/commands/test_sysbottle.py::TestSysBottleCommand::test_args', feature: 'sysbottle (args)', dse: 'N', status: 'internal', note: WIRING },
  {
    id: 'tests/commands/test_sysbottle.py::TestSysBottleCommand::test_sysbottle_run',
    feature: 'sysbottle',
    dse: 'N',
    status: 'internal',
    note: 'only checks that `sperf sysbottle` runs on td/iostat; the figures of that file are compared under test_sysbottle_analyze',
  },
  {
    id: 'tests/core/diag/test_config_diff.py::TestConfigDiff::test_group_configurations',
    feature: 'core diag',
    dse: 'N',
    status: 'asserted',
    it: 'config_diff: nodes with the same settings are one group, one differing key splits them (inline)',
    note: DRIFT,
  },
  {
    id: 'tests/core/diag/test_config_diff.py::TestConfigDiff::test_group_configurations_with_diffs',
    feature: 'core diag',
    dse: 'N',
    status: 'asserted',
    it: 'config_diff: nodes with the same settings are one group, one differing key splits them (inline)',
    note: DRIFT,
  },
  {
    id: 'tests/core/diag/test_config_diff.py::TestConfigDiff::test_ignore_known_problem_configuration_fields',
    feature: 'core diag',
    dse: 'N',
    status: 'gap',
    note:
      'we do not read the "Node configuration:[…]" start-up line at all (see test_read_cassandra_parameter_parsing), so there are no Java-object values ' +
      '(…Options@31j0fa0) to filter out',
  },
  {
    id: 'tests/core/diag/test_node_env.py::TestNodeEnv::test_jvm_based_parameter_parsing',
    feature: 'core diag',
    dse: 'P',
    status: 'asserted',
    it: 'node_env: heap 31G, G1 and RAM 120663 MB (the last -Ddse.system_memory_in_mb) from the JVM arguments',
    note: 'sperf gets the args as a dict; here they are the JVM Arguments log line holding the same args',
  },
  {
    id: 'tests/core/diag/test_node_env.py::TestNodeEnv::test_read_cassandra_parameter_parsing',
    feature: 'core diag',
    dse: 'N',
    status: 'gap',
    note:
      'the "Node configuration:[…]" line Config.java logs at start is not read (memtable_flush_writers "2", memtable_cleanup_threshold null → ' +
      '"default"); our settings come from cassandra.yaml or system_views.settings',
  },
  { id: 'tests/core/diag/test_node_env.py::TestNodeEnv::test_read_outputlog', feature: 'core diag', dse: 'N-DF', status: 'gap', note: NODE_CONFIG_LOG },
  {
    id: 'tests/core/diag/test_node_env.py::TestNodeEnv::test_read_systemlog_when_outputlog_is_empty',
    feature: 'core diag',
    dse: 'N-DF',
    status: 'gap',
    note: NODE_CONFIG_LOG,
  },
  {
    id: 'tests/core/diag/test_read_ahead.py::TestReadAhead::test_block_dev',
    feature: 'core diag',
    dse: 'N',
    status: 'asserted',
    it: 'read_ahead: read-ahead in bytes of RA 8 and 8192 (512-byte sectors) is 4096 and 4194304',
    note:
      'sperf multiplies RA by SSZ; RA is in 512-byte sectors whatever SSZ, the same figure here (SSZ 512). sperf gives dict rows; here they are ' +
      'blockdev --report rows with the same RA and SSZ',
  },
  { id: 'tests/core/diag/test_reporter.py::TestReporter::test_format_partition_bytes', feature: 'core diag', dse: 'N', status: 'internal', note: DIAG_FORMAT },
  { id: 'tests/core/diag/test_reporter.py::TestReporter::test_format_table_loc', feature: 'core diag', dse: 'N', status: 'internal', note: DIAG_FORMAT },
  { id: 'tests/core/diag/test_reporter.py::TestReporter::test_format_table_stats', feature: 'core diag', dse: 'N', status: 'internal', note: DIAG_FORMAT },
  {
    id: 'tests/core/diag/test_table_stats.py::TestTableStats::test_add_stats_to_config',
    feature: 'core diag',
    dse: 'N-DF',
    status: 'asserted',
    it: 'table_stats: worst latencies, tombstones, live cells, largest table, busiest tables and worst partition of 10.101.33.205',
    note: 'only config[0] (10.101.33.205) is asserted; the worst/busiest picks are sperf\'s strict ">" over our per-table figures',
  },
  {
    id: 'tests/core/test_gc.py::TestCoreGC::test_gcinspector',
    feature: 'core gc',
    dse: 'N-DF',
    status: 'asserted',
    it: 'gcinspector: 236 GC pauses over the 3 nodes, each node read from system.log + debug.log',
    note: "sperf's per-hour glyph row is its own rendering, not compared",
  },
  {
    id: 'tests/core/test_schema.py::TestSchema::test_read_schema',
    feature: 'core schema',
    dse: 'P',
    status: 'asserted',
    it: 'schema: 10.101.33.205 — 15 keyspaces, 61 tables, 1 index, 0 views, 6 types, 1 Solr index on 1 table',
    note: 'the Solr index is read as a custom index whose class names Solr',
  },
  {
    id: 'tests/core/test_schema.py::TestSchema::test_schema_report',
    feature: 'core schema',
    dse: 'P',
    status: 'internal',
    note: 'report formatting of a dict',
  },
  {
    id: 'tests/core/test_slowquery.py::TestSlowQueryRegex::test_begin_timeout',
    feature: 'core slowquery',
    dse: 'N',
    status: 'asserted',
    it: 'slowquery: timed-out header — 1 operation at 2020-07-22 13:39:05,889',
    note: INLINE,
  },
  {
    id: 'tests/core/test_slowquery.py::TestSlowQueryRegex::test_slow_query',
    feature: 'core slowquery',
    dse: 'N',
    status: 'asserted',
    it: 'slowquery: slow line — query text and 1490 ms',
    note: INLINE,
  },
  {
    id: 'tests/core/test_slowquery.py::TestSlowQueryRegex::test_timeout',
    feature: 'core slowquery',
    dse: 'N',
    status: 'asserted',
    it: 'slowquery: timed-out line — query text, 10058 ms against 10000 ms',
    note: INLINE,
  },
  {
    id: 'tests/core/test_slowquery.py::TestSlowQueryLineParse::test_slow',
    feature: 'core slowquery',
    dse: 'N',
    status: 'asserted',
    it: 'slowquery: a slow report of 161 with 2 lines — 1490 and 1431 ms at 2020-01-10 17:01:56.039',
    note: INLINE,
  },
  {
    id: 'tests/core/test_slowquery.py::TestSlowQueryLineParse::test_slow_back_back',
    feature: 'core slowquery',
    dse: 'N',
    status: 'asserted',
    it: 'slowquery: two slow reports back to back — 1490, 1431, then 490, 431 ms at 17:02:56.039',
    note: INLINE,
  },
  {
    id: 'tests/core/test_slowquery.py::TestSlowQueryLineParse::test_timeout',
    feature: 'core slowquery',
    dse: 'N',
    status: 'asserted',
    it: 'slowquery: a timed-out report — 1 operation, 10058 ms against 10000 ms',
    note: INLINE,
  },
  {
    id: 'tests/core/test_statuslogger.py::TestStatusLogger::test_68_debug_log_format',
    feature: 'core statuslogger',
    dse: 'Y',
    status: 'asserted',
    it: SL68_IT,
    note: SL68,
  },
  {
    id: 'tests/core/test_statuslogger.py::TestStatusLogger::test_68_system_log_format',
    feature: 'core statuslogger',
    dse: 'Y',
    status: 'asserted',
    it: SL68_IT,
    note: SL68,
  },
  {
    id: 'tests/core/test_statuslogger.py::TestStatusLogger::test_db2552_debug_log_format',
    feature: 'core statuslogger',
    dse: 'Y',
    status: 'asserted',
    it: 'statuslogger: DSE 6.0-6.7 table — busiest pending pool TPC/all/WRITE_REMOTE 13094, in system.log and debug.log',
    note: SL67,
  },
  {
    id: 'tests/core/test_statuslogger.py::TestStatusLogger::test_db2552_system_log_format',
    feature: 'core statuslogger',
    dse: 'Y',
    status: 'asserted',
    it: 'statuslogger: DSE 6.0-6.7 table — busiest pending pool TPC/all/WRITE_REMOTE 13094, in system.log and debug.log',
    note: SL67,
  },
  {
    id: 'tests/core/test_statuslogger.py::TestStatusLogger::test_should_count_ops',
    feature: 'core statuslogger',
    dse: 'P',
    status: 'gap',
    note:
      'the per-table section of StatusLogger (memtable ops, data) is not read: no busiest table by ops (sperf: keyspace1.standard1, 5931 ops, 75690238 ' +
      'bytes)',
  },
  {
    id: 'tests/core/test_statuslogger.py::TestStatusLogger::test_skip_duplicate_events_diag',
    feature: 'core statuslogger',
    dse: 'Y',
    status: 'dse-only',
    note:
      "busiest stage of DSE 6.7 TPC StatusLogger tables and sperf's own line counts (22055 lines, 445 skipped); the GC pauses of the same logs are " +
      'compared under test_gcinspector',
  },
  {
    id: 'tests/parser/test_block_dev.py::TestBlockDev::test_capture_device_line',
    feature: 'core diag',
    dse: 'N',
    status: 'asserted',
    it: 'block_dev: a device row — rw, RA 8, SSZ 512, BSZ 4096, start 0, 800166076416 bytes, /dev/sdb',
    note: INLINE,
  },
  {
    id: 'tests/parser/test_block_dev.py::TestBlockDev::test_ignores_default_blockdev_error',
    feature: 'core diag',
    dse: 'N',
    status: 'asserted',
    it: 'block_dev: sudo and exit-status lines of a failed run are not rows',
    note: INLINE,
  },
  {
    id: 'tests/parser/test_block_dev.py::TestBlockDev::test_ignores_header',
    feature: 'core diag',
    dse: 'N',
    status: 'asserted',
    it: 'block_dev: the header is not a row',
    note: INLINE,
  },
  {
    id: 'tests/parser/test_block_dev.py::TestBlockDev::test_parse_file',
    feature: 'core diag',
    dse: 'N',
    status: 'asserted',
    it: 'block_dev: 10.101.33.205 blockdev_report — 4 rows, the first with RA 256',
    note: SAME_INPUT,
  },
  {
    id: 'tests/parser/test_cfstats.py::TestCfStats::test_parse_cfstats',
    feature: 'core diag / sperf (cfstats)',
    dse: 'N',
    status: 'asserted',
    it: 'cfstats: inline — 2 keyspaces, SSTable counts 20/2/10, 5 tombstones per slice, read latency NaN, write 0.050 ms',
    note: 'NaN is read as null (no figure)',
  },
  {
    id: 'tests/parser/test_cfstats.py::TestCfStats::test_parse_cfstats_unable_to_parse_index',
    feature: 'cfstats',
    dse: 'N',
    status: 'asserted',
    it: 'cfstats: an index table name with dots keeps its SSTable count 10',
    note: INLINE,
  },
  {
    id: 'tests/parser/test_cfstats.py::TestCfStats::test_read_cfstats_file',
    feature: 'cfstats',
    dse: 'N-DF',
    status: 'asserted',
    it: 'cfstats: 10.101.33.205 — my_solr.my_table counts and latencies, system.local 2 SSTables',
    note: SAME_INPUT,
  },
  {
    id: 'tests/parser/test_cfstats.py::TestCfStats::test_spaceless_keyspace_line_cfstats_format',
    feature: 'cfstats',
    dse: 'N',
    status: 'asserted',
    it: 'cfstats: "Keyspace: abc" without a space before the colon',
    note: INLINE,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_1_thread_per_core_long_format',
    feature: 'core diag',
    dse: 'Y',
    status: 'asserted',
    it: 'outputlog: DseConfig "N thread(s) per CPU core and M total CPU threads", long and short line formats',
    note: DSECONFIG,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_parse_1_thread_per_core_short_format',
    feature: 'core diag',
    dse: 'Y',
    status: 'asserted',
    it: 'outputlog: DseConfig "N thread(s) per CPU core and M total CPU threads", long and short line formats',
    note: DSECONFIG,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_parse_disk_access_mode_48',
    feature: 'core diag',
    dse: 'N',
    status: 'asserted',
    it: ACCESS_IT,
    note: ACCESS_MODE,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_parse_disk_access_mode_50',
    feature: 'core diag',
    dse: 'N',
    status: 'asserted',
    it: ACCESS_IT,
    note: ACCESS_MODE,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_parse_disk_access_mode_51',
    feature: 'core diag',
    dse: 'N',
    status: 'asserted',
    it: ACCESS_IT,
    note: ACCESS_MODE,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_parse_disk_access_mode_60',
    feature: 'core diag',
    dse: 'Y',
    status: 'asserted',
    it: ACCESS_IT,
    note: 'commitlogAccessMode exists only in DSE 6; read all the same',
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_parse_threads_per_core',
    feature: 'core diag',
    dse: 'Y',
    status: 'asserted',
    it: 'outputlog: DseConfig "N thread(s) per CPU core and M total CPU threads", long and short line formats',
    note: DSECONFIG,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_parse_threads_per_core_old_format',
    feature: 'core diag',
    dse: 'Y',
    status: 'dse-only',
    note: DSECONFIG_OLD,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_parse_threads_per_core_old_format_with_2_cores',
    feature: 'core diag',
    dse: 'Y',
    status: 'dse-only',
    note: DSECONFIG_OLD,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_parse_threads_per_core_short_format',
    feature: 'core diag',
    dse: 'Y',
    status: 'asserted',
    it: 'outputlog: DseConfig "N thread(s) per CPU core and M total CPU threads", long and short line formats',
    note: DSECONFIG,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_parser_output_log',
    feature: 'core diag',
    dse: 'P',
    status: 'asserted',
    it: 'outputlog: output.log — heap 3759M, G1, 8 CPU threads, 1 thread per core, 15038 MB, every access mode standard',
    note: 'heap, GC, CPU threads, threads per core, RAM and the three access modes; the RAM figure comes from a dse.* property',
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_versions_cassandra_21',
    feature: 'versions (core diag / sperf)',
    dse: 'N',
    status: 'asserted',
    it: 'versions: Apache Cassandra 2.1.21, 2.2.15, 3.0.19 and 3.11.5 from their system.log',
    note: APACHE_LOGS,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_versions_cassandra_22',
    feature: 'versions',
    dse: 'N',
    status: 'asserted',
    it: 'versions: Apache Cassandra 2.1.21, 2.2.15, 3.0.19 and 3.11.5 from their system.log',
    note: APACHE_LOGS,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_versions_cassandra_30',
    feature: 'versions',
    dse: 'N',
    status: 'asserted',
    it: 'versions: Apache Cassandra 2.1.21, 2.2.15, 3.0.19 and 3.11.5 from their system.log',
    note: APACHE_LOGS,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_versions_cassandra_311',
    feature: 'versions',
    dse: 'N',
    status: 'asserted',
    it: 'versions: Apache Cassandra 2.1.21, 2.2.15, 3.0.19 and 3.11.5 from their system.log',
    note: APACHE_LOGS,
  },
  {
    id: 'tests/parser/test_outputlog.py::TestOutputLog::test_versions_from_output_log',
    feature: 'versions',
    dse: 'Y',
    status: 'dse-only',
    note: 'DSE 6.7.7 is read (startup.dseVersion); Solr, Spark and Spark-connector versions are not',
  },
  { id: 'tests/parser/test_systemlog.py::TestSystemParser::test_60_format', feature: 'core statuslogger', dse: 'Y', status: 'dse-only', note: TPC_ROW },
  { id: 'tests/parser/test_systemlog.py::TestSystemParser::test_68_format', feature: 'core statuslogger', dse: 'Y', status: 'dse-only', note: TPC_ROW },
  {
    id: 'tests/parser/test_systemlog.py::TestSystemParser::test_filtercache_parsing',
    feature: 'search filtercache',
    dse: 'Y',
    status: 'dse-only',
    note: SEARCH,
  },
  {
    id: 'tests/search/test_filtercache.py::TestFilterCache::test_calculate_eviction_stats',
    feature: 'search filtercache',
    dse: 'Y',
    status: 'dse-only',
    note: SEARCH,
  },
  {
    id: 'tests/search/test_filtercache.py::TestFilterCache::test_generate_recommendations_with_2_recs',
    feature: 'search filtercache',
    dse: 'Y',
    status: 'dse-only',
    note: SEARCH,
  },
  {
    id: 'tests/search/test_filtercache.py::TestFilterCache::test_generate_recommmendations_with_no_recs',
    feature: 'search filtercache',
    dse: 'Y',
    status: 'dse-only',
    note: SEARCH,
  },
  {
    id: 'tests/search/test_filtercache.py::TestFilterCache::test_generate_report_with_1_rec',
    feature: 'search filtercache',
    dse: 'Y',
    status: 'dse-only',
    note: SEARCH,
  },
  { id: 'tests/search/test_queryscore.py::TestQueryScore::test_generate_report', feature: 'search queryscore', dse: 'Y', status: 'dse-only', note: SEARCH },
  {
    id: 'tests/search/test_queryscore.py::TestQueryScore::test_get_bad_query_summary',
    feature: 'search queryscore',
    dse: 'Y',
    status: 'dse-only',
    note: SEARCH,
  },
  {
    id: 'tests/search/test_queryscore.py::TestQueryScore::test_get_queries_above_threshold',
    feature: 'search queryscore',
    dse: 'Y',
    status: 'dse-only',
    note: SEARCH,
  },
  { id: 'tests/search/test_queryscore.py::TestQueryScore::test_get_title', feature: 'search queryscore', dse: 'Y', status: 'dse-only', note: SEARCH },
  { id: 'tests/test_bgrep.py::TestBgrep::test_bgrep', feature: 'core bgrep', dse: 'N-DF', status: 'gap', note: BGREP },
  { id: 'tests/test_bgrep.py::TestBgrep::test_bgrep_when_statuslogger_lines_present', feature: 'core bgrep', dse: 'N-DF', status: 'gap', note: BGREP },
  { id: 'tests/test_bgrep.py::TestBgrep::test_no_matches', feature: 'core bgrep', dse: 'N-DF', status: 'gap', note: BGREP },
  { id: 'tests/test_bgrep.py::TestBgrep::test_nodate', feature: 'core bgrep', dse: 'N-DF', status: 'gap', note: BGREP },
  { id: 'tests/test_dates.py::TestDates::test_european_dates', feature: 'internal: dates', dse: 'N', status: 'internal', note: DATES },
  { id: 'tests/test_dates.py::TestDates::test_european_dates_with_comma_for_ms', feature: 'dates', dse: 'N', status: 'internal', note: DATES },
  { id: 'tests/test_dates.py::TestDates::test_european_dates_with_permissive_time', feature: 'dates', dse: 'N', status: 'internal', note: DATES },
  { id: 'tests/test_dates.py::TestDates::test_us_dates', feature: 'dates', dse: 'N', status: 'internal', note: DATES },
  { id: 'tests/test_dates.py::TestDates::test_us_dates_with_comma_for_ms', feature: 'dates', dse: 'N', status: 'internal', note: DATES },
  { id: 'tests/test_dates.py::TestDates::test_us_dates_with_permissive_time', feature: 'dates', dse: 'N', status: 'internal', note: DATES },
  {
    id: 'tests/test_diag.py::TestDiagModule::test_core_diag_integtration',
    feature: 'core diag',
    dse: 'Y',
    status: 'dse-only',
    note: 'whole core diag report: OpsCenter node_info.json groups, DSE/Solr/Spark versions, DseConfig lines',
  },
  { id: 'tests/test_diag.py::TestDiagModule::test_find_files_by_diag_dir', feature: 'core diag', dse: 'N', status: 'internal', note: FIND_FILES },
  { id: 'tests/test_diag.py::TestDiagModule::test_find_files_by_files_param', feature: 'core diag', dse: 'N', status: 'internal', note: FIND_FILES },
  {
    id: 'tests/test_diag.py::TestDiagModule::test_parse_diag',
    feature: 'core diag',
    dse: 'P',
    status: 'dse-only',
    note: 'nodes grouped by OpsCenter node_info.json; the cfstats figures of one node are compared under test_add_stats_to_config',
  },
  { id: 'tests/test_diag.py::TestDiagModule::test_parse_diag_reports_missing_files', feature: 'core diag', dse: 'P', status: 'dse-only', note: OPSC_MISSING },
  { id: 'tests/test_diag.py::TestDiagModule::test_parse_diag_reports_no_files_found', feature: 'core diag', dse: 'P', status: 'dse-only', note: OPSC_MISSING },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_millis_1000', feature: 'internal: humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_millis_999', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_millis_days', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_millis_hours', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_millis_minutes', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_millis_years', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  {
    id: 'tests/test_humanize.py::TestHumanizeTime::test_format_millis_years_with_separators',
    feature: 'humanize',
    dse: 'N',
    status: 'internal',
    note: HUMANIZE,
  },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_seconds_59', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_seconds_days', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_seconds_hours', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_seconds_minutes', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeTime::test_format_seconds_years', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  {
    id: 'tests/test_humanize.py::TestHumanizeTime::test_format_seconds_years_with_separators',
    feature: 'humanize',
    dse: 'N',
    status: 'internal',
    note: HUMANIZE,
  },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_1000_gb', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_1000_mb', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_1000_pb', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_1000_tb', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_1023', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_1024', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_999', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_999point5', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_gb', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_mb', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_none', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeBytes::test_format_bytes_tb', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestFormatRawNumbers::test_format_num', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestFormatRawNumbers::test_format_num_float', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestTablePadding::test_find_last_valid_col', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestTablePadding::test_pad_table', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestTablePadding::test_pad_table_headers', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  {
    id: 'tests/test_humanize.py::TestTablePadding::test_pad_table_should_always_trim_last_col',
    feature: 'humanize',
    dse: 'N',
    status: 'internal',
    note: HUMANIZE,
  },
  {
    id: 'tests/test_humanize.py::TestTablePadding::test_pad_table_with_min_width_and_padding',
    feature: 'humanize',
    dse: 'N',
    status: 'internal',
    note: HUMANIZE,
  },
  { id: 'tests/test_humanize.py::TestFromHumanToRawBytes::test_to_bytes', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeFormatList::test_format_list_with_1_element', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  { id: 'tests/test_humanize.py::TestHumanizeFormatList::test_format_list_with_2_elements', feature: 'humanize', dse: 'N', status: 'internal', note: HUMANIZE },
  {
    id: 'tests/test_humanize.py::TestHumanizeFormatList::test_format_list_with_many_elements',
    feature: 'humanize',
    dse: 'N',
    status: 'internal',
    note: HUMANIZE,
  },
  {
    id: 'tests/test_humanize.py::TestHumanizeFormatList::test_format_list_with_no_elements',
    feature: 'humanize',
    dse: 'N',
    status: 'internal',
    note: HUMANIZE,
  },
  { id: 'tests/test_jarcheck.py::TestJarCheck::test_read_line_output', feature: 'core jarcheck', dse: 'N-DF', status: 'gap', note: CLASSPATH },
  { id: 'tests/test_jarcheck.py::TestJarCheck::test_run_jarcheck_diff_only', feature: 'core jarcheck', dse: 'N-DF', status: 'gap', note: CLASSPATH },
  { id: 'tests/test_jarcheck.py::TestJarCheck::test_run_jarcheck_found_no_files', feature: 'core jarcheck', dse: 'N', status: 'internal', note: JARCHECK_CLI },
  { id: 'tests/test_jarcheck.py::TestJarCheck::test_run_jarcheck_with_empty_file', feature: 'core jarcheck', dse: 'N', status: 'internal', note: JARCHECK_CLI },
  {
    id: 'tests/test_parser.py::TestParser::test_parses_all_matches',
    feature: 'internal: log parser',
    dse: 'N-DF',
    status: 'asserted',
    it: 'parser: simple.log holds 2 entries, a WARN then an ERROR, the stack traces being continuation lines',
    note: SAME_FILE,
  },
  {
    id: 'tests/test_recs.py::TestRecs::test_compactions_behind',
    feature: 'core statuslogger (recs)',
    dse: 'N',
    status: 'asserted',
    it: 'recs: 101 compaction tasks pending is flagged, 0 is not (tpstats)',
    note:
      'sperf keys this rule on "CompactionManger", a pool name no Cassandra prints (pysper/recs.py:90), so it never fires on a real log; here the pool ' +
      'is CompactionExecutor, the one tpstats prints',
  },
  {
    id: 'tests/test_recs.py::TestRecs::test_filter_cache_analysis_frequent_evictions',
    feature: 'search filtercache (recs)',
    dse: 'Y',
    status: 'dse-only',
    note: SEARCH_TPC_RECS,
  },
  {
    id: 'tests/test_recs.py::TestRecs::test_filter_cache_analysis_frequent_long_evictions',
    feature: 'filtercache recs',
    dse: 'Y',
    status: 'dse-only',
    note: SEARCH_TPC_RECS,
  },
  {
    id: 'tests/test_recs.py::TestRecs::test_filter_cache_analysis_long_duration_evictions',
    feature: 'filtercache recs',
    dse: 'Y',
    status: 'dse-only',
    note: SEARCH_TPC_RECS,
  },
  { id: 'tests/test_recs.py::TestRecs::test_filter_cache_analysis_none_set', feature: 'filtercache recs', dse: 'Y', status: 'dse-only', note: SEARCH_TPC_RECS },
  { id: 'tests/test_recs.py::TestRecs::test_filter_cache_analysis_zero_set', feature: 'filtercache recs', dse: 'Y', status: 'dse-only', note: SEARCH_TPC_RECS },
  { id: 'tests/test_recs.py::TestRecs::test_full_memtable', feature: 'statuslogger recs', dse: 'Y', status: 'dse-only', note: SEARCH_TPC_RECS },
  { id: 'tests/test_recs.py::TestRecs::test_full_memtable_completed', feature: 'statuslogger recs', dse: 'Y', status: 'dse-only', note: SEARCH_TPC_RECS },
  {
    id: 'tests/test_recs.py::TestRecs::test_high_pending_mutations',
    feature: 'statuslogger recs',
    dse: 'N',
    status: 'gap',
    note:
      'deliberate: threadpool.pending flags every pool from 10 pending (critical from 100, knowledge/threadpools.yaml), so MutationStage 9999 is ' +
      'critical where sperf says nothing below 10001',
  },
  { id: 'tests/test_recs.py::TestRecs::test_high_pending_write_local', feature: 'statuslogger recs', dse: 'Y', status: 'dse-only', note: TPC_SEARCH_RECS },
  { id: 'tests/test_recs.py::TestRecs::test_high_pending_write_remote', feature: 'statuslogger recs', dse: 'Y', status: 'dse-only', note: TPC_SEARCH_RECS },
  {
    id: 'tests/test_recs.py::TestRecs::test_limit_eviction_limit_already_reached',
    feature: 'filtercache recs',
    dse: 'Y',
    status: 'dse-only',
    note: TPC_SEARCH_RECS,
  },
  {
    id: 'tests/test_recs.py::TestRecs::test_memtable_flush_writer_blocked',
    feature: 'statuslogger recs',
    dse: 'N',
    status: 'asserted',
    it: 'recs: MemtableFlushWriter with 1 blocked task is flagged, 0 is not (tpstats)',
    note: "the finding, not sperf's wording, is compared",
  },
  {
    id: 'tests/test_recs.py::TestRecs::test_memtable_flush_writer_pending',
    feature: 'statuslogger recs',
    dse: 'N',
    status: 'gap',
    note: 'deliberate: threadpool.pending warns from 10 for every pool, so MemtableFlushWriter pending 6 is not flagged (sperf: over 5)',
  },
  {
    id: 'tests/test_recs.py::TestRecs::test_ntr_all_time_blocked',
    feature: 'statuslogger recs',
    dse: 'N',
    status: 'asserted',
    it: 'recs: Native-Transport-Requests 101 all-time blocked is flagged, 0 is not (tpstats)',
    note: 'we already warn from 1 all-time blocked; 101 is critical',
  },
  {
    id: 'tests/test_recs.py::TestRecs::test_ntr_blocked',
    feature: 'statuslogger recs',
    dse: 'N',
    status: 'asserted',
    it: 'recs: Native-Transport-Requests 11 blocked is flagged, 0 is not (tpstats)',
    note: 'critical from 11, as sperf',
  },
  {
    id: 'tests/test_recs.py::TestRecs::test_tpc_backpressure',
    feature: 'statuslogger recs',
    dse: 'Y',
    status: 'dse-only',
    note: 'TPC local backpressure (DSE)',
  },
  {
    id: 'tests/test_schema.py::TestSchema::test_sperf',
    feature: 'core schema',
    dse: 'P',
    status: 'asserted',
    it: 'schema: 10.101.33.205 — 15 keyspaces, 61 tables, 1 index, 0 views, 6 types, 1 Solr index on 1 table',
    note: 'sperf prints the first node in sorted order, 10.101.33.205',
  },
  {
    id: 'tests/test_schema.py::TestSchema::test_sperf_68',
    feature: 'core schema',
    dse: 'N-DF',
    status: 'asserted',
    it: 'schema: DSE 6.8 node — 13 keyspaces, 36 tables, no index, no view, 6 types',
    note: SAME_FILE,
  },
  {
    id: 'tests/test_slowquery.py::TestSperfDefault::test_sperf',
    feature: 'core slowquery',
    dse: 'N-DF',
    status: 'asserted',
    it: 'slowquery: DSE_CLUSTER debug.log — 75 total, 48 cross-node, 0 timeouts, top 1688, 1535, 1522 ms',
    note: 'totals and top 3; sperf\'s per-hour glyph row and "worst period" sum are its own rendering',
  },
  {
    id: 'tests/test_slowquery.py::TestSperfDefault::test_sperf_68',
    feature: 'core slowquery',
    dse: 'N-DF',
    status: 'asserted',
    it: 'slowquery: DSE 6.8 debug.log — 8 total, 0 cross-node, 7 timeouts, top 10058, 10006, 10006 ms',
    note: 'totals and top 3 (the two 10006 ms queries tie: their order is not compared)',
  },
  {
    id: 'tests/test_sperf_default.py::TestSperfDefaultIntegration::test_empty_recommendations',
    feature: 'sperf (default)',
    dse: 'N',
    status: 'internal',
    note: 'generate_recommendations of an empty input returns nothing',
  },
  { id: 'tests/test_sperf_default.py::TestSperfDefaultIntegration::test_sperf', feature: 'sperf (default)', dse: 'Y', status: 'dse-only', note: WHOLE_REPORT },
  {
    id: 'tests/test_sperf_default.py::TestSperfDefaultIntegration::test_sperf_68',
    feature: 'sperf (default)',
    dse: 'Y',
    status: 'dse-only',
    note: WHOLE_REPORT,
  },
  { id: 'tests/test_statuslogger.py::TestSperf::test_sperf', feature: 'core statuslogger', dse: 'Y', status: 'dse-only', note: WHOLE_REPORT },
  { id: 'tests/test_statuslogger.py::TestSperf::test_sperf_68', feature: 'core statuslogger', dse: 'Y', status: 'dse-only', note: WHOLE_REPORT },
  {
    id: 'tests/test_sysbottle.py::TestSysBottle::test_date_format',
    feature: 'sysbottle',
    dse: 'N',
    status: 'gap',
    note: 'iostat -t stamps are kept as printed ("06/06/2019 11:44:01 AM"), not read as dates, so the three layouts are not told apart',
  },
  {
    id: 'tests/test_sysbottle.py::TestSysBottle::test_sysbottle_analyze',
    feature: 'sysbottle',
    dse: 'N',
    status: 'asserted',
    it: 'sysbottle: iostat — 10 reports, 1 device, CPU figures in each report',
    note: HOST_FILE,
  },
  {
    id: 'tests/test_ttop.py::TestTTop::test_collate_threads',
    feature: 'ttop',
    dse: 'N',
    status: 'gap',
    it: 'ttop: collate — 16 query workers in one pool, their CPU and allocation summed',
    note:
      'pools sum threads (16), allocation (160 b/s) and user+sys CPU (96 %) but keep no separate user and sys share (sperf: user 64, sys 32); the it ' +
      'shows ours',
  },
  {
    id: 'tests/test_ttop.py::TestTTop::test_ttop_allocation_report',
    feature: 'ttop `-a`',
    dse: 'N-DF',
    status: 'asserted',
    it: 'ttop: allocation report of the 16:08:46 sample — total 3.24 mb, 14 pools from CoreThread 2.15 mb down to 0',
    note: HOST_FILE,
  },
  {
    id: 'tests/test_ttop.py::TestTTop::test_ttop_report',
    feature: 'ttop',
    dse: 'N-DF',
    status: 'asserted',
    it: 'ttop: CPU report of the 16:08:06 sample — 16 pools from ParkedThreadsMonitor 23.52 % down to 0.00',
    note: HOST_FILE,
  },
  { id: 'tests/test_util.py::TestUtil::test_bucketize', feature: 'internal: util (bgrep)', dse: 'N', status: 'internal', note: UTIL },
  { id: 'tests/test_util.py::TestUtil::test_extract_node_name', feature: 'util', dse: 'N', status: 'internal', note: UTIL },
  { id: 'tests/test_util.py::TestUtil::test_get_percentile_headers', feature: 'util', dse: 'N', status: 'internal', note: UTIL },
  { id: 'tests/test_util.py::TestUtil::test_get_percentiles', feature: 'util', dse: 'N', status: 'internal', note: UTIL },
  { id: 'tests/test_util.py::TestUtil::test_get_percentiles_reverse', feature: 'util', dse: 'N', status: 'internal', note: UTIL },
  { id: 'tests/test_util.py::TestUtil::test_write_underline', feature: 'util', dse: 'N', status: 'internal', note: UTIL },
  { id: 'tests/test_util.py::TestUtil::test_write_underline_empty', feature: 'util', dse: 'N', status: 'internal', note: UTIL },
  { id: 'tests/test_util.py::TestUtil::test_write_underline_single', feature: 'util', dse: 'N', status: 'internal', note: UTIL },
];
