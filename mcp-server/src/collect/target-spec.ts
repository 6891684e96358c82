/**
 * Where commands run, as a user writes it on the CLI or in an MCP call:
 *
 *   local
 *   ssh://[USER@]HOST[:PORT][?identity=/abs/key&config=/abs/ssh_config&knownHosts=/abs/file
 *                             &hostKeyCheck=accept-new|yes|config&connectTimeout=SECONDS]
 *       HOST is a host name, IPv4 address, ssh_config alias, or [IPv6] in brackets. Without PORT, USER or
 *       identity, ~/.ssh/config (or ssh's defaults) decides.
 *   k8s://NAMESPACE/POD[/CONTAINER][?context=KUBE_CONTEXT&kubeconfig=/abs/path]     (kubectl:// alike)
 *       The namespace is always given, so two segments are never ambiguous; the context goes in the query
 *       because context names contain "/" and ":" (EKS ARNs).
 *   docker://CONTAINER[?user=USER[:GROUP]]
 *
 * Query values may be percent-encoded. Everything else is validated as in core/remote-argv.ts; a refusal
 * names the part that was wrong and lists these forms.
 *
 * Origin: identity, config, knownHosts, hostKeyCheck, kubeconfig and context name local files or kube
 * contexts that change what ssh/kubectl runs (an ssh_config's ProxyCommand is a local command). They are
 * accepted only in a 'trusted' spec (the user's own CLI flags); an 'untrusted' one (an MCP tool argument,
 * anything read from a cluster) is refused with the environment variable to set instead
 * (collect/target-defaults.ts). Untrusted is the default, so a caller has to say it trusts the text.
 */
import {
  checkDockerConnection,
  checkKubectlConnection,
  checkSshConnection,
  HOST_KEY_CHECKS,
  showValue,
  type DockerConnection,
  type HostKeyCheck,
  type KubectlConnection,
  type SshConnection,
} from '../core/remote-argv.js';
import { DockerTarget } from './docker-target.js';
import { TRUSTED_ONLY_OPTIONS, withTargetDefaults, type TrustedOnlyOption } from './target-defaults.js';
import { KubectlTarget } from './kubectl-target.js';
import { LocalTarget } from './local-target.js';
import { SshTarget, type RemoteTargetOptions } from './ssh-target.js';
import type { Target } from './target.js';

export type TargetSpec =
  { kind: 'local' } | ({ kind: 'ssh' } & SshConnection) | ({ kind: 'kubectl' } & KubectlConnection) | ({ kind: 'docker' } & DockerConnection);

export type ParsedTargetSpec = { ok: true; spec: TargetSpec } | { ok: false; error: string };

/** Where the target text comes from: 'trusted' only for the user's own CLI flags and configuration. */
export type TargetOrigin = 'trusted' | 'untrusted';

/** The forms a user may write on the command line. */
export const TARGET_FORMS =
  'local | ssh://[user@]host[:port][?identity=/path/key] | k8s://namespace/pod[/container][?context=NAME] | docker://container[?user=NAME]';

/** The forms a tool argument may take: the ssh key and kube context come from the server's environment. */
export const TOOL_TARGET_FORMS =
  'local | ssh://[user@]host[:port] | k8s://namespace/pod[/container] | docker://container[?user=NAME] ' +
  `(ssh key, ssh_config, known_hosts, kubeconfig and kube context come from the server environment: ${Object.values(TRUSTED_ONLY_OPTIONS).join(', ')})`;

export function targetForms(origin: TargetOrigin): string {
  return origin === 'trusted' ? TARGET_FORMS : TOOL_TARGET_FORMS;
}

const SSH_PARAMS = ['identity', 'config', 'knownHosts', 'hostKeyCheck', 'connectTimeout'] as const;
const K8S_PARAMS = ['context', 'kubeconfig'] as const;
const DOCKER_PARAMS = ['user'] as const;

type Params<K extends string> = Partial<Record<K, string>>;

class SpecError extends Error {}

const isTrustedOnly = (key: string): key is TrustedOnlyOption => Object.hasOwn(TRUSTED_ONLY_OPTIONS, key);

function parseQuery<K extends string>(scheme: string, query: string | undefined, allowed: readonly K[], origin: TargetOrigin): Params<K> {
  const out: Params<K> = {};
  if (query === undefined || query === '') return out;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (origin !== 'trusted' && (allowed as readonly string[]).includes(key) && isTrustedOnly(key)) {
      throw new SpecError(
        `?${key}= names a local file or kube setting that changes what runs, so it is taken only from your own configuration, ` +
          `never from a tool argument or from cluster data: set ${TRUSTED_ONLY_OPTIONS[key]} in the environment cql-tuner runs in ` +
          '(or give the target with --target / --nodetool-via on the command line)',
      );
    }
    if (!(allowed as readonly string[]).includes(key)) {
      throw new SpecError(`${scheme}:// takes the query parameters ${allowed.join(', ')}; got ${showValue(key)}`);
    }
    const k = key as K;
    if (eq < 0 || eq === pair.length - 1) throw new SpecError(`query parameter ${key} has no value`);
    if (out[k] !== undefined) throw new SpecError(`query parameter ${key} is given twice`);
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(eq + 1));
    } catch {
      throw new SpecError(`query parameter ${key} has a malformed %-escape`);
    }
    out[k] = value;
  }
  return out;
}

