/**
 * `kubectl get pods -l … -o json` → the database pods: name, pod IP, the database container, phase and
 * readiness, and the operator labels (datacenter, rack). Cluster data: names and addresses are checked before
 * anything uses them (collect/k8s-discovery.ts); here they are only read. Never throws.
 */
import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';

export interface K8sPod {
  name: string;
  ip: string | null;
  phase: string | null;
  ready: boolean;
  /** Container names in the pod spec, in order. */
  containers: string[];
  labels: Record<string, string>;
  nodeName: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function pod(p: Obj): K8sPod | null {
  const meta = isObj(p.metadata) ? p.metadata : {};
  const name = str(meta.name);
  if (!name) return null;
  const spec = isObj(p.spec) ? p.spec : {};
  const status = isObj(p.status) ? p.status : {};
  const labels: Record<string, string> = {};
  if (isObj(meta.labels)) for (const [k, v] of Object.entries(meta.labels)) if (typeof v === 'string') labels[k] = v;
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObj) : [];
  return {
    name,
    ip: str(status.podIP),
    phase: str(status.phase),
    ready: conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
    containers: (Array.isArray(spec.containers) ? spec.containers.filter(isObj) : []).map((c) => str(c.name)).filter((n): n is string => n !== null),
    labels,
    nodeName: str(spec.nodeName),
  };
}

export const parseK8sPodList: (text: string) => Parsed<K8sPod[]> = total('k8s-pods', (text) => {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return unrecognized('k8s-pods', `not JSON (give kubectl -o json): ${(e as Error).message}`);
  }
  if (!isObj(doc) || !Array.isArray(doc.items)) return unrecognized('k8s-pods', 'not a pod list: no "items" array');
  const pods = doc.items.filter(isObj).map(pod);
  const named = pods.filter((p): p is K8sPod => p !== null);
  const warnings = named.length < pods.length ? [`${pods.length - named.length} item(s) without metadata.name skipped`] : [];
  return parsedOk('k8s-pods', named, warnings);
});
