import { OpError } from '../../core/errors.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { listIncidents, runIncident } from '../../lab/incidents/index.js';
import { labIncidentInputSchema } from '../../ops/lab.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

/**
 * lab_incident: puts a known problem into the local lab (or heals it). The name is checked against the registry,
 * the nodes come from the lab's own state file (loopback only), and it needs confirm: true because it changes
 * the lab's data and settings.
 */
export function registerLabIncidentTool(server: McpServer): void {
  server.registerTool(
    'lab_incident',
    {
      title: 'Put a known problem into the local lab',
      description:
        'Practice diagnosis: injects a known incident into the running local lab (loopback only; writes, deletes and settings in ' +
        'the lab only), or undoes it with heal: true. list: true lists the incidents and whether this host can run each ' +
        '(no confirm needed). Injecting or healing needs confirm: true. After injecting, call diagnose with lab: true.',
      inputSchema: labIncidentInputSchema,
      outputSchema: {
        incidents: z
          .array(
            z.object({
              name: z.string(),
              title: z.string(),
              nodes: z.number(),
              heap: z.string(),
              expect: z.array(z.string()),
              skipReason: z.string().nullable(),
            }),
          )
          .optional(),
        incident: z.string().optional(),
        action: z.enum(['inject', 'heal']).optional(),
        expect: z.array(z.string()).optional(),
        durationMs: z.number().optional(),
      },
      annotations: annotationsFor('lab_incident'),
    },
    async (args, extra) => {
      try {
        if (args.list || !args.name) {
          const rows = (await listIncidents()).map(({ description: _d, ...r }) => r);
          const line = (r: (typeof rows)[number]) =>
            `${r.name} (${r.nodes} node${r.nodes > 1 ? 's' : ''}): ${r.title}${r.skipReason ? ` — not here: ${r.skipReason}` : ''}`;
          return toolResult(rows.map(line).join('\n'), { incidents: rows });
        }
        if (!args.confirm) {
          return toolError(
            new OpError(
              'CONFIRMATION_REQUIRED',
              `${args.heal ? 'healing' : 'injecting'} ${args.name} changes the lab’s data and settings and was not confirmed`,
              'Call again with confirm: true if the local lab may be changed.',
            ),
          );
        }
        const r = await runIncident(args.name, { heal: args.heal, onProgress: mcpProgress(extra) });
        const text =
          r.action === 'inject'
            ? `Injected ${r.incident} (${r.title}). Run diagnose with lab: true; expected on top: ${r.expect.join(' or ')}.`
            : `Healed ${r.incident}.`;
        return toolResult(text, { incident: r.incident, action: r.action, expect: r.expect, durationMs: r.durationMs });
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
