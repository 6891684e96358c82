import { describe, expect, it } from 'vitest';
import { withTargetDefaults } from '../../mcp-server/src/collect/target-defaults.js';
import { parseTargetTemplate, specForNode, type TargetTemplate } from '../../mcp-server/src/collect/target-template.js';
import { checkNodeAddress, isIpv6Literal } from '../../mcp-server/src/core/validate.js';

function template(t: string, origin: 'trusted' | 'untrusted' = 'untrusted'): TargetTemplate {
  const r = parseTargetTemplate(t, origin);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe('parseTargetTemplate + specForNode', () => {
  it('puts the address in the parsed host, pod or container field only', () => {
    expect(specForNode(template('ssh://ops@{host}:2222?connectTimeout=5'), '10.0.0.1')).toEqual({
      ok: true,
      value: { kind: 'ssh', host: '10.0.0.1', user: 'ops', port: 2222, connectTimeoutSec: 5 },
    });
    expect(specForNode(template('ssh://{host}'), '2a05:d01c:964:7d02::cab')).toEqual({ ok: true, value: { kind: 'ssh', host: '2a05:d01c:964:7d02::cab' } });
    expect(specForNode(template('k8s://db/{host}/cassandra'), '10.0.0.1')).toEqual({
      ok: true,
      value: { kind: 'kubectl', namespace: 'db', pod: '10.0.0.1', container: 'cassandra' },
    });
    expect(specForNode(template('k8s://db/cass-{host}'), 'node1')).toEqual({ ok: true, value: { kind: 'kubectl', namespace: 'db', pod: 'cass-node1' } });
    expect(specForNode(template('docker://{host}'), 'cass1')).toEqual({ ok: true, value: { kind: 'docker', container: 'cass1' } });
    expect(specForNode(template('local'), '10.0.0.1')).toEqual({ ok: true, value: { kind: 'local' } });
  });

  it('refuses addresses that are no IP address or host name, and ones the field cannot hold', () => {
    const ssh = template('ssh://ops@{host}');
    for (const bad of ['10.0.0.3?config=/tmp/x', '-oProxyCommand=id', 'a@b', '10.0.0.1:22', '10.0.0.1/x', '172.0.XYZ.WZY', '', 'db1 -F /x']) {
      const r = specForNode(ssh, bad);
      expect(r.ok, bad).toBe(false);
    }
    const pod = specForNode(template('k8s://db/{host}'), '2001:db8::1');
    expect(pod.ok).toBe(false);
    if (!pod.ok) expect(pod.error).toContain('kubernetes pod');
  });

  it('refuses templates that misplace {host} or carry untrusted options', () => {
    const errorOf = (t: string, origin: 'trusted' | 'untrusted' = 'untrusted') => {
      const r = parseTargetTemplate(t, origin);
      return r.ok ? 'accepted' : r.error;
    };
    expect(errorOf('ssh://ops@db1')).toContain('has no {host} placeholder');
    expect(errorOf('ssh://{host}@db1')).toContain('{host} may stand only in the host');
    expect(errorOf('k8s://{host}/pod')).toContain('{host} may stand only in the host');
    expect(errorOf('ssh://{host}?identity=/k/{host}', 'trusted')).toContain('has {host} 2 times');
    expect(errorOf('ssh://ops@{host}?config=/etc/ssh/cfg')).toContain('CQL_TUNER_SSH_CONFIG');
    expect(errorOf('k8s://db/{host}?context=prod')).toContain('CQL_TUNER_KUBE_CONTEXT');
    expect(errorOf('ssh://ops@{host}?config=/etc/ssh/cfg', 'trusted')).toBe('accepted');
    expect(errorOf('ssh://-o{host}')).toContain('ssh host "-o{host}"');
  });
});

describe('checkNodeAddress', () => {
  it('takes IP literals and host names, nothing else', () => {
    for (const ok of ['10.0.0.1', '255.255.255.255', '::1', 'fe80::1', '::ffff:10.0.0.1', '1:2:3:4:5:6:7:8', 'db1', 'db-1.example.com', 'IP1']) {
      expect(checkNodeAddress(ok).ok, ok).toBe(true);
    }
    const bad = ['10.0.0.256', '172.0.XYZ.WZY', '10.0.0.x', 'x.0.0.1', '1:2:3:4:5:6:7:8:9', '1::2::3', 'fe80::1%eth0', '-db1', 'db1.', 'db_1'];
    for (const b of [...bad, '/127.0.0.1', '127.0.0.1:7000']) {
      expect(checkNodeAddress(b).ok, b).toBe(false);
    }
    expect(isIpv6Literal('2a05:d01c:964:7d02:eff2:6989:7b97:cab')).toBe(true);
  });
});

describe('withTargetDefaults', () => {
  const env = { CQL_TUNER_SSH_IDENTITY: '/k/id', CQL_TUNER_SSH_HOST_KEY_CHECK: 'yes', CQL_TUNER_KUBE_CONTEXT: 'prod' };
  it('fills what the spec leaves unset; the spec wins', () => {
    expect(withTargetDefaults({ kind: 'ssh', host: 'db1' }, env)).toEqual({ kind: 'ssh', host: 'db1', identityFile: '/k/id', hostKeyCheck: 'yes' });
    expect(withTargetDefaults({ kind: 'ssh', host: 'db1', identityFile: '/mine' }, env)).toMatchObject({ identityFile: '/mine' });
    expect(withTargetDefaults({ kind: 'kubectl', namespace: 'db', pod: 'p' }, env)).toEqual({ kind: 'kubectl', namespace: 'db', pod: 'p', context: 'prod' });
    expect(withTargetDefaults({ kind: 'docker', container: 'c' }, env)).toEqual({ kind: 'docker', container: 'c' });
  });

  it('names the variable when its value is not usable', () => {
    expect(() => withTargetDefaults({ kind: 'ssh', host: 'db1' }, { CQL_TUNER_SSH_HOST_KEY_CHECK: 'no' })).toThrow(/CQL_TUNER_SSH_HOST_KEY_CHECK/);
    expect(() => withTargetDefaults({ kind: 'kubectl', namespace: 'db', pod: 'p' }, { CQL_TUNER_KUBECONFIG: 'rel/path' })).toThrow(/CQL_TUNER_KUBECONFIG/);
  });
});
