import { existsSync, readFileSync } from 'node:fs';
import type { RunOptions, RunResult, Target } from '../../mcp-server/src/collect/target.js';

/** A Target that records every argv it is asked to run and answers with a scripted result. */
export class RecordingTarget implements Target {
  readonly calls: { argv: string[]; opts: RunOptions; files: Record<string, string> }[] = [];
  constructor(
    private readonly answer: (argv: string[]) => Partial<RunResult>,
    readonly kind: Target['kind'] = 'local',
  ) {}
  describe() {
    return 'recording';
  }
  async run(argv: readonly string[], opts: RunOptions): Promise<RunResult> {
    // Snapshot files named in argv (e.g. a -pwf password file) while they still exist.
    const files: Record<string, string> = {};
    argv.forEach((a, i) => {
      if (argv[i - 1] === '-pwf' && existsSync(a)) files[a] = readFileSync(a, 'utf8');
    });
    this.calls.push({ argv: [...argv], opts, files });
    return { argv: [...argv], stdout: '', stderr: '', exitCode: 0, ms: 1, timedOut: false, cancelled: false, truncated: false, ...this.answer([...argv]) };
  }
}
