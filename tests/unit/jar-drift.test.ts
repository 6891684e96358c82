import { describe, expect, it } from 'vitest';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import { classpathJars } from '../../mcp-server/src/core/parse/logs/startup.js';
import { jarDriftRule } from '../../mcp-server/src/core/rules/jar-drift.js';
import { PACK, runRule } from '../../mcp-server/src/core/rules/rule.js';

const log = (jars: string[]) => {
  const r = parseLogs(
    `INFO  [main] 2026-11-29 07:07:13,843 CassandraDaemon.java:620 - Classpath: /opt/c/conf:${jars.map((j) => `/opt/c/lib/${j}`).join(':')}\n`,
  );
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const node = (name: string, jars: string[]) => ({ ...nodeEvidence(name, true, { facts: {}, nodetool: {} }), logs: log(jars) });
const BASE = ['apache-cassandra-4.1.10.jar', 'netty-all-4.1.96.Final.jar', 'guava-27.0-jre.jar'];

describe('jar drift across nodes ("Classpath:" start-up line)', () => {
  it('a node left on the old version and a jar copied to one node are named, with the nodes that have them', () => {
    const old = ['apache-cassandra-4.1.9.jar', ...BASE.slice(1)];
    const o = runRule(jarDriftRule, { nodes: [node('n1', BASE), node('n2', [...BASE, 'patch.jar']), node('n3', old)], origin: 't' }, PACK);
    expect(o.findings).toHaveLength(1);
    expect(o.findings[0]!.evidence).toEqual([
      'apache-cassandra-4.1.10.jar: on n1, n2 only (of 3 nodes)',
      'apache-cassandra-4.1.9.jar: on n3 only (of 3 nodes)',
      'patch.jar: on n2 only (of 3 nodes)',
      '2 jar(s) common to n1, n2, n3 ("Classpath:" line of each node\'s last start)',
    ]);
  });
  it('the same jars everywhere: checked, nothing; one node: skipped with the reason', () => {
    expect(runRule(jarDriftRule, { nodes: [node('n1', BASE), node('n2', [...BASE].reverse())], origin: 't' }, PACK)).toMatchObject({
      checked: true,
      findings: [],
    });
    expect(runRule(jarDriftRule, { nodes: [node('n1', BASE)], origin: 't' }, PACK)).toMatchObject({
      checked: false,
      skippedBecause: expect.stringMatching(/two are needed/),
    });
  });
  it('directories and non-jar entries are not jars; duplicates count once; Windows paths', () => {
    expect(classpathJars('Classpath: /a/conf:/a/lib/x.jar:/a/lib/x.jar:/b/classes:C:\\c\\y.jar', 11)).toEqual(['x.jar', 'y.jar']);
  });
});
