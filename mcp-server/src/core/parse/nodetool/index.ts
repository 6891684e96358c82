import type { NodetoolSubcommand } from '../../nodetool-commands.js';
import type { Parsed } from '../../parsed.js';
import { parseCompactionhistory } from './compactionhistory.js';
import { parseCompactionstats } from './compactionstats.js';
import { parseDescribecluster } from './describecluster.js';
import { parseGcstats } from './gcstats.js';
import { parseGetcompactionthroughput } from './getcompactionthroughput.js';
import { parseGetstreamthroughput } from './getstreamthroughput.js';
import { parseGossipinfo } from './gossipinfo.js';
import { parseInfo } from './info.js';
import { parseNetstats } from './netstats.js';
import { parseProxyhistograms } from './proxyhistograms.js';
import { parseRing } from './ring.js';
import { parseStatus } from './status.js';
import { parseStatusbinary } from './statusbinary.js';
import { parseTablehistograms } from './tablehistograms.js';
import { parseTablestats } from './tablestats.js';
import { parseToppartitions } from './toppartitions.js';
import { parseTpstats } from './tpstats.js';
import { parseVersion } from './version.js';

type NodetoolParser = (text: string) => Parsed<unknown>;

/**
 * The parser for each allow-listed nodetool subcommand (names as in nodetool-commands.ts; cfstats and
 * cfhistograms arrive canonicalised to tablestats and tablehistograms). `satisfies` keeps the list complete.
 */
export const NODETOOL_PARSERS: Partial<Record<string, NodetoolParser>> = {
  status: parseStatus,
  info: parseInfo,
  version: parseVersion,
  tpstats: parseTpstats,
  tablestats: parseTablestats,
  compactionstats: parseCompactionstats,
  tablehistograms: parseTablehistograms,
  proxyhistograms: parseProxyhistograms,
  gcstats: parseGcstats,
  describecluster: parseDescribecluster,
  netstats: parseNetstats,
  ring: parseRing,
  gossipinfo: parseGossipinfo,
  statusbinary: parseStatusbinary,
  getcompactionthroughput: parseGetcompactionthroughput,
  getstreamthroughput: parseGetstreamthroughput,
  compactionhistory: parseCompactionhistory,
  // Run by diagnose during its window only (ops/window-profileload.ts); the same text as toppartitions.
  profileload: parseToppartitions,
} satisfies Record<NodetoolSubcommand, NodetoolParser>;

export {
  parseCompactionhistory,
  parseCompactionstats,
  parseDescribecluster,
  parseGcstats,
  parseGetcompactionthroughput,
  parseGetstreamthroughput,
  parseGossipinfo,
  parseInfo,
  parseNetstats,
  parseProxyhistograms,
  parseRing,
  parseStatus,
  parseStatusbinary,
  parseTablehistograms,
  parseTablestats,
  parseTpstats,
  parseVersion,
};
