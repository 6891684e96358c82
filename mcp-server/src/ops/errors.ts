// The error type lives in core/ so that collect/ and lab/ can throw it without importing ops/.
export { OpError, isOpError, describeError } from '../core/errors.js';
