// Progress types live in core/ so that collect/ and lab/ can report progress without importing ops/.
export { noProgress, type ProgressEvent, type ProgressFn } from '../core/progress.js';
