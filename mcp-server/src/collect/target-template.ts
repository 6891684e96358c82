/**
 * A target with "{host}" standing for each node's address (nodetoolVia: "ssh://ops@{host}", "k8s://db/{host}").
 * The template is parsed ONCE, with a placeholder host; a node's address then replaces the placeholder in
 * the one parsed field that held it (ssh host, pod, docker container) and is checked as a node address and
 * as that field. Addresses come from cluster data: pasting one into the text and parsing again would let
 * "10.0.0.3?config=/x" add target options.
 */
import { checkDockerConnection, checkKubectlConnection, checkSshConnection, showValue } from '../core/remote-argv.js';
import { checkNodeAddress } from '../core/validate.js';
import { parseTargetSpec, type TargetOrigin, type TargetSpec } from './target-spec.js';

/** Stands for {host} while the template is parsed: valid as an ssh host, a pod name and a container name. */
const PLACEHOLDER = 'cqltuner-node-address-placeholder';

export type TargetTemplate =
  /** "local" (or any target without {host}, where allowed): every node runs in the same place. */
  { perNode: false; spec: TargetSpec } | { perNode: true; spec: TargetSpec; field: 'host' | 'pod' | 'container' };

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The field of a parsed spec that {host} may stand in. */
function hostField(spec: TargetSpec): 'host' | 'pod' | 'container' | null {
  switch (spec.kind) {
    case 'ssh':
      return 'host';
    case 'kubectl':
      return 'pod';
    case 'docker':
      return 'container';
    default:
      return null;
  }
}

export function parseTargetTemplate(template: string, origin: TargetOrigin = 'untrusted'): Parsed<TargetTemplate> {
  if (typeof template !== 'string') return { ok: false, error: 'the target template is not a string' };
  if (template.includes(PLACEHOLDER)) return { ok: false, error: `the target template may not contain ${PLACEHOLDER}` };
  const count = template.split('{host}').length - 1;
  if (count === 0) {
    const parsed = parseTargetSpec(template, origin);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    if (parsed.spec.kind !== 'local') {
      return { ok: false, error: `${showValue(template)} has no {host} placeholder, so every node would run the same host's nodetool` };
    }
    return { ok: true, value: { perNode: false, spec: parsed.spec } };
  }
  if (count > 1) {
    return {
      ok: false,
      error: `${showValue(template)} has {host} ${count} times; it may stand once, for the host (ssh), the pod (k8s) or the container (docker)`,
    };
  }
  const parsed = parseTargetSpec(template.replace('{host}', PLACEHOLDER), origin);
  if (!parsed.ok) return { ok: false, error: parsed.error.split(PLACEHOLDER).join('{host}') };
  const spec = parsed.spec;
  const field = hostField(spec);
  const fields = spec as unknown as Record<string, unknown>;
  const holder = field !== null && typeof fields[field] === 'string' && fields[field].includes(PLACEHOLDER) ? field : null;
  if (holder === null) {
    const where = 'the host (ssh://user@{host}), the pod (k8s://namespace/{host}) or the container (docker://{host})';
    return { ok: false, error: `${showValue(template)}: {host} may stand only in ${where}` };
  }
  return { ok: true, value: { perNode: true, spec, field: holder } };
}

/** The spec for one node: the address is checked as a node address, then as the field it lands in. */
export function specForNode(t: TargetTemplate, address: string): Parsed<TargetSpec> {
  if (!t.perNode) return { ok: true, value: t.spec };
  const a = checkNodeAddress(address);
  if (!a.ok) return { ok: false, error: `${a.reason}: it is not used as a target` };
  const current = (t.spec as unknown as Record<string, string>)[t.field]!;
  const spec = { ...t.spec, [t.field]: current.replace(PLACEHOLDER, address) };
  const c =
    spec.kind === 'ssh'
      ? checkSshConnection(spec)
      : spec.kind === 'kubectl'
        ? checkKubectlConnection(spec)
        : spec.kind === 'docker'
          ? checkDockerConnection(spec)
          : { ok: true as const };
  if (!c.ok) return { ok: false, error: `node address ${showValue(address)} in the target template: ${c.reason}` };
  return { ok: true, value: spec };
}
