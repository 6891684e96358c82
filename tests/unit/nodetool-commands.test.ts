import { describe, expect, it } from 'vitest';
import { buildNodetoolArgs, NODETOOL_SUBCOMMANDS } from '../../mcp-server/src/core/nodetool-commands.js';
import { checkCqlIdentifier, checkHost } from '../../mcp-server/src/core/validate.js';

const base = { host: '127.0.0.1', port: 7199 };

describe('nodetool allow-list', () => {
  it('holds exactly the read-only subcommands of the foundation', () => {
    expect([...NODETOOL_SUBCOMMANDS].sort()).toEqual(
      [
        'compactionhistory',
        'compactionstats',
        'describecluster',
        'gcstats',
        'getcompactionthroughput',
        'getstreamthroughput',
        'gossipinfo',
        'info',
        'netstats',
        'profileload',
        'proxyhistograms',
        'ring',
        'status',
        'statusbinary',
        'tablehistograms',
        'tablestats',
        'tpstats',
        'version',
      ].sort(),
    );
  });

  it('refuses commands that change the cluster, naming the list', () => {
    for (const sub of [
      'repair',
      'cleanup',
      'drain',
      'decommission',
      'setcompactionthroughput',
      'stopdaemon',
      'flush',
      'compact',
      'truncatehints',
      'status; rm -rf /',
      '-h',
      '--',
      '',
    ]) {
      const r = buildNodetoolArgs({ ...base, subcommand: sub });
      expect(r.ok, sub).toBe(false);
      if (!r.ok) {
        expect(r.code).toBe('NOT_ALLOWED');
        expect(r.message).toContain('tpstats');
      }
    }
  });

  it('maps the pre-4.0 names cfstats/cfhistograms to their successors', () => {
    const r = buildNodetoolArgs({ ...base, subcommand: 'cfstats', keyspace: 'ks', table: 't' });
    expect(r.ok && r.commandArgs).toEqual(['tablestats', 'ks.t']);
    const h = buildNodetoolArgs({ ...base, subcommand: 'CFHISTOGRAMS', keyspace: 'ks', table: 't' });
    expect(h.ok && h.commandArgs).toEqual(['tablehistograms', 'ks', 't']);
  });

  it('builds connection and command arguments separately', () => {
    const r = buildNodetoolArgs({ host: '10.1.2.3', port: 7299, subcommand: 'tablestats', keyspace: 'Shop', humanReadable: true });
    expect(r).toEqual({ ok: true, subcommand: 'tablestats', connectionArgs: ['-h', '10.1.2.3', '-p', '7299'], commandArgs: ['tablestats', '-H', 'Shop'] });
  });

  it('checks where keyspace and table make sense', () => {
    expect(buildNodetoolArgs({ ...base, subcommand: 'tpstats', keyspace: 'ks' })).toMatchObject({ ok: false, code: 'BAD_ARGUMENTS' });
    expect(buildNodetoolArgs({ ...base, subcommand: 'status', keyspace: 'ks', table: 't' })).toMatchObject({ ok: false, code: 'BAD_ARGUMENTS' });
    expect(buildNodetoolArgs({ ...base, subcommand: 'tablestats', table: 't' })).toMatchObject({ ok: false, code: 'BAD_ARGUMENTS' });
    expect(buildNodetoolArgs({ ...base, subcommand: 'tablehistograms', keyspace: 'ks' })).toMatchObject({ ok: false, code: 'BAD_ARGUMENTS' });
    expect(buildNodetoolArgs({ ...base, subcommand: 'status', keyspace: 'ks' })).toMatchObject({ ok: true, commandArgs: ['status', 'ks'] });
  });

  it('refuses identifiers and hosts that could be read as options or shell', () => {
    for (const keyspace of ['-h', 'ks;id', 'ks table', '$(id)', '`id`', 'ks.t', 'ks\nstatus', 'kś', 'a'.repeat(223), '"Quoted"']) {
      expect(buildNodetoolArgs({ ...base, subcommand: 'tablestats', keyspace }), keyspace).toMatchObject({ ok: false, code: 'BAD_IDENTIFIER' });
    }
    for (const host of ['-oProxyCommand=id', '127.0.0.1;id', '$(id)', 'a b', '', 'x'.repeat(300), '127.0.0.1\n', '--', 'ｌocalhost']) {
      expect(buildNodetoolArgs({ ...base, host, subcommand: 'status' }), host).toMatchObject({ ok: false, code: 'BAD_HOST' });
    }
    for (const port of [0, -1, 65536, 1.5, Number.NaN]) {
      expect(buildNodetoolArgs({ ...base, port, subcommand: 'status' })).toMatchObject({ ok: false, code: 'BAD_PORT' });
    }
  });

  it('accepts ordinary hosts and names', () => {
    for (const h of ['127.0.0.1', 'db-1.example.internal', '::1', 'fe80::1', 'cassandra-0']) expect(checkHost(h).ok, h).toBe(true);
    for (const n of ['system', 'Shop_2024', 'a', '_x']) expect(checkCqlIdentifier('keyspace', n).ok, n).toBe(true);
  });
});
