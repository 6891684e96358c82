import { describe, expect, it } from 'vitest';
import { inheritedEnv } from '../../mcp-server/src/collect/child-env.js';

describe('the environment children inherit', () => {
  it("drops cql-tuner's own passwords, secrets and tokens, and keeps everything else", () => {
    const env = {
      PATH: '/usr/bin',
      HOME: '/root',
      CQL_TUNER_CQL_PASSWORD: 'p',
      CQL_TUNER_PROMETHEUS_TOKEN: 't',
      cql_tuner_jmx_password: 'lower-case too',
      CQL_TUNER_MGMT_API_SECRET: 's',
      CQL_TUNER_PROMETHEUS_USER: 'reader',
      CQL_TUNER_HOME: '/tmp/x',
      // not cql-tuner's: a tool the user runs may need it, and cql-tuner sets latte's on purpose
      CASSANDRA_PASSWORD: 'theirs',
      UNSET: undefined,
    };
    expect(inheritedEnv(env)).toEqual({
      PATH: '/usr/bin',
      HOME: '/root',
      CQL_TUNER_PROMETHEUS_USER: 'reader',
      CQL_TUNER_HOME: '/tmp/x',
      CASSANDRA_PASSWORD: 'theirs',
    });
  });
});
