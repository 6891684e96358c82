import { OpError } from '../core/errors.js';
/** Every way the lab can fail, so the CLI and MCP layer can branch on `code` rather than on message text. */
export type LabErrorCode =
  | 'NO_JAVA'
  | 'JAVA_TOO_OLD'
  | 'NO_MAVEN'
  | 'PORT_IN_USE'
  | 'LOOPBACK_UNAVAILABLE'
  | 'NODE_DIED'
  | 'UNSUPPORTED_VERSION'
  | 'BAD_HEAP'
  | 'BAD_NODE_COUNT'
  | 'BAD_TOPOLOGY'
  | 'RESOLVE_FAILED'
  | 'ALREADY_RUNNING'
  | 'CQL_TIMEOUT'
  | 'ABORTED'
  | 'STOP_FAILED'
  | 'BAD_LAB_NET'
  | 'SECURITY_SETUP_FAILED';

/** `message` says what was wrong, `fix` says what the user can do about it. */
export class LabError extends OpError {
  declare readonly code: LabErrorCode;

  constructor(code: LabErrorCode, message: string, fix: string, options?: { cause?: unknown }) {
    super(code, message, fix, options);
    this.name = 'LabError';
  }
}
