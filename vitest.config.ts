import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Two lanes. `hermetic` (npm test): unit, hardening, MCP over stdio, recorded fixtures; no Cassandra is started.
 * `lab` (npm run test:lab): files that boot the real local lab or run real nodetool jars. `metrics`
 * (npm run test:metrics): a real Prometheus and node exporter on loopback. The incident scenarios
 * are a third lane outside vitest (npm run scenarios).
 */
const LAB_FILES = ['tests/integration/**/*.test.ts', 'tests/faults/**/*.test.ts'];
/** A real Prometheus and node exporter started by the tests (Debian's packages). */
const METRICS_FILES = ['tests/metrics/**/*.test.ts'];

/**
 * The long hermetic files start first: with files on both cores, a 6-minute fuzz file picked up last would run alone
 * at the end (a clean clone has no timing cache to order by).
 */
const LONG_FIRST = ['tests/hardening/fuzz-parsers.test.ts', 'tests/hardening/security-4-redos.test.ts', 'tests/hardening/hostile-input.test.ts'];
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? LONG_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map((x) => x.f);
  }
}

const PARALLEL = process.env.CQL_TUNER_PARALLEL_FILES === '1';

export default defineConfig({
  test: {
    // Lab tests start real Cassandra on fixed loopback addresses: one file at a time. Hermetic files share nothing
    // (ephemeral ports, their own temp dirs), so their lane (scripts/test-lane.mjs) runs them on every core.
    fileParallelism: PARALLEL,
    // vitest's default is one worker fewer than the cores: on CI's 2 cores that is one, i.e. no parallelism at all
    ...(PARALLEL ? { maxWorkers: availableParallelism(), minWorkers: 1 } : {}),
    testTimeout: 30_000,
    hookTimeout: 300_000,
    reporters: ['default'],
    sequence: { sequencer: LongFirst },
    projects: [
      { extends: true, test: { name: 'hermetic', include: ['tests/**/*.test.ts'], exclude: [...LAB_FILES, ...METRICS_FILES, '**/node_modules/**'] } },
      { extends: true, test: { name: 'lab', include: LAB_FILES } },
      { extends: true, test: { name: 'metrics', include: METRICS_FILES } },
    ],
  },
});
