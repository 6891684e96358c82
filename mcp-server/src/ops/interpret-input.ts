// The input of interpret (MCP) and `cql-tuner interpret` (CLI): the text itself, or a saved output's path. Apart from
// interpret.ts so the CLI verb, which only ever has a path or stdin, does not load zod.
import { z } from 'zod';
import { MAX_INPUT_TEXT_CHARS } from './input-schemas.js';
import { OpError } from './errors.js';
import { readSavedOutput } from './saved-output.js';

export const interpretInputSchema = z.object({
  text: z.string().max(MAX_INPUT_TEXT_CHARS).optional().describe('The pasted output, as given'),
  path: z.string().max(4096).optional().describe('Or a file holding it, on the machine the server runs on'),
});

export type InterpretInput = z.infer<typeof interpretInputSchema>;

/** The text to interpret: given text wins; else the saved file, opened like every named file. */
export async function interpretSource(input: InterpretInput, signal?: AbortSignal): Promise<string> {
  if (input.text !== undefined) return input.text;
  if (!input.path) throw new OpError('NO_INPUT', 'give text or path', 'Pass the output as text, or a file path.');
  return readSavedOutput(input.path, signal);
}
