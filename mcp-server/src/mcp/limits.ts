/**
 * Size limits of the MCP server, in one place so that they agree: every text argument of a tool is at most
 * MAX_TOOL_TEXT_CHARS (the zod `.max()` of each derives from it), and one JSON-RPC message on stdio may be up to
 * MAX_STDIO_MESSAGE_BYTES, enough for such a text even when JSON escapes each character as \uXXXX (6 bytes).
 * A larger message is answered with an error by the transport (stdio.ts), never by dying.
 */
import { MAX_INPUT_TEXT_CHARS } from '../ops/input-schemas.js';

// The operations' input schemas (ops/) hold the text limit; the transport's message limit derives from it here.
export const MAX_TOOL_TEXT_CHARS = MAX_INPUT_TEXT_CHARS;
export const MAX_STDIO_MESSAGE_BYTES = 6 * MAX_TOOL_TEXT_CHARS + 16 * 1024 * 1024;
