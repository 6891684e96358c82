import { describe, expect, it } from 'vitest';
import { STRESS_PARSERS, stressSignature, type StressKind } from '../../mcp-server/src/core/parse/stress/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const KINDS = Object.keys(STRESS_PARSERS) as StressKind[];

function expected(file: string): StressKind | null {
  if (/\.json$/.test(file) && /latte/.test(file)) return 'stress.latte-json';
  if (/latte_(?:read|write)\.txt$|latte_.*report\.txt$/.test(file)) return 'stress.latte';
  if (/cassandra_stress_|\/stress\/stress_.*\.txt$/.test(file)) return 'stress.cassandra-stress';
  return null;
}

describe('stress index', () => {
  it('one parser and one signature per kind, parser kinds match the keys', () => {
    expect(KINDS.sort()).toEqual(['stress.cassandra-stress', 'stress.latte', 'stress.latte-json', 'stress.scylla-bench', 'stress.ycsb']);
    expect(Object.keys(stressSignature).sort()).toEqual(KINDS.sort());
    for (const k of KINDS) expect(STRESS_PARSERS[k]('').kind).toBe(k);
  });

  it.skipIf(!HAVE_CORPUS)('each signature matches its samples only, and the matching parser accepts them', () => {
    const files = [...corpusFiles('stress', /\.txt$/), ...corpusFiles('local-runs', /^(?:stress_|latte_).*\.(?:txt|json)$/)];
    let checked = 0;
    for (const f of files) {
      const want = expected(f);
      if (!want) continue;
      const text = corpus(f);
      const hits = KINDS.filter((k) => stressSignature[k].test(text));
      expect(hits, f).toEqual([want]);
      expect(STRESS_PARSERS[want](text).ok, f).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });

  it.skipIf(!HAVE_CORPUS)('no stress signature fires on other corpus outputs (nodetool, logs)', () => {
    const others = [
      ...corpusFiles('local-runs', /^nodetool.*\.txt$/),
      ...corpusFiles('logs', /\.(?:txt|log)$/),
      ...corpusFiles('local-runs', /^latte(?:_schema|-\d+).*\.(?:txt|log)$/),
    ].slice(0, 300);
    expect(others.length).toBeGreaterThan(10);
    for (const f of others) {
      const text = corpus(f);
      for (const k of KINDS) expect(stressSignature[k].test(text), `${k} on ${f}`).toBe(false);
    }
  });
});
