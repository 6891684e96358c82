import { locateStressTool } from '../../mcp-server/src/collect/stress-runner.js';

/** The path of latte, or null after a note on stderr saying that `what` is skipped and why. */
export async function latteOrSkipNote(what: string): Promise<string | null> {
  try {
    return (await locateStressTool('latte')).path;
  } catch (e) {
    process.stderr.write(`note: ${what} skipped: ${(e as Error).message}\n`);
    return null;
  }
}
