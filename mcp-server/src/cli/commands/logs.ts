import { Command } from 'commander';
import { analyzeLogFiles, logsInputFits } from '../../ops/analyze-logs.js';
import { parseFlags } from '../validate-flags.js';
import { renderLogsReport } from '../../render/logs-report.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { OpError } from '../../ops/errors.js';

export function logsCommand(): Command {
  return new Command('logs')
    .description('stream log files of one node (system.log, debug.log, gc.log, Scylla journal; .gz too) and report what they show')
    .argument('<files...>', 'log files of the same node')
    .option('--node <name>', 'node name or address for the report')
    .option('--json', 'print facts and findings as JSON')
    .option('--grep <pattern>', 'instead: count the lines holding this text (with --regex an RE2 regular expression), per time bucket')
    .option('--regex', 'with --grep: the pattern is an RE2 regular expression (linear time; no backreferences or lookaround)')
    .option('--case-sensitive', 'with --grep: match case (ignored by default, as sperf bgrep does)')
    .option('--bucket <seconds>', 'with --grep: bucket size in seconds (default 3600)')
    .action(async (files: string[], o: { node?: string; json?: boolean; grep?: string; regex?: boolean; caseSensitive?: boolean; bucket?: string }) => {
      const abort = abortOnSignal();
      try {
        const grepOnly = [o.regex && '--regex', o.caseSensitive && '--case-sensitive', o.bucket !== undefined && '--bucket'].filter(
          (x) => typeof x === 'string',
        );
        if (o.grep === undefined && grepOnly.length)
          throw new OpError(
            'BAD_ARGUMENT',
            `${grepOnly.join(', ')} only apply to a search`,
            'Add --grep <pattern> (e.g. --grep "Timed out" --regex), or drop them.',
          );
        if (o.grep !== undefined) {
          const { grepLogFiles, grepLogsInputSchema } = await import('../../ops/log-grep.js');
          const given = {
            paths: files,
            pattern: o.grep,
            regex: o.regex === true,
            caseSensitive: o.caseSensitive === true,
            ...(o.bucket !== undefined ? { bucketSeconds: Number(o.bucket) } : {}),
          };
          const input = parseFlags('logs', grepLogsInputSchema, given, { paths: '<files>', pattern: '--grep', bucketSeconds: '--bucket' });
          const r = await grepLogFiles(input.paths, input, { signal: abort.signal });
          if (o.json) printJson(r);
          else printText((await import('../../render/log-grep.js')).renderLogGrep(r));
          return;
        }
        const given = { paths: files, node: o.node };
        const input = logsInputFits(given)
          ? given
          : parseFlags('logs', (await import('../../ops/analyze-logs-input.js')).analyzeLogsCliInputSchema, given, { paths: '<files>' });
        // the CLI does nothing else while it reads: blocking reads, no thread-pool round trip per chunk
        const r = await analyzeLogFiles(input.paths, { ...(input.node ? { node: input.node } : {}), signal: abort.signal, blocking: true });
        if (o.json) printJson(r);
        else printText(renderLogsReport(r));
        if (r.findings.some((f) => f.severity === 'critical')) process.exitCode = 1;
      } catch (e) {
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}