function parseSsh(body: string, query: string | undefined, origin: TargetOrigin): TargetSpec {
  if (body.includes('/')) throw new SpecError('ssh:// takes no path after the host (use ?identity=/path for a key file)');
  if (body === '') throw new SpecError('ssh:// needs a host');
  let user: string | undefined;
  let hostPort = body;
  const at = body.indexOf('@');
  if (at >= 0) {
    user = body.slice(0, at);
    hostPort = body.slice(at + 1);
    if (user === '') throw new SpecError('the user before "@" is empty');
  }
  let host: string;
  let portText: string | undefined;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) throw new SpecError(`IPv6 host ${showValue(hostPort)} has no closing "]"`);
    host = hostPort.slice(1, close);
    const rest = hostPort.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) throw new SpecError(`unexpected ${showValue(rest)} after the IPv6 host`);
      portText = rest.slice(1);
    }
    if (!host.includes(':')) throw new SpecError(`brackets are for IPv6 addresses only, got ${showValue(host)}`);
  } else {
    const colons = hostPort.split(':').length - 1;
    if (colons > 1) throw new SpecError('an IPv6 host goes in brackets: ssh://[::1]:22');
    const colon = hostPort.indexOf(':');
    host = colon < 0 ? hostPort : hostPort.slice(0, colon);
    if (colon >= 0) portText = hostPort.slice(colon + 1);
  }
  if (host === '') throw new SpecError('ssh:// needs a host');
  let port: number | undefined;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText)) throw new SpecError(`port ${showValue(portText)} is not a number between 1 and 65535`);
    port = Number(portText);
  }
  const q = parseQuery('ssh', query, SSH_PARAMS, origin);
  let hostKeyCheck: HostKeyCheck | undefined;
  if (q.hostKeyCheck !== undefined) {
    const v = q.hostKeyCheck;
    const found = HOST_KEY_CHECKS.find((h) => h === v);
    if (found === undefined) throw new SpecError(`hostKeyCheck ${showValue(v)} is not one of ${HOST_KEY_CHECKS.join(', ')}`);
    hostKeyCheck = found;
  }
  let connectTimeoutSec: number | undefined;
  if (q.connectTimeout !== undefined) {
    if (!/^\d{1,3}$/.test(q.connectTimeout)) throw new SpecError(`connectTimeout ${showValue(q.connectTimeout)} is not a whole number of seconds`);
    connectTimeoutSec = Number(q.connectTimeout);
  }
  const spec: TargetSpec = {
    kind: 'ssh',
    host,
    ...(user !== undefined ? { user } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(q.identity !== undefined ? { identityFile: q.identity } : {}),
    ...(q.config !== undefined ? { configFile: q.config } : {}),
    ...(q.knownHosts !== undefined ? { knownHostsFile: q.knownHosts } : {}),
    ...(hostKeyCheck !== undefined ? { hostKeyCheck } : {}),
    ...(connectTimeoutSec !== undefined ? { connectTimeoutSec } : {}),
  };
  const c = checkSshConnection(spec);
  if (!c.ok) throw new SpecError(c.reason);
  return spec;
}

function parseK8s(scheme: string, body: string, query: string | undefined, origin: TargetOrigin): TargetSpec {
  const parts = body.split('/');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === '')) {
    throw new SpecError(`${scheme}:// takes namespace/pod or namespace/pod/container, got ${showValue(body)} (the context goes in ?context=NAME)`);
  }
  const [namespace = '', pod = '', container] = parts;
  const q = parseQuery(scheme, query, K8S_PARAMS, origin);
  const spec: TargetSpec = {
    kind: 'kubectl',
    namespace,
    pod,
    ...(container !== undefined ? { container } : {}),
    ...(q.context !== undefined ? { context: q.context } : {}),
    ...(q.kubeconfig !== undefined ? { kubeconfig: q.kubeconfig } : {}),
  };
  const c = checkKubectlConnection(spec);
  if (!c.ok) throw new SpecError(c.reason);
  return spec;
}

