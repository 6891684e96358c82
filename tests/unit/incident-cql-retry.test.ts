import { describe, expect, it } from 'vitest';
import { driverErrorText, executeIdempotent } from '../../mcp-server/src/lab/incidents/context.js';

/** An error shaped as cassandra-driver throws it: a name, and per host the reason. */
function driverError(name: string, message: string, inner?: Record<string, Error>): Error {
  const e = new Error(message);
  e.name = name;
  if (inner) Object.assign(e, { innerErrors: inner });
  return e;
}

const noHost = () =>
  driverError('NoHostAvailableError', 'All host(s) tried for query failed (tried: 127.0.0.1:9042 (OperationTimedOutError)). See innerErrors.', {
    '127.0.0.1:9042': driverError('OperationTimedOutError', 'The host 127.0.0.1:9042 did not reply before timeout 12000 ms'),
  });

describe('incident CQL on a busy lab (clean-clone CI node-down, 2026-11-29)', () => {
  it('a request no host answered in time is tried again, and succeeds when a node answers', async () => {
    let calls = 0;
    const client = {
      execute: async () => {
        calls++;
        if (calls < 3) throw noHost();
        return undefined as never;
      },
    };
    await expect(executeIdempotent(client, 'CREATE TABLE IF NOT EXISTS k.t (id int PRIMARY KEY)', [], {}, 1)).resolves.toBeUndefined();
    expect(calls).toBe(3);
  });

  it('after the last attempt, or at once for another error, it fails naming each host and the fix', async () => {
    const always = { execute: async () => Promise.reject(noHost()) };
    const err = await executeIdempotent(always, 'CREATE KEYSPACE IF NOT EXISTS k', [], {}, 1).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'INCIDENT_CQL_FAILED' });
    expect((err as Error).message).toBe(
      'CREATE KEYSPACE IF NOT EXISTS k failed after 3 attempts: All host(s) tried for query failed (tried: 127.0.0.1:9042 (OperationTimedOutError)). ' +
        '(127.0.0.1:9042: The host 127.0.0.1:9042 did not reply before timeout 12000 ms)',
    );
    let calls = 0;
    const syntax = { execute: async () => (calls++, Promise.reject(driverError('ResponseError', 'line 1:0 no viable alternative'))) };
    await expect(executeIdempotent(syntax, 'SELEC 1', [], {}, 1)).rejects.toMatchObject({ code: 'INCIDENT_CQL_FAILED' });
    expect(calls).toBe(1);
    expect(driverErrorText('plain')).toBe('plain');
  });
});
