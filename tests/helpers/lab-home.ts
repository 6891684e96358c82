/**
 * A real lab in a throwaway CQL_TUNER_HOME, for the integration and fault tests that start one per file: the
 * temp dir is made at import time, start() points CQL_TUNER_HOME at it and starts the lab, stop() stops the lab,
 * puts CQL_TUNER_HOME back as it was and deletes the dir. Call them from the file's beforeAll/afterAll.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLab, stopLab, type LabState, type StartLabOptions } from '../../mcp-server/src/lab/index.js';

export interface TempLabHome {
  /** The temp dir used as CQL_TUNER_HOME while the lab runs. */
  home: string;
  start(opts: StartLabOptions): Promise<LabState>;
  /**
   * Stops the lab (errors ignored: a test that failed half-way must still clean up), runs afterStop (e.g. an
   * unmount inside the home), restores CQL_TUNER_HOME and removes the dir unless keep.
   */
  stop(opts?: { keep?: boolean; afterStop?: () => void }): Promise<void>;
}

export function tempLabHome(prefix: string): TempLabHome {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const savedHome = process.env.CQL_TUNER_HOME;
  return {
    home,
    start(opts) {
      process.env.CQL_TUNER_HOME = home;
      return startLab(opts);
    },
    async stop({ keep = false, afterStop } = {}) {
      await stopLab().catch(() => {});
      afterStop?.();
      if (savedHome === undefined) delete process.env.CQL_TUNER_HOME;
      else process.env.CQL_TUNER_HOME = savedHome;
      if (!keep) rmSync(home, { recursive: true, force: true });
    },
  };
}
