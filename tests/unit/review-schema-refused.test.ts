/**
 * review_schema --hosts when the server refuses DESCRIBE: a refusal by authorization is said as the GRANT to add
 * (not a driver stack trace, not "needs Cassandra 4.0+"); errors that already name their fix pass through; the
 * CLI takes --cqlshrc like the other collecting verbs.
 */
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../mcp-server/src/cli/main.js';
import { OpError } from '../../mcp-server/src/core/errors.js';
import { describeFailure } from '../../mcp-server/src/ops/review-schema.js';

/** Shaped as cassandra-driver's ResponseError for an Unauthorized (0x2100) answer. */
function driverError(message: string, code: number): Error {
  return Object.assign(new Error(message), { name: 'ResponseError', code });
}

describe('describeFailure', () => {
  it('Unauthorized on a system_schema table names the grant, with the role from the message', () => {
    const e = describeFailure(driverError('User cql_tuner has no SELECT permission on <table system_schema.tables> or any of its parents', 0x2100), '10.0.0.1');
    expect(e.code).toBe('CQL_UNAUTHORIZED');
    expect(e.message).toContain('DESCRIBE SCHEMA on 10.0.0.1 was refused by authorization');
    expect(e.fix).toBe('As a superuser: GRANT SELECT ON TABLE system_schema.tables TO cql_tuner');
  });

  it('Unauthorized on the keyspace: GRANT SELECT ON KEYSPACE system_schema', () => {
    const e = describeFailure(driverError('User ro has no SELECT permission on <keyspace system_schema> or any of its parents', 0x2100), 'h');
    expect(e.fix).toBe('As a superuser: GRANT SELECT ON KEYSPACE system_schema TO ro');
  });

  it('an Unauthorized worded otherwise still says a grant is missing, on system_schema', () => {
    const e = describeFailure(driverError('User ro is not authorized to describe', 0x2100), 'h');
    expect(e.code).toBe('CQL_UNAUTHORIZED');
    expect(e.fix).toBe('As a superuser: GRANT SELECT ON KEYSPACE system_schema TO ro');
  });

  it('the CQL session’s own CQL_UNAUTHORIZED and credential errors pass through unchanged', () => {
    const own = new OpError('CQL_UNAUTHORIZED', 'h: User r has no SELECT permission …', 'As a superuser: GRANT SELECT ON KEYSPACE system_views TO r');
    expect(describeFailure(own, 'h')).toBe(own);
    const withheld = new OpError('CQL_CREDENTIALS_NOT_ALLOWED', 'x', 'y');
    expect(describeFailure(withheld, 'h')).toBe(withheld);
  });

  it('a syntax error from an old server is still DESCRIBE_UNSUPPORTED with the cqlsh way', () => {
    const e = describeFailure(driverError("line 1:0 no viable alternative at input 'DESCRIBE'", 0x2000), 'h');
    expect(e.code).toBe('DESCRIBE_UNSUPPORTED');
    expect(e.fix).toMatch(/cqlsh -e "DESCRIBE SCHEMA"/);
  });
});

describe('review-schema --cqlshrc', () => {
  it('is an option of the CLI verb, as on snapshot and diagnose', () => {
    const cmd = buildProgram().commands.find((c) => c.name() === 'review-schema');
    expect(cmd?.options.map((o) => o.long)).toContain('--cqlshrc');
  });
});
