// The root `cql-tuner` command and how every CLI run parses and exits, shared by the whole program (main.ts) and
// the one-verb programs the entry builds for a known verb (verbs.ts), so both behave byte for byte the same.
import { Command } from 'commander';
import { CQL_TUNER_VERSION } from '../version.js';
import { printJson } from './output.js';
import { exitWhenFlushed, quietOnClosedPipe } from './exit.js';
import { exitCodesHelp } from './exit-codes.js';

/** The root command without its verbs. */
export function rootCommand(): Command {
  return (
    new Command('cql-tuner')
      .description('Cassandra / ScyllaDB performance engineering: measured diagnosis from real tools')
      .version(CQL_TUNER_VERSION)
      // Options after a verb belong to the verb: `lab start --version 4.1` must not print cql-tuner's version.
      .enablePositionalOptions()
  );
}

function commandPath(c: Command): string {
  const names: string[] = [];
  for (let at: Command | null = c; at && at.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

// addCommand() does not pass settings down, so apply them to every command in the tree.
function applyEverywhere(cmd: Command, f: (c: Command) => void): void {
  f(cmd);
  for (const sub of cmd.commands) applyEverywhere(sub, f);
}

/** Parses argv with the program and exits once its output is flushed (the MCP server excepted). */
export async function runProgram(program: Command, argv: string[]): Promise<void> {
  // A script that asked for --json gets a usage error as JSON too, on stdout like every other answer.
  const json = argv.slice(2).includes('--json');
  applyEverywhere(program, (c) => {
    c.showHelpAfterError(json ? false : '(run with --help for usage)')
      // Usage errors exit 2, help/version exit 0, as CLI users expect.
      .exitOverride((err) => {
        if (err.exitCode !== 0 && json) {
          const message = err.message.replace(/^error: /, '');
          printJson({
            error: {
              code: 'USAGE',
              message,
              fix: `Run \`${['cql-tuner', commandPath(c), '--help'].filter(Boolean).join(' ')}\` for the options and values it takes.`,
            },
          });
        }
        // Thrown, not exited: main() drains stdout first, so a long --help or usage JSON is never cut.
        throw new UsageExit(err.exitCode === 0 ? 0 : 2);
      });
    if (json) c.configureOutput({ outputError: () => {} });
    // Scripts gate on the exit status: every verb's --help says what its codes mean.
    if (c.commands.length === 0 && c.name() !== 'mcp' && c.name() !== 'help') c.addHelpText('after', exitCodesHelp(commandPath(c)));
  });
  quietOnClosedPipe();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof UsageExit) await exitWhenFlushed(e.code);
    throw e;
  }
  // A finished verb exits now: driver reconnection timers or a lingering socket must not keep a CLI
  // alive for a minute. The MCP server is the one verb that keeps running.
  if (program.args[0] !== 'mcp') await exitWhenFlushed(Number(process.exitCode ?? 0));
}

/** Help, version or a usage error: the exit code commander chose, taken after the output is flushed. */
class UsageExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
