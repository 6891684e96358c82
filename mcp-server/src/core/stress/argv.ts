import { cassandraStressArgv } from './argv-cassandra-stress.js';
import { latteArgv } from './argv-latte.js';
import { scyllaBenchArgv } from './argv-scylla-bench.js';
import type { ArgvBuilder, StressCommand } from './argv-types.js';
import type { StressToolName } from './params.js';

export type { StressCommand, StressFiles, StressStep } from './argv-types.js';

export const ARGV_BUILDERS: Record<StressToolName, ArgvBuilder> = {
  'cassandra-stress': cassandraStressArgv,
  latte: latteArgv,
  'scylla-bench': scyllaBenchArgv,
};

/** argv with secrets replaced by "***", for argv.json and status output. */
export function redactedSteps(cmd: StressCommand): { name: string; argv: string[] }[] {
  return cmd.steps.map((s) => ({
    name: s.name,
    argv: s.argv.map((a) => (cmd.secretArgs.includes(a) ? (a.startsWith('password=') ? 'password=***' : '***') : a)),
  }));
}
