import type { Parsed } from '../../parsed.js';
import { parseInfo } from './info.js';
import { parseStatus } from './status.js';
import { parseVersion } from './version.js';

/** The parser for each nodetool subcommand that has one; later parsers register here. */
export const NODETOOL_PARSERS: Partial<Record<string, (text: string) => Parsed<unknown>>> = {
  status: parseStatus,
  info: parseInfo,
  version: parseVersion,
};

export { parseInfo, parseStatus, parseVersion };
