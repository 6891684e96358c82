import { describe, expect, it } from 'vitest';
import { ARGV_BUILDERS, redactedSteps } from '../../mcp-server/src/core/stress/argv.js';
import { validateParams, type StressParams } from '../../mcp-server/src/core/stress/params.js';

const base: StressParams = { tool: 'cassandra-stress', workload: 'write', nodes: ['127.0.0.1'], n: 20000, threads: 16 };

describe('validateParams', () => {
  it('accepts a plain write run and rejects what would reach a shell or CQL unchecked', () => {
    expect(validateParams(base)).toEqual([]);
    expect(validateParams({ ...base, keyspace: 'ks; DROP TABLE x' })[0]).toMatch(/^keyspace:/);
    expect(validateParams({ ...base, nodes: ['127.0.0.1 -mode'] })[0]).toMatch(/^nodes:/);
    expect(validateParams({ ...base, durationS: 60 })[0]).toMatch(/exactly one/);
    expect(validateParams({ ...base, workload: 'mixed' })[0]).toMatch(/^readRatio/);
    expect(validateParams({ ...base, tool: 'scylla-bench', workload: 'user', profile: 'p.yaml' }).join()).toMatch(/no user profiles/);
    expect(validateParams({ ...base, tool: 'latte', scriptParams: { rows: '1;x' } })[0]).toMatch(/scriptParams/);
  });
});

describe('cassandra-stress argv', () => {
  it('write with a fixed rate, replication and a gaussian population', () => {
    const cmd = ARGV_BUILDERS['cassandra-stress'](
      '/opt/c/tools/bin/cassandra-stress',
      {
        ...base,
        rate: 2000,
        replicationFactor: 3,
        consistency: 'QUORUM',
        population: { distribution: 'gaussian', size: 1000 },
        nodes: ['127.0.0.1', '127.0.0.2'],
      },
      {},
    );
    expect(cmd.steps).toHaveLength(1);
    expect(cmd.steps[0]!.argv).toEqual([
      '/opt/c/tools/bin/cassandra-stress',
      'write',
      'n=20000',
      'cl=QUORUM',
      '-schema',
      'keyspace=cql_tuner_stress',
      'replication(strategy=SimpleStrategy,factor=3)',
      '-pop',
      'dist=gaussian(1..1000)',
      '-rate',
      'threads=16',
      'fixed=2000/s',
      '-node',
      '127.0.0.1,127.0.0.2',
      '-port',
      'native=9042',
      '-log',
      'interval=1',
    ]);
  });

  it('mixed 75 % reads for 60 s: a load step writes the population, the run uses ratio(write=1,read=3)', () => {
    const cmd = ARGV_BUILDERS['cassandra-stress'](
      'cs',
      { ...base, workload: 'mixed', readRatio: 0.75, n: undefined, durationS: 60, population: { distribution: 'uniform', size: 5000 } },
      {},
    );
    expect(cmd.steps.map((s) => s.name)).toEqual(['load', 'run']);
    expect(cmd.steps[0]!.argv.slice(0, 5)).toEqual(['cs', 'write', 'n=5000', 'cl=LOCAL_ONE', 'no-warmup']);
    expect(cmd.steps[0]!.argv).toContain('seq=1..5000');
    expect(cmd.steps[1]!.argv.slice(0, 5)).toEqual(['cs', 'mixed', 'ratio(write=1,read=3)', 'duration=60s', 'cl=LOCAL_ONE']);
    expect(cmd.steps[1]!.argv).toContain('dist=uniform(1..5000)');
    expect(cmd.steps[1]!.argv).not.toContain('fixed=');
  });

  it('user profile with ops; credentials are in argv but redacted for argv.json', () => {
    const cmd = ARGV_BUILDERS['cassandra-stress'](
      'cs',
      { ...base, workload: 'user', profile: '/p/profile.yaml', ops: { insert: 1, simple1: 3 } },
      {},
      { username: 'u', password: 's3cret' },
    );
    const argv = cmd.steps[0]!.argv;
    expect(argv.slice(1, 4)).toEqual(['user', 'profile=/p/profile.yaml', 'ops(insert=1,simple1=3)']);
    expect(argv).toContain('password=s3cret');
    expect(argv).not.toContain('-schema'); // the profile defines its own schema
    const red = redactedSteps(cmd)[0]!.argv;
    expect(red).toContain('password=***');
    expect(red.join(' ')).not.toMatch(/s3cret/);
    expect(cmd.credentials).toBe('argv');
  });

  it('with a credentials file: -credentials-file in every step, no -mode, no user=/password=, nothing to redact', () => {
    const creds = { username: 'u', password: 's3cret' };
    const params: StressParams = { ...base, workload: 'read', n: undefined, durationS: 30, population: { distribution: 'uniform', size: 100 } };
    const cmd = ARGV_BUILDERS['cassandra-stress']('cs', params, { credentialsFile: '/tmp/cql-tuner-cred-Ab12Cd/c.properties' }, creds);
    expect(cmd.steps.map((s) => s.name)).toEqual(['load', 'run']);
    for (const s of cmd.steps) {
      expect(s.argv.slice(-6)).toEqual(['-port', 'native=9042', '-credentials-file', '/tmp/cql-tuner-cred-Ab12Cd/c.properties', '-log', 'interval=1']);
      expect(s.argv).not.toContain('-mode');
      expect(s.argv.join(' ')).not.toMatch(/s3cret|user=|password=/);
    }
    expect(cmd.secretArgs).toEqual([]);
    expect(cmd.credentials).toBe('file');
    expect(redactedSteps(cmd)).toEqual(cmd.steps.map((s) => ({ name: s.name, argv: s.argv })));
    // Without credentials the file is ignored and no mode is recorded.
    const none = ARGV_BUILDERS['cassandra-stress']('cs', base, { credentialsFile: '/tmp/x/c.properties' });
    expect(none.steps[0]!.argv).not.toContain('-credentials-file');
    expect(none.credentials).toBeUndefined();
    // cassandra-stress re-splits its argv on spaces and treats , = ( ) as syntax: such a path is refused.
    expect(() => ARGV_BUILDERS['cassandra-stress']('cs', base, { credentialsFile: '/tmp/my dir/c.properties' }, creds)).toThrow(/would split on/);
  });
});