function parseDocker(body: string, query: string | undefined, origin: TargetOrigin): TargetSpec {
  if (body === '' || body.includes('/')) throw new SpecError(`docker:// takes one container name or id, got ${showValue(body)}`);
  const q = parseQuery('docker', query, DOCKER_PARAMS, origin);
  const spec: TargetSpec = { kind: 'docker', container: body, ...(q.user !== undefined ? { user: q.user } : {}) };
  const c = checkDockerConnection(spec);
  if (!c.ok) throw new SpecError(c.reason);
  return spec;
}

/**
 * Parses a target string; the error names what was wrong and lists the accepted forms. origin 'trusted'
 * only for the user's own flags: everything else may not name local files (see the header).
 */
export function parseTargetSpec(input: string, origin: TargetOrigin = 'untrusted'): ParsedTargetSpec {
  const wrap = (what: string): ParsedTargetSpec => ({ ok: false, error: `target ${showValue(input)}: ${what}. Accepted forms: ${targetForms(origin)}` });
  if (typeof input !== 'string') return wrap('not a string');
  // Only ASCII blanks are trimmed (a pasted newline); a no-break or zero-width space is refused below.
  const text = input.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  if (text === '') return wrap('empty');
  if (text.length > 8192) return wrap('longer than 8192 characters');
  // Control characters and spaces never belong in a target; refusing them here keeps later messages simple.
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\s\x00-\x1f\x7f]/.test(text)) return wrap('contains whitespace or control characters');
  if (text.toLowerCase() === 'local') return { ok: true, spec: { kind: 'local' } };
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/.exec(text);
  if (!m) return wrap('not "local" and has no scheme://');
  const scheme = (m[1] ?? '').toLowerCase();
  const rest = m[2] ?? '';
  if (rest.includes('#')) return wrap('"#" has no meaning in a target');
  const q = rest.indexOf('?');
  const body = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? undefined : rest.slice(q + 1);
  try {
    switch (scheme) {
      case 'ssh':
        return { ok: true, spec: parseSsh(body, query, origin) };
      case 'k8s':
      case 'kubectl':
        return { ok: true, spec: parseK8s(scheme, body, query, origin) };
      case 'docker':
        return { ok: true, spec: parseDocker(body, query, origin) };
      default:
        return wrap(`unknown scheme ${showValue(scheme)}`);
    }
  } catch (e) {
    if (e instanceof SpecError) return wrap(e.message);
    throw e;
  }
}

/** The canonical string for a spec; parseTargetSpec(formatTargetSpec(s)) gives s back. */
export function formatTargetSpec(spec: TargetSpec): string {
  const query = (pairs: [string, string | number | undefined][]): string => {
    // Validated values hold no "&", "#", "%" or spaces, so they read as written.
    const kept = pairs.filter((p): p is [string, string | number] => p[1] !== undefined).map(([k, v]) => `${k}=${String(v)}`);
    return kept.length > 0 ? `?${kept.join('&')}` : '';
  };
  switch (spec.kind) {
    case 'local':
      return 'local';
    case 'ssh': {
      const host = spec.host.includes(':') ? `[${spec.host}]` : spec.host;
      return `ssh://${spec.user !== undefined ? `${spec.user}@` : ''}${host}${spec.port !== undefined ? `:${spec.port}` : ''}${query([
        ['identity', spec.identityFile],
        ['config', spec.configFile],
        ['knownHosts', spec.knownHostsFile],
        ['hostKeyCheck', spec.hostKeyCheck],
        ['connectTimeout', spec.connectTimeoutSec],
      ])}`;
    }
    case 'kubectl':
      return `k8s://${spec.namespace}/${spec.pod}${spec.container !== undefined ? `/${spec.container}` : ''}${query([
        ['context', spec.context],
        ['kubeconfig', spec.kubeconfig],
      ])}`;
    case 'docker':
      return `docker://${spec.container}${query([['user', spec.user]])}`;
  }
}

/**
 * The Target for a spec, with the environment's ssh/kubectl settings (target-defaults.ts) where the spec sets
 * none; constructors validate again, so a hand-built spec cannot skip the checks.
 */
export function createTarget(spec0: TargetSpec, options: RemoteTargetOptions = {}): Target {
  const spec = withTargetDefaults(spec0);
  switch (spec.kind) {
    case 'local':
      return new LocalTarget();
    case 'ssh': {
      const { kind: _kind, ...connection } = spec;
      return new SshTarget(connection, options);
    }
    case 'kubectl': {
      const { kind: _kind, ...connection } = spec;
      return new KubectlTarget(connection, options);
    }
    case 'docker': {
      const { kind: _kind, ...connection } = spec;
      return new DockerTarget(connection, options);
    }
  }
}

/** parseTargetSpec + createTarget, throwing the parse error as is. */
export function targetFromString(input: string, options: RemoteTargetOptions = {}, origin: TargetOrigin = 'untrusted'): Target {
  const parsed = parseTargetSpec(input, origin);
  if (!parsed.ok) throw new Error(parsed.error);
  return createTarget(parsed.spec, options);
}
