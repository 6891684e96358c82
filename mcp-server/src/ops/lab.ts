/**
 * The lab's operations as the tools and the CLI take them: input schemas for lab_start, lab_status, lab_stop and
 * lab_incident, and the one confirmation rule for the verbs that delete or change lab data.
 */
import { z } from 'zod';
import { incidentNames } from '../lab/incidents/index.js';
import { OpError } from './errors.js';

/** lab_start's input (what the MCP tool offers); the CLI adds flags the tool leaves out (cli/commands/lab.ts). */
export const labStartInputSchema = z.object({
  nodes: z.union([z.literal(1), z.literal(3)]).default(1),
  datacenters: z
    .union([z.literal(1), z.literal(2)])
    .default(1)
    .describe('2 = nodes 1–2 in datacenter1 and node 3 in datacenter2; needs nodes: 3'),
  version: z.enum(['5.0', '4.1']).default('5.0'),
  heap: z
    .string()
    .regex(/^\d+[MG]$/, 'heap like 512M or 1G')
    .default('512M'),
  auth: z.boolean().default(false).describe('PasswordAuthenticator + CassandraAuthorizer, a set-up superuser and the least-privilege role cql_tuner'),
  tls: z.boolean().default(false).describe('client TLS (internode too with nodes: 3), CA and node certificates made by keytool in the lab dir'),
  jmxAuth: z.boolean().default(false).describe('JMX password and access files, as cassandra-env.sh sets them'),
});

export const labStatusInputSchema = z.object({});

export const labStopInputSchema = z.object({
  wipe: z.boolean().default(false),
  confirm: z.boolean().default(false).describe('Must be true when wipe is true'),
});

/** The incident names come from the registry, so a name the registry lacks is refused before anything runs. */
export const labIncidentInputSchema = z.object({
  name: z
    .enum(incidentNames() as [string, ...string[]])
    .optional()
    .describe('Incident to inject or heal; omit with list: true'),
  heal: z.boolean().default(false).describe('Undo the incident instead of injecting it'),
  list: z.boolean().default(false).describe('Only list the incidents'),
  confirm: z.boolean().default(false).describe('Must be true to inject or heal: it changes the lab’s data and settings'),
});

/**
 * The one rule for wiping the lab: wipe deletes its data directories and secrets, so it needs a confirmation.
 * `how` is how the caller confirms (confirm: true for the tool, --yes on the command line).
 */
export function assertWipeConfirmed(input: z.output<typeof labStopInputSchema>, how: { confirm: string; wipe: string }): void {
  if (input.wipe && !input.confirm) {
    throw new OpError(
      'CONFIRMATION_REQUIRED',
      `${how.wipe} deletes the lab’s data directories and was not confirmed`,
      `Confirm with ${how.confirm} if the lab data may be deleted, or drop ${how.wipe} to keep it.`,
    );
  }
}
