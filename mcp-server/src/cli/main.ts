import { Command } from 'commander';
import { CQL_TUNER_VERSION } from '../version.js';
import { demoCommand } from './commands/demo.js';
import { labCommand } from './commands/lab.js';
import { nodetoolCommand } from './commands/nodetool.js';

export function buildProgram(): Command {
  const program = new Command('cql-tuner')
    .description('Cassandra / ScyllaDB performance engineering: measured diagnosis from real tools')
    .version(CQL_TUNER_VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  program
    .command('mcp')
    .description('serve the MCP tools over stdio (what Claude Code starts)')
    .action(async () => {
      const { serveStdio } = await import('../mcp/stdio.js');
      await serveStdio();
    });
  program.addCommand(nodetoolCommand());
  program.addCommand(labCommand());
  program.addCommand(demoCommand());
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  program.exitOverride((err) => {
    // Usage errors exit 2, help/version exit 0, as CLI users expect.
    process.exit(err.exitCode === 0 ? 0 : 2);
  });
  await program.parseAsync(argv);
}
