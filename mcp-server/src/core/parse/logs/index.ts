/**
 * Log analysis: Cassandra / DSE system.log and debug.log, JVM gc.log (JDK 8 and unified), ScyllaDB logs and
 * journald text → LogFacts. Streaming callers use LogAccumulator (push chunks, then end()); pasted text goes
 * through parseLogs.
 */
import { total, type Parsed } from '../../parsed.js';
import { LOG_KIND, LogAccumulator } from './accumulator.js';
import type { LogFacts, LogReadOptions } from './types.js';

export { LogAccumulator, LOG_KIND } from './accumulator.js';
export { classify, sizeToBytes, tableFromQuery, type ClassifyMode, type Hit } from './classify.js';
export { newHeader, newHeaderState, readHeader, type LineHeader } from './header.js';
export { formatLogTime } from './stats.js';
export { readSlowQueries, SlowQueryReader, type SlowQueries, type SlowOperation } from './slow-queries.js';
export * from './types.js';

/** Whole text at once (pasted output, a bundle file already in memory). Total: never throws. */
export function parseLogs(text: string, opts: LogReadOptions = {}): Parsed<LogFacts> {
  return total<LogFacts>(LOG_KIND, (t) => {
    const acc = new LogAccumulator(opts);
    acc.push(t);
    return acc.end();
  })(text);
}
