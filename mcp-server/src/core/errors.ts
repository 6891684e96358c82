/** An error the user can act on: what was wrong (message) and what to do (fix). Thrown by every layer (core has no I/O, so it is the lowest home). */
export class OpError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fix: string,
  ) {
    super(message);
    this.name = 'OpError';
  }
}

export function isOpError(e: unknown): e is OpError {
  return e instanceof OpError;
}

/** Any error as {code, message, fix}: errors that carry code and fix (LabError, NodetoolNotFound) keep them. */
export function describeError(e: unknown): { code: string; message: string; fix: string } {
  if (e instanceof Error) {
    const rec = e as Error & { code?: unknown; fix?: unknown };
    return {
      code: typeof rec.code === 'string' ? rec.code : 'INTERNAL',
      message: e.message,
      fix: typeof rec.fix === 'string' ? rec.fix : 'This looks like a bug in cql-tuner; please report it with the message.',
    };
  }
  return { code: 'INTERNAL', message: String(e), fix: 'This looks like a bug in cql-tuner; please report it.' };
}
