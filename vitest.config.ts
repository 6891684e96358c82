import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Integration tests start real Cassandra on fixed loopback ports: one file at a time.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 300_000,
    reporters: ['default'],
  },
});
