/**
 * Remembers event lines already counted, so a node's system.log and debug.log read together count each event
 * once: debug.log repeats every INFO+ line of system.log byte for byte (same timestamp to the millisecond, thread,
 * logger and message). A line is a repeat only when an EARLIER file had it: inside one file, two identical lines are
 * two events (Cassandra 3.11 logs some tombstone warnings twice in the same millisecond). Only lines that carry a
 * full timestamp and produced an event are offered, and only a 53-bit hash of each is kept, under a cap, so memory
 * stays bounded on any input. Pure.
 */
const CAP = 1_000_000;

export class SeenLines {
  /** Line hash → the input (file) it was first seen in. */
  private readonly keys = new Map<number, number>();
  /** True once the cap was reached: later lines are no longer deduplicated. */
  full = false;

  /**
   * True when the very same line came in an earlier input than `source`. It is remembered otherwise, unless
   * `remember` is false: the last input of a stream need not be remembered, and a single file costs no hashing.
   */
  repeatsEarlier(s: string, source: number, remember = true): boolean {
    if (!remember && this.keys.size === 0) return false;
    // FNV-1a and djb2 side by side, 32 + 21 bits: a collision between two of a million lines is ~1e-4 likely
    // the first 192 characters (timestamp, thread, file:line and the message's start) and the length: enough to
    // tell events apart, and a bounded cost per line
    let a = 0x811c9dc5 ^ s.length;
    let b = 5381 + s.length;
    const n = Math.min(s.length, 192);
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = (Math.imul(b, 33) + c) | 0;
    }
    const key = (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
    const first = this.keys.get(key);
    if (first !== undefined) return first < source;
    if (!remember) return false;
    if (this.keys.size >= CAP) this.full = true;
    else this.keys.set(key, source);
    return false;
  }
}
