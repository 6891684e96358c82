import { OpError } from '../core/errors.js';
import { tmpdir } from 'node:os';
import { writeOwnedPrivateFile, type PrivateFile } from './private-dirs.js';

/** Folder name prefix of -pwf files: carries the owner pid, so a killed server's file is swept by the next one. */
export const JMX_PRIVATE_PREFIX = 'cql-tuner-jmx-';

/**
 * JMX credentials come only from the environment. The password goes to nodetool through a 0600 file
 * (-pwf), never through argv where `ps` would show it; secrets() lists what must be scrubbed from output.
 * They go only to a JMX host the credential allow-list accepts: with withhold, no -u/-pwf at all.
 */
export interface JmxAuth {
  args: string[];
  env: Record<string, string>;
  secrets: string[];
  /** Credentials are configured but were left out because the host is not allowed to receive them. */
  withheld: boolean;
  cleanup(): Promise<void>;
}

export async function jmxAuthFromEnv(env: NodeJS.ProcessEnv = process.env, opts: { remote?: boolean; withhold?: boolean } = {}): Promise<JmxAuth> {
  const user = env['CQL_TUNER_JMX_USERNAME'];
  const password = env['CQL_TUNER_JMX_PASSWORD'];
  const passwordFile = env['CQL_TUNER_JMX_PASSWORD_FILE'];
  const args: string[] = [];
  const secrets: string[] = [];
  let file: PrivateFile | null = null;
  if (env['CQL_TUNER_JMX_SSL'] === '1' || env['CQL_TUNER_JMX_SSL'] === 'true') args.push('--ssl');
  if (!user && (password || passwordFile)) {
    // Silently connecting without credentials would end in a misleading "authentication failed" from JMX.
    const which = password ? 'CQL_TUNER_JMX_PASSWORD' : 'CQL_TUNER_JMX_PASSWORD_FILE';
    throw new OpError(
      'JMX_USERNAME_MISSING',
      `${which} is set but CQL_TUNER_JMX_USERNAME is not: a JMX password needs the user it belongs to`,
      `Set CQL_TUNER_JMX_USERNAME to the JMX user, or unset ${which} if JMX has no authentication.`,
    );
  }
  // Scrubbed from output either way: a withheld password must not come back through some other echo.
  if (password) secrets.push(password);
  const withheld = !!user && opts.withhold === true;
  if (user && !withheld) {
    if (!/^[^\s-][^\s]{0,127}$/.test(user)) {
      throw new OpError(
        'BAD_JMX_USERNAME',
        'CQL_TUNER_JMX_USERNAME must be one word without spaces and must not start with "-"',
        'Set CQL_TUNER_JMX_USERNAME to the JMX user name exactly as in jmxremote.password.',
      );
    }
    args.push('-u', user);
    if (password && opts.remote) {
      // A local 0600 file does not exist on the remote host, and argv there is visible to `ps`.
      throw new OpError(
        'JMX_PASSWORD_REMOTE',
        'CQL_TUNER_JMX_PASSWORD cannot be used when nodetool runs on a remote target',
        'Put a JMX password file on each node (chmod 600) and set CQL_TUNER_JMX_PASSWORD_FILE to its path there.',
      );
    }
    if (password) {
      file = await writeOwnedPrivateFile(tmpdir(), JMX_PRIVATE_PREFIX, 'jmx.password', `${user} ${password}\n`);
      args.push('-pwf', file.path);
    } else if (passwordFile) {
      args.push('-pwf', passwordFile);
    }
  }
  return {
    args,
    env: {},
    secrets,
    withheld,
    async cleanup() {
      await file?.remove();
    },
  };
}

export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 1) out = out.split(s).join('***');
  return out;
}
