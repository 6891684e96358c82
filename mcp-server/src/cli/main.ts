import type { Command } from 'commander';
import { rootCommand, runProgram } from './run-program.js';
import { demoCommand } from './commands/demo.js';
import { diagnoseCommand } from './commands/diagnose.js';
import { interpretCommand } from './commands/interpret.js';
import { labCommand } from './commands/lab.js';
import { logsCommand } from './commands/logs.js';
import { auditOsCommand, planMkfsCommand, planQueueDepthCommand, storageCommand } from './commands/storage.js';
import { nodetoolCommand } from './commands/nodetool.js';
import { analyzeCommand, snapshotCommand } from './commands/snapshot.js';
import { estimateScalingCommand } from './commands/scaling.js';
import { reviewSchemaCommand } from './commands/schema.js';
import { migrationReviewCommand } from './commands/migration.js';
import { auditConfigCommand } from './commands/audit-config.js';
import { stressCommand } from './commands/stress.js';
import { metricsCommand } from './commands/metrics.js';

export function buildProgram(): Command {
  const program = rootCommand();
  program
    .command('mcp')
    .description('serve the MCP tools over stdio (what Claude Code starts)')
    .action(async () => {
      const { serveStdio } = await import('../mcp/stdio.js');
      await serveStdio();
    });
  program.addCommand(nodetoolCommand());
  program.addCommand(diagnoseCommand());
  program.addCommand(interpretCommand());
  program.addCommand(logsCommand());
  program.addCommand(metricsCommand());
  program.addCommand(storageCommand());
  program.addCommand(planMkfsCommand());
  program.addCommand(planQueueDepthCommand());
  program.addCommand(auditOsCommand());
  program.addCommand(snapshotCommand());
  program.addCommand(analyzeCommand());
  program.addCommand(labCommand());
  program.addCommand(demoCommand());
  program.addCommand(estimateScalingCommand());
  program.addCommand(reviewSchemaCommand());
  program.addCommand(migrationReviewCommand());
  program.addCommand(auditConfigCommand());
  program.addCommand(stressCommand());
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await runProgram(buildProgram(), argv);
}