describe('latte argv', () => {
  const files = { workload: '/runs/r1/kv.rn', reportJson: '/runs/r1/latte.json', logDir: '/runs/r1' };
  it('read: schema, load and run steps with the built-in workload, JSON report and log dir', () => {
    const cmd = ARGV_BUILDERS.latte(
      '/bin/latte',
      {
        ...base,
        tool: 'latte',
        workload: 'read',
        n: undefined,
        durationS: 30,
        warmupS: 5,
        threads: 2,
        concurrency: 64,
        consistency: 'ONE',
        population: { distribution: 'uniform', size: 20000 },
      },
      files,
      { username: 'u', password: 'p' },
    );
    expect(cmd.steps.map((s) => s.name)).toEqual(['schema', 'load', 'run']);
    expect(cmd.steps[0]!.argv).toEqual([
      '/bin/latte',
      '--log-dir',
      '/runs/r1',
      'schema',
      '/runs/r1/kv.rn',
      '-P',
      'keyspace="cql_tuner_stress"',
      '-P',
      'rf=1',
      '-P',
      'rows=20000',
      '-P',
      'sequential=0',
      '127.0.0.1',
    ]);
    expect(cmd.steps[2]!.argv).toEqual([
      '/bin/latte',
      '--log-dir',
      '/runs/r1',
      'run',
      '/runs/r1/kv.rn',
      '-f',
      'read',
      '-d',
      '30s',
      '-w',
      '5s',
      '-t',
      '2',
      '-p',
      '64',
      '-s',
      '1s',
      '--consistency',
      'ONE',
      '-P',
      'keyspace="cql_tuner_stress"',
      '-P',
      'rf=1',
      '-P',
      'rows=20000',
      '-P',
      'sequential=0',
      '-o',
      '/runs/r1/latte.json',
      '127.0.0.1',
    ]);
    // Credentials only through latte's own environment variables.
    expect(cmd.env).toEqual({ CASSANDRA_USER: 'u', CASSANDRA_PASSWORD: 'p' });
    expect(cmd.steps.flatMap((s) => s.argv)).not.toContain('p');
  });

  it('mixed with a fixed rate and a non-default port', () => {
    const cmd = ARGV_BUILDERS.latte('latte', { ...base, tool: 'latte', workload: 'mixed', readRatio: 0.9, rate: 500, port: 9043 }, files);
    const run = cmd.steps.at(-1)!.argv;
    expect(run.slice(5, 9)).toEqual(['-f', 'read:0.9', '-f', 'write:0.1']);
    expect(run).toEqual(expect.arrayContaining(['-r', '500', '-d', '20000']));
    expect(run.at(-1)).toBe('127.0.0.1:9043');
  });
});

describe('scylla-bench argv', () => {
  it('uniform write for 60 s at a fixed rate; reads get a sequential load step', () => {
    const p: StressParams = {
      ...base,
      tool: 'scylla-bench',
      n: undefined,
      durationS: 60,
      concurrency: 32,
      rate: 1000,
      replicationFactor: 3,
      population: { distribution: 'uniform', size: 5000 },
    };
    const w = ARGV_BUILDERS['scylla-bench']('sb', p, {});
    expect(w.steps[0]!.argv).toEqual([
      'sb',
      '-mode',
      'write',
      '-workload',
      'uniform',
      '-duration',
      '60s',
      '-concurrency',
      '32',
      '-max-rate',
      '1000',
      '-nodes',
      '127.0.0.1',
      '-keyspace',
      'cql_tuner_stress',
      '-replication-factor',
      '3',
      '-consistency-level',
      'quorum',
      '-partition-count',
      '5000',
      '-clustering-row-count',
      '1',
    ]);
    const r = ARGV_BUILDERS['scylla-bench']('sb', { ...p, workload: 'read' }, {});
    expect(r.steps.map((s) => s.name)).toEqual(['load', 'run']);
    expect(r.steps[0]!.argv.slice(1, 5)).toEqual(['-mode', 'write', '-workload', 'sequential']);
  });

  it('refuses a uniform run bounded by a count (scylla-bench has none)', () => {
    expect(() => ARGV_BUILDERS['scylla-bench']('sb', { ...base, tool: 'scylla-bench' }, {})).toThrow(/need durationS/);
  });
});
