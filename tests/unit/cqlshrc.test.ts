import { describe, expect, it } from 'vitest';
import { iniBoolean, parseCqlshCredentials, parseCqlshrc, parseIni } from '../../mcp-server/src/core/cqlshrc.js';

// The shape of upstream's conf/cqlshrc.sample (Cassandra 4.1/5.0): [authentication], [connection], [ssl].
const SAMPLE = `; Sample ~/.cassandra/cqlshrc file.
[authentication]
;; If Cassandra has auth enabled, fill out these options
username = ops_reader
password = s3cret with spaces  
credentials = ~/.cassandra/credentials

[ui]
color = on
completekey = tab

[connection]
hostname = 10.0.0.5
port = 9142
ssl = true

[ssl]
certfile = ~/keys/cassandra.cert
# Optional, true by default
validate = false
userkey = ~/key.pem
usercert: ~/cert.pem
`;

describe('cqlshrc parser (pure)', () => {
  it('reads [authentication], [connection] and [ssl] as cqlsh does', () => {
    expect(parseCqlshrc(SAMPLE)).toEqual({
      username: 'ops_reader',
      password: 's3cret with spaces',
      credentialsFile: '~/.cassandra/credentials',
      hostname: '10.0.0.5',
      port: 9142,
      ssl: true,
      certfile: '~/keys/cassandra.cert',
      validate: false,
      userkey: '~/key.pem',
      usercert: '~/cert.pem',
      warnings: [],
    });
  });

  it('leaves out what is not set, and an empty file is no settings', () => {
    expect(parseCqlshrc('')).toEqual({ warnings: [] });
    expect(parseCqlshrc('[ssl]\ncertfile = /ca.pem\n')).toEqual({ certfile: '/ca.pem', warnings: [] });
  });

  it('takes keys case-insensitively and CRLF line ends, ignores comments and other sections', () => {
    const s = parseCqlshrc('[authentication]\r\nUserName = a\r\n# password = nope\r\n[ui]\r\nusername = b\r\n');
    expect(s).toEqual({ username: 'a', warnings: [] });
  });

  it('warns about unreadable lines and values without ever echoing a value', () => {
    const s = parseCqlshrc('username = early\n[connection]\nport = 99999\nssl = perhaps\n[ssl]\nthis line is junk\n');
    expect(s.port).toBeUndefined();
    expect(s.ssl).toBeUndefined();
    expect(s.warnings).toEqual([
      'line 1: a setting before any [section]; ignored',
      'line 6: not a key = value line; ignored',
      '[connection] port is not a port number (1–65535); ignored',
      '[connection] ssl is not a boolean (true/false, yes/no, 1/0); ignored',
    ]);
    expect(s.warnings.join(' ')).not.toContain('early');
  });

  it('keeps a password holding = or : or #, and continues indented lines', () => {
    expect(parseCqlshrc('[authentication]\npassword = a=b:c#d\n').password).toBe('a=b:c#d');
    expect(parseIni('[x]\nk = one\n  two\n').sections.get('x')?.get('k')).toBe('one\ntwo');
  });

  it('booleans as configparser spells them', () => {
    expect(['1', 'yes', 'TRUE', 'on'].map(iniBoolean)).toEqual([true, true, true, true]);
    expect(['0', 'no', 'False', 'off'].map(iniBoolean)).toEqual([false, false, false, false]);
    expect(iniBoolean('maybe')).toBe('invalid');
    expect(iniBoolean(undefined)).toBeUndefined();
  });

  it('reads the [PlainTextAuthProvider] credentials file', () => {
    expect(parseCqlshCredentials('[PlainTextAuthProvider]\nusername = r\npassword = p\n')).toEqual({ username: 'r', password: 'p', warnings: [] });
    expect(parseCqlshCredentials('[other]\nusername = r\n')).toEqual({ warnings: ['no [PlainTextAuthProvider] section'] });
  });
});
