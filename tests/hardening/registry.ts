/**
 * Every parser the project has, found through its registries rather than a hard-coded list, so parsers that
 * other work adds (a new entry in NODETOOL_PARSERS, a new core/parse/<domain>/index.ts exporting FOO_PARSERS,
 * a new kind in detect's KINDS) are fuzzed without touching this file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { KINDS } from '../../mcp-server/src/core/detect.js';
import type { Parsed } from '../../mcp-server/src/core/parsed.js';

export type AnyParser = (text: string) => Parsed<unknown>;

export interface ParserEntry {
  /** Registry and key, e.g. "NODETOOL_PARSERS.status" or "KINDS.logs". */
  name: string;
  parse: AnyParser;
  /** The detect kinds this parser serves (for picking corpus samples of its own kind). */
  kinds: string[];
}

const PARSE_DIR = resolve(import.meta.dirname, '../../mcp-server/src/core/parse');

/** Every `*_PARSERS` object exported by core/parse/<domain>/index.ts, plus every KINDS entry; one entry per function. */
export async function discoverParsers(): Promise<ParserEntry[]> {
  const byFn = new Map<AnyParser, ParserEntry>();
  const add = (name: string, parse: AnyParser, kind?: string) => {
    const e = byFn.get(parse);
    if (e) {
      if (kind && !e.kinds.includes(kind)) e.kinds.push(kind);
      return;
    }
    byFn.set(parse, { name, parse, kinds: kind ? [kind] : [] });
  };
  for (const domain of readdirSync(PARSE_DIR, { withFileTypes: true })) {
    if (!domain.isDirectory()) continue;
    const index = join(PARSE_DIR, domain.name, 'index.ts');
    if (!existsSync(index)) continue;
    const mod = (await import(pathToFileURL(index).href)) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(mod)) {
      if (!/_PARSERS$/.test(exportName) || typeof value !== 'object' || value === null) continue;
      for (const [key, fn] of Object.entries(value as Record<string, unknown>)) {
        if (typeof fn === 'function') add(`${exportName}.${key}`, fn as AnyParser);
      }
    }
  }
  for (const k of KINDS) add(`KINDS.${k.kind}`, k.parse, k.kind);
  // Registry entries that detect also knows get their kind (NODETOOL_PARSERS.status ↔ nodetool.status).
  for (const k of KINDS) {
    const entry = byFn.get(k.parse);
    if (entry && !entry.kinds.includes(k.kind)) entry.kinds.push(k.kind);
  }
  return [...byFn.values()].sort((a, b) => a.name.localeCompare(b.name));
}
