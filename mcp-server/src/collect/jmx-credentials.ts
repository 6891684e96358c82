import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * JMX credentials come only from the environment. The password goes to nodetool through a 0600 file
 * (-pwf), never through argv where `ps` would show it; secrets() lists what must be scrubbed from output.
 */
export interface JmxAuth {
  args: string[];
  env: Record<string, string>;
  secrets: string[];
  cleanup(): Promise<void>;
}

export async function jmxAuthFromEnv(env: NodeJS.ProcessEnv = process.env, opts: { remote?: boolean } = {}): Promise<JmxAuth> {
  const user = env['CQL_TUNER_JMX_USERNAME'];
  const password = env['CQL_TUNER_JMX_PASSWORD'];
  const passwordFile = env['CQL_TUNER_JMX_PASSWORD_FILE'];
  const args: string[] = [];
  const secrets: string[] = [];
  let dir: string | null = null;
  if (env['CQL_TUNER_JMX_SSL'] === '1' || env['CQL_TUNER_JMX_SSL'] === 'true') args.push('--ssl');
  if (!user && (password || passwordFile)) {
    // Silently connecting without credentials would end in a misleading "authentication failed" from JMX.
    const which = password ? 'CQL_TUNER_JMX_PASSWORD' : 'CQL_TUNER_JMX_PASSWORD_FILE';
    throw Object.assign(new Error(`${which} is set but CQL_TUNER_JMX_USERNAME is not: a JMX password needs the user it belongs to`), {
      code: 'JMX_USERNAME_MISSING',
      fix: `Set CQL_TUNER_JMX_USERNAME to the JMX user, or unset ${which} if JMX has no authentication.`,
    });
  }
  if (user) {
    if (!/^[^\s-][^\s]{0,127}$/.test(user)) {
      throw Object.assign(new Error('CQL_TUNER_JMX_USERNAME must be one word without spaces and must not start with "-"'), {
        code: 'BAD_JMX_USERNAME',
        fix: 'Set CQL_TUNER_JMX_USERNAME to the JMX user name exactly as in jmxremote.password.',
      });
    }
    args.push('-u', user);
    if (password && opts.remote) {
      // A local 0600 file does not exist on the remote host, and argv there is visible to `ps`.
      throw Object.assign(new Error('CQL_TUNER_JMX_PASSWORD cannot be used when nodetool runs on a remote target'), {
        code: 'JMX_PASSWORD_REMOTE',
        fix: 'Put a JMX password file on each node (chmod 600) and set CQL_TUNER_JMX_PASSWORD_FILE to its path there.',
      });
    }
    if (password) {
      secrets.push(password);
      dir = await mkdtemp(join(tmpdir(), 'cql-tuner-jmx-'));
      const file = join(dir, 'jmx.password');
      await writeFile(file, `${user} ${password}\n`, { mode: 0o600 });
      args.push('-pwf', file);
    } else if (passwordFile) {
      args.push('-pwf', passwordFile);
    }
  }
  return {
    args,
    env: {},
    secrets,
    async cleanup() {
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 1) out = out.split(s).join('***');
  return out;
}
