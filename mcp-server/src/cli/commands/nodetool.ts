import { Command } from 'commander';
import { NODETOOL_ALLOW_LIST, NODETOOL_SUBCOMMANDS } from '../../core/nodetool-commands.js';
import { isOpError } from '../../ops/errors.js';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { runNodetool } from '../../ops/nodetool.js';
import { renderNodetoolReport } from '../../render/nodetool.js';
import { failWith, printJson, printText } from '../output.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { progressLine } from '../progress-line.js';
import { intArg } from '../arg-parsers.js';

export function nodetoolCommand(): Command {
  return new Command('nodetool')
    .description('run one read-only nodetool subcommand against a node and show parsed facts')
    .argument('<subcommand>', `one of: ${NODETOOL_SUBCOMMANDS.join(', ')}`)
    .argument('[keyspace]', 'keyspace (status, ring, tablestats, tablehistograms)')
    .argument('[table]', 'table (tablestats, tablehistograms)')
    .option('--host <host>', 'JMX host', '127.0.0.1')
    .option('-p, --port <port>', 'JMX port', intArg('port'), 7199)
    .option('-H, --human-readable', 'sizes with units where supported')
    .option('--nodetool <path>', 'absolute path of the nodetool to use')
    .option('--timeout <ms>', 'timeout in milliseconds', intArg('timeout'), 60_000)
    .option('--raw', 'print the raw nodetool output instead of the summary')
    .option('--json', 'print the full report as JSON')
    .addHelpText('after', `\nAllowed subcommands:\n${NODETOOL_SUBCOMMANDS.map((s) => `  ${s.padEnd(24)} ${NODETOOL_ALLOW_LIST[s].summary}`).join('\n')}\n\nJMX credentials: CQL_TUNER_JMX_USERNAME, CQL_TUNER_JMX_PASSWORD (or _PASSWORD_FILE), CQL_TUNER_JMX_SSL=1.`)
    .action(async (subcommand: string, keyspace: string | undefined, table: string | undefined, o: { host: string; port: number; humanReadable?: boolean; nodetool?: string; timeout: number; raw?: boolean; json?: boolean }) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        // --host is the user's own flag: JMX credentials may go there for this run.
        const report = await withCommandLineHosts([o.host], () =>
          runNodetool(
            { subcommand, host: o.host, port: o.port, keyspace, table, humanReadable: o.humanReadable, nodetoolPath: o.nodetool, timeoutMs: o.timeout, raw: o.raw === true || o.json === true },
            { onProgress: progress, signal: abort.signal },
          ),
        );
        progress.done();
        if (o.json) printJson(report);
        else if (o.raw && report.output.raw !== undefined) printText(report.output.raw);
        else printText(renderNodetoolReport(report));
        if (!report.ok) process.exitCode = 1;
      } catch (e) {
        progress.done();
        failWith(e, o, isOpError(e) ? 2 : 1);
      }
    });
}
