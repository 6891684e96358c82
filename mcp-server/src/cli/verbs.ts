// `cql-tuner <verb> …` loads only that verb's module: a one-verb program parses the same argv the whole program
// would (same root command, same settings: run-program.ts), without evaluating the other verbs' modules (the
// cassandra-driver, the MCP SDK, the lab, every zod schema) first. `cql-tuner logs` on a big log is compared
// with DataStax sperf for time and memory (bench/sperf.mjs); it and two others also have a bundle of their own
// (cli/hot/). Help, unknown verbs and anything else go through the whole program (main.ts);
// tests/unit/verb-bundles.test.ts keeps this table equal to it.
import type { Command } from 'commander';

type Load = () => Promise<Command>;

/** Each verb of buildProgram() but `mcp` (entry.ts serves it), in the same order. */
export const VERB_LOADERS: ReadonlyArray<readonly [string, Load]> = [
  ['nodetool', async () => (await import('./commands/nodetool.js')).nodetoolCommand()],
  ['diagnose', async () => (await import('./commands/diagnose.js')).diagnoseCommand()],
  ['interpret', async () => (await import('./commands/interpret.js')).interpretCommand()],
  ['logs', async () => (await import('./commands/logs.js')).logsCommand()],
  ['metrics', async () => (await import('./commands/metrics.js')).metricsCommand()],
  ['storage', async () => (await import('./commands/storage.js')).storageCommand()],
  ['plan-mkfs', async () => (await import('./commands/storage.js')).planMkfsCommand()],
  ['plan-queue-depth', async () => (await import('./commands/storage.js')).planQueueDepthCommand()],
  ['audit-os', async () => (await import('./commands/storage.js')).auditOsCommand()],
  ['snapshot', async () => (await import('./commands/snapshot.js')).snapshotCommand()],
  ['analyze', async () => (await import('./commands/snapshot.js')).analyzeCommand()],
  ['lab', async () => (await import('./commands/lab.js')).labCommand()],
  ['demo', async () => (await import('./commands/demo.js')).demoCommand()],
  ['estimate-scaling', async () => (await import('./commands/scaling.js')).estimateScalingCommand()],
  ['review-schema', async () => (await import('./commands/schema.js')).reviewSchemaCommand()],
  ['migration-review', async () => (await import('./commands/migration.js')).migrationReviewCommand()],
  ['audit-config', async () => (await import('./commands/audit-config.js')).auditConfigCommand()],
  ['stress', async () => (await import('./commands/stress.js')).stressCommand()],
];

/** The loader of the verb argv names first (`cql-tuner logs …`), or undefined when the whole program must parse. */
export function verbLoader(argv: readonly string[]): Load | undefined {
  return VERB_LOADERS.find(([name]) => name === argv[2])?.[1];
}

/** A program holding the root command and one verb: what commander needs to parse `cql-tuner <verb> …`. */
export async function oneVerbProgram(load: Load): Promise<Command> {
  const { rootCommand } = await import('./run-program.js');
  return rootCommand().addCommand(await load());
}
