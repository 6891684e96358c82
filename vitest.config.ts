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

export default defineConfig({
  test: {
    // Lab tests start real Cassandra on fixed loopback addresses: one file at a time.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 300_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'hermetic', include: ['tests/**/*.test.ts'], exclude: [...LAB_FILES, ...METRICS_FILES, '**/node_modules/**'] } },
      { extends: true, test: { name: 'lab', include: LAB_FILES } },
      { extends: true, test: { name: 'metrics', include: METRICS_FILES } },
    ],
  },
});
