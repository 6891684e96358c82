/**
 * Pieces shared by the operations' input schemas (each operation exports its own `<op>InputSchema` beside it).
 * The MCP tools register these schemas as they are, for untrusted arguments; the CLI validates its flags through
 * the same objects (cli/validate-flags.ts), deriving a wider schema only where the user's own flags may do more.
 */
import { z } from 'zod';
import { TRUSTED_ONLY_OPTIONS } from '../collect/target-defaults.js';

/** Every text argument of a tool is at most this long (mcp/limits.ts re-exports it for the transport's limit). */
export const MAX_INPUT_TEXT_CHARS = 8 * 1024 * 1024;

export const productSchema = z.enum(['cassandra', 'scylla']);

export const portSchema = () => z.number().int().min(1).max(65535);

/** Contact points (host or host:port) of a live cluster. */
export const contactPointsSchema = () => z.array(z.string().max(300)).max(64);

/** Per-command timeout of the host readers (storage, mkfs plan, OS audit). */
export const hostCommandTimeoutSchema = () => z.number().int().min(1000).max(300_000).default(20_000);

// A recorded tree is a plain absolute directory path: no "..", no control characters, nothing that could
// turn the prefix into another path than the one written.
export const rootPrefixSchema = z
  .string()
  .max(4096)
  .refine(
    // eslint-disable-next-line no-control-regex -- refusing control characters in a path is the point
    (r) => r.startsWith('/') && !/(^|\/)\.\.(\/|$)/.test(r) && !/[\u0000-\u001f\u007f]/.test(r),
    'root must be an absolute directory path without ".." or control characters',
  )
  .optional();

/** A stress run id as the run folder names it. */
export const runIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,80}$/);

/** nodetoolVia as a tool argument: no ?identity= / ?config= (untrusted); the server environment supplies them. */
export const NODETOOL_VIA_DESCRIPTION =
  'Run nodetool on each node through a target such as ssh://ops@{host} or k8s://namespace/{host} ({host} = node address); JMX then defaults to 127.0.0.1. ' +
  'The ssh key, ssh_config, known_hosts, kubeconfig and kube context come from the server environment ' +
  `(${Object.values(TRUSTED_ONLY_OPTIONS).join(', ')}), not from this argument`;
