/**
 * The user's own settings for every ssh and kubectl target, read from the environment cql-tuner runs in
 * (trusted: the user sets it). These name local files or kube contexts that change what ssh/kubectl runs,
 * so a target given as a tool argument or read from a cluster may not carry them (collect/target-spec.ts
 * refuses them there); the environment supplies them instead, for every target that does not set its own.
 */
import {
  checkKubeContext,
  checkLocalPath,
  HOST_KEY_CHECKS,
  RemoteTargetError,
  showValue,
  type HostKeyCheck,
  type KubectlConnection,
  type SshConnection,
} from '../core/remote-argv.js';
import type { TargetSpec } from './target-spec.js';

/** Target query option → the environment variable that sets it for every target. */
export const TRUSTED_ONLY_OPTIONS = {
  identity: 'CQL_TUNER_SSH_IDENTITY',
  config: 'CQL_TUNER_SSH_CONFIG',
  knownHosts: 'CQL_TUNER_SSH_KNOWN_HOSTS',
  hostKeyCheck: 'CQL_TUNER_SSH_HOST_KEY_CHECK',
  kubeconfig: 'CQL_TUNER_KUBECONFIG',
  context: 'CQL_TUNER_KUBE_CONTEXT',
} as const;

export type TrustedOnlyOption = keyof typeof TRUSTED_ONLY_OPTIONS;

export type SshDefaults = Pick<SshConnection, 'identityFile' | 'configFile' | 'knownHostsFile' | 'hostKeyCheck'>;
export type KubectlDefaults = Pick<KubectlConnection, 'kubeconfig' | 'context'>;

type Env = Readonly<Record<string, string | undefined>>;

/** A set, non-empty variable; an invalid value is an error naming the variable (never silently ignored). */
function read(env: Env, option: TrustedOnlyOption, check: (v: string) => { ok: true } | { ok: false; reason: string }): string | undefined {
  const name = TRUSTED_ONLY_OPTIONS[option];
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const c = check(value);
  if (!c.ok) throw new RemoteTargetError('BAD_TARGET', `environment variable ${name}: ${c.reason}; fix or unset it in the environment cql-tuner runs in`);
  return value;
}

export function sshDefaultsFromEnv(env: Env = process.env): SshDefaults {
  const identityFile = read(env, 'identity', (v) => checkLocalPath('ssh identity file', v));
  const configFile = read(env, 'config', (v) => checkLocalPath('ssh config file', v));
  const knownHostsFile = read(env, 'knownHosts', (v) => checkLocalPath('ssh known_hosts file', v));
  const hostKeyCheck = read(env, 'hostKeyCheck', (v) =>
    HOST_KEY_CHECKS.includes(v as HostKeyCheck)
      ? { ok: true }
      : { ok: false, reason: `hostKeyCheck ${showValue(v)} is not one of ${HOST_KEY_CHECKS.join(', ')}` },
  ) as HostKeyCheck | undefined;
  return {
    ...(identityFile !== undefined ? { identityFile } : {}),
    ...(configFile !== undefined ? { configFile } : {}),
    ...(knownHostsFile !== undefined ? { knownHostsFile } : {}),
    ...(hostKeyCheck !== undefined ? { hostKeyCheck } : {}),
  };
}

export function kubectlDefaultsFromEnv(env: Env = process.env): KubectlDefaults {
  const kubeconfig = read(env, 'kubeconfig', (v) => checkLocalPath('kubeconfig', v));
  const context = read(env, 'context', checkKubeContext);
  return { ...(kubeconfig !== undefined ? { kubeconfig } : {}), ...(context !== undefined ? { context } : {}) };
}

/** `kubectl` with the user's kubeconfig and context from the environment: how every kubectl call here begins. */
export function kubectlPrefix(env: Env = process.env): string[] {
  const d = kubectlDefaultsFromEnv(env);
  return ['kubectl', ...(d.kubeconfig !== undefined ? ['--kubeconfig', d.kubeconfig] : []), ...(d.context !== undefined ? ['--context', d.context] : [])];
}

/** Defaults overlaid by the spec's own values (an explicit undefined in a hand-built spec does not erase one). */
function overlay<T extends object>(defaults: Partial<T>, spec: T): T {
  const own = Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined));
  return { ...defaults, ...own } as T;
}

/** The spec with the environment's settings filled in where the spec sets none (the spec's own win). */
export function withTargetDefaults(spec: TargetSpec, env: Env = process.env): TargetSpec {
  switch (spec.kind) {
    case 'ssh':
      return overlay(sshDefaultsFromEnv(env), spec);
    case 'kubectl':
      return overlay(kubectlDefaultsFromEnv(env), spec);
    default:
      return spec;
  }
}
