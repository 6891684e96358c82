import { Command } from 'commander';
import { z } from 'zod';
import { NODETOOL_ALLOW_LIST, NODETOOL_SUBCOMMANDS } from '../../core/nodetool-commands.js';
import { isOpError } from '../../ops/errors.js';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { nodetoolInputSchema, runNodetool } from '../../ops/nodetool.js';
import { renderNodetoolReport } from '../../render/nodetool.js';
import { failWith, printJson, printText } from '../output.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { progressLine } from '../progress-line.js';
import { cliNumber, parseFlags } from '../validate-flags.js';

/**
 * The tool's schema, with the subcommand left to the operation's allow-list (NOT_ALLOWED, naming the list): the
 * user at a terminal may also run the allow-listed subcommands that reset a node's counters (gcstats), which the
 * MCP tool's enum refuses so that an assistant's call never changes what the next reading shows.
 */
const nodetoolCliSchema = nodetoolInputSchema.extend({ subcommand: z.string().max(64) });

interface NodetoolFlags {
  host: string;
  port: string;
  humanReadable?: boolean;
  nodetool?: string;
  timeout: string;
  raw?: boolean;
  json?: boolean;
}

export function nodetoolCommand(): Command {
  return new Command('nodetool')
    .description('run one read-only nodetool subcommand against a node and show parsed facts')
    .argument('<subcommand>', `one of: ${NODETOOL_SUBCOMMANDS.join(', ')}`)
    .argument('[keyspace]', 'keyspace (status, ring, tablestats, tablehistograms)')
    .argument('[table]', 'table (tablestats, tablehistograms)')
    .option('--host <host>', 'JMX host', '127.0.0.1')
    .option('-p, --port <port>', 'JMX port', '7199')
    .option('-H, --human-readable', 'sizes with units where supported')
    .option('--nodetool <path>', 'absolute path of the nodetool to use')
    .option('--timeout <ms>', 'timeout in milliseconds, 1000 to 600000', '60000')
    .option('--raw', 'print the raw nodetool output instead of the summary')
    .option('--json', 'print the full report as JSON')
    .addHelpText(
      'after',
      `\nAllowed subcommands:\n${NODETOOL_SUBCOMMANDS.map((s) => `  ${s.padEnd(24)} ${NODETOOL_ALLOW_LIST[s].summary}`).join('\n')}\n\nJMX credentials: CQL_TUNER_JMX_USERNAME, CQL_TUNER_JMX_PASSWORD (or _PASSWORD_FILE), CQL_TUNER_JMX_SSL=1.`,
    )
    .action(async (subcommand: string, keyspace: string | undefined, table: string | undefined, o: NodetoolFlags) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        const input = parseFlags(
          'nodetool',
          nodetoolCliSchema,
          {
            subcommand,
            host: o.host,
            port: cliNumber(o.port),
            keyspace,
            table,
            humanReadable: o.humanReadable === true,
            nodetoolPath: o.nodetool,
            timeoutMs: cliNumber(o.timeout),
            raw: o.raw === true || o.json === true,
          },
          { subcommand: '<subcommand>', keyspace: '[keyspace]', table: '[table]', nodetoolPath: '--nodetool', timeoutMs: '--timeout' },
        );
        // --host is the user's own flag: JMX credentials may go there for this run.
        const report = await withCommandLineHosts([input.host], () => runNodetool(input, { onProgress: progress, signal: abort.signal }));
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
