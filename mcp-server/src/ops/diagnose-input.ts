/**
 * diagnose's input, one schema for both adapters: the MCP tool registers `diagnoseInputSchema` (untrusted
 * arguments), and `cql-tuner diagnose` checks the input it builds from its flags against the CLI schema derived
 * from it, so ranges and limits are written once.
 */
import { z } from 'zod';
import { MAX_SINCE_SECONDS } from './diagnose-since.js';
import { DEFAULT_WINDOW_SECONDS, MAX_WINDOW_SECONDS } from './diagnose-window.js';
import { NODETOOL_VIA_DESCRIPTION } from './input-schemas.js';
import { DEFAULT_NODE_TIMEOUT_MS, DEFAULT_SWEEP_CONCURRENCY } from './snapshot.js';

export const diagnoseInputSchema = z.object({
  hosts: z.array(z.string().max(300)).max(64).optional(),
  lab: z.boolean().default(false),
  bundle: z
    .string()
    .max(4096)
    .optional()
    .describe(
      'Re-diagnose a saved bundle folder, or an unpacked OpsCenter / ds-collector diagnostic tarball (nodes/<address>/nodetool, conf, logs: its logs and cassandra.yaml files are read too), instead of collecting',
    ),
  cqlPort: z.number().int().min(1).max(65535).optional(),
  localDataCenter: z.string().max(200).optional(),
  dc: z.string().max(200).optional(),
  jmxHost: z.string().max(253).optional(),
  jmxPort: z.number().int().min(1).max(65535).optional(),
  nodetoolVia: z.string().max(500).optional().describe(NODETOOL_VIA_DESCRIPTION),
  concurrency: z.number().int().min(1).max(64).default(DEFAULT_SWEEP_CONCURRENCY),
  nodeTimeoutMs: z.number().int().min(1000).max(600_000).default(DEFAULT_NODE_TIMEOUT_MS),
  logFiles: z
    .record(z.string().max(300), z.array(z.string().max(4096)).max(8))
    .optional()
    .describe('Log files to read per node address, e.g. {"10.0.0.1": ["/var/log/cassandra/system.log"]} (the lab’s logs are read automatically)'),
  save: z.boolean().default(false).describe('Also keep every raw output as a bundle in the cql-tuner data folder (re-diagnose later with bundle)'),
  detail: z.boolean().default(false).describe('Every finding, info included, with all evidence'),
  windowSeconds: z
    .number()
    .min(0)
    .max(MAX_WINDOW_SECONDS)
    .default(DEFAULT_WINDOW_SECONDS)
    .describe(
      'Seconds between two sweeps: counters become rates (ops/s, dropped/s, GC ms/s) and host disk/CPU figures are sampled; 0 = one instant sweep (bundles are always instant)',
    ),
  sinceSeconds: z
    .number()
    .min(60)
    .max(MAX_SINCE_SECONDS)
    .optional()
    .describe(
      "The incident period, seconds back from now: the nodes' logs are read from then on, and the user's Prometheus (if configured) adds its change points and findings for it",
    ),
});

/**
 * `cql-tuner diagnose`'s live input: the tool's, where the user's own flags choose what a tool caller may not —
 * the nodetool binary that runs (--nodetool-path) and the folder the bundle goes to (--save DIR; a tool caller
 * gets the data folder). Bundles (--bundle), --k8s and --mgmt-api take other paths, checked where they run.
 */
export const diagnoseCliInputSchema = diagnoseInputSchema.omit({ save: true, detail: true, bundle: true }).extend({
  nodetoolPath: z.string().max(4096).optional(),
  bundleDir: z.string().max(4096).optional(),
});

/** Input keys → the diagnose flag that sets them (the rest are the key in kebab case). */
export const DIAGNOSE_FLAG_NAMES = {
  localDataCenter: '--local-dc',
  nodeTimeoutMs: '--node-timeout',
  bundleDir: '--save',
  logFiles: '--log',
  windowSeconds: '--window',
  sinceSeconds: '--since',
};
