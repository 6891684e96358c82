import { parsedOk, total, unrecognized } from '../../parsed.js';

/**
 * `findmnt --json [-o TARGET,SOURCE,FSTYPE,OPTIONS]` (util-linux): {"filesystems": [{"target": "/", "source":
 * "/dev/vda1", "fstype": "ext4", "options": "rw,relatime", "children": [...]}]}, nested by mount tree
 * (flat with --list). "source" may carry a bind suffix: "/dev/vda1[/var/lib]".
 */
export interface FindmntMount {
  target: string;
  source: string;
  fstype: string;
  options: string[];
}

const KIND = 'storage.findmnt';

export const parseFindmnt = total<{ mounts: FindmntMount[] }>(KIND, (text) => {
  const start = text.indexOf('{');
  if (start < 0) return unrecognized(KIND, 'no findmnt JSON ({"filesystems": …})');
  let doc: unknown;
  try {
    doc = JSON.parse(text.slice(start, text.lastIndexOf('}') + 1));
  } catch {
    return unrecognized(KIND, 'findmnt --json output is not valid JSON (truncated?)');
  }
  const list = (doc as { filesystems?: unknown } | null)?.filesystems;
  if (!Array.isArray(list)) return unrecognized(KIND, 'no "filesystems" array');
  const mounts: FindmntMount[] = [];
  const walk = (nodes: unknown[]) => {
    for (const n of nodes) {
      if (n === null || typeof n !== 'object') continue;
      const o = n as Record<string, unknown>;
      if (typeof o.target === 'string') {
        mounts.push({
          target: o.target,
          source: typeof o.source === 'string' ? o.source.replace(/\[.*\]$/, '') : '',
          fstype: typeof o.fstype === 'string' ? o.fstype : '',
          options: typeof o.options === 'string' ? o.options.split(',').filter((x) => x !== '') : [],
        });
      }
      if (Array.isArray(o.children)) walk(o.children);
    }
  };
  walk(list);
  if (mounts.length === 0) return unrecognized(KIND, 'findmnt JSON lists no file systems');
  return parsedOk(KIND, { mounts });
});
