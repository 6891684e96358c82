/**
 * The one error type: what was wrong (message), what to do (fix), and a code scripts can match. Thrown by every
 * layer (core has no I/O, so it is the lowest home); the narrower error classes (LabError, MkfsPlanError…) extend it.
 */
export class OpError extends Error {
  /** Refused before anything ran (bad input, not allowed, not confirmed): the CLI exits 2, not 1. */
  readonly refused: boolean;

  constructor(
    readonly code: string,
    message: string,
    readonly fix: string,
    options?: { cause?: unknown; refused?: boolean },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OpError';
    this.refused = options?.refused ?? isRefusalCode(code);
  }
}

export function isOpError(e: unknown): e is OpError {
  return e instanceof OpError;
}

/**
 * Codes that mean "refused, or bad input" when the thrower did not say: families by prefix (BAD_*, INVALID*,
 * NOT_A_*, UNKNOWN_*, STRESS_BAD_*) and the refusals by name. Everything else (a node unreachable, a disk full, a
 * run that failed) means the operation ran and failed.
 */
const REFUSAL_PREFIXES = ['BAD_', 'STRESS_BAD_', 'INVALID', 'NOT_A_', 'UNKNOWN_'];
const REFUSAL_CODES: ReadonlySet<string> = new Set([
  'NO_INPUT',
  'NO_CONTACT_POINTS',
  'NO_CONFIG_FILES',
  'TOO_LARGE',
  'TWO_YAMLS',
  'STRESS_TOO_LONG',
  'STRESS_CONFIRM_REQUIRED',
  'STRESS_TARGET_NOT_ALLOWED',
  'DEVICE_MOUNTED',
  'DEVICE_IN_USE',
  'NOT_ALLOWED',
  'SUBCOMMAND_NOT_ALLOWED',
  'CONFIRMATION_REQUIRED',
]);

export function isRefusalCode(code: string): boolean {
  return REFUSAL_CODES.has(code) || REFUSAL_PREFIXES.some((p) => code.startsWith(p));
}

const BUG_FIX = 'This looks like a bug in cql-tuner; please report it with the message.';

/** Any error as {code, message, fix, refused}: an OpError keeps its own; anything else is INTERNAL. */
export function describeError(e: unknown): { code: string; message: string; fix: string; refused: boolean } {
  if (e instanceof OpError) return { code: e.code, message: e.message, fix: e.fix, refused: e.refused };
  if (e instanceof Error) {
    // Node's own errors carry a code (ENOENT, EACCES…) but no fix.
    const rec = e as Error & { code?: unknown; fix?: unknown };
    const code = typeof rec.code === 'string' ? rec.code : 'INTERNAL';
    return { code, message: e.message, fix: typeof rec.fix === 'string' ? rec.fix : BUG_FIX, refused: isRefusalCode(code) };
  }
  return { code: 'INTERNAL', message: String(e), fix: BUG_FIX, refused: false };
}
