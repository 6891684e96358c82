/**
 * One kind, one place: every kind detect() can return says in KINDS how it is judged, and interpret goes by that
 * alone. A kind whose rules were never registered (the old prefix registry let a new kind fall through silently,
 * giving a parsed output with nothing checked) cannot be added without a judge: the type requires it, and this
 * checks what the entries hold.
 */
import { describe, expect, it } from 'vitest';
import { judgeOf, KINDS, SUPPORTED_KINDS } from '../../mcp-server/src/core/detect.js';
import { kindRulesFor } from '../../mcp-server/src/core/rules/per-kind.js';
import { NODETOOL_PARSERS } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { KIND_MODULES } from '../../mcp-server/src/core/kinds/registry.js';

describe('kind registry (core/detect.ts KINDS)', () => {
  it('lists each kind once, and every kind has a judge', () => {
    expect(new Set(SUPPORTED_KINDS).size).toBe(SUPPORTED_KINDS.length);
    for (const k of KINDS) expect(['node-rules', 'log-rules', 'kind-rules'], k.kind).toContain(k.judge.by);
  });

  it('nodetool outputs (other than kind modules, which carry their own rules) go to the node rules, through a nodetool parser of the same name', () => {
    const modules = new Set(KIND_MODULES.map((m) => m.kind));
    const nodetool = KINDS.filter((k) => k.kind.startsWith('nodetool.') && !modules.has(k.kind));
    expect(nodetool.length).toBeGreaterThan(10);
    for (const k of nodetool) {
      expect(k.judge, k.kind).toEqual({ by: 'node-rules' });
      expect(k.parse, k.kind).toBe(NODETOOL_PARSERS[k.kind.slice('nodetool.'.length)]);
    }
    // and nothing else does: the node rules read nodetool facts only
    expect(KINDS.filter((k) => k.judge.by === 'node-rules').every((k) => k.kind.startsWith('nodetool.'))).toBe(true);
  });

  it('only the log kind goes to the log rules; every other kind has rules of its own', () => {
    expect(KINDS.filter((k) => k.judge.by === 'log-rules').map((k) => k.kind)).toEqual(['logs']);
    for (const k of KINDS.filter((x) => x.judge.by === 'kind-rules')) expect(kindRulesFor(k.kind), k.kind).toBeDefined();
    expect(judgeOf('no.such.kind')).toBeUndefined();
    expect(kindRulesFor('nodetool.status')).toBeUndefined();
  });
});
