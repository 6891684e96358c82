/** 100-ns intervals between the UUID epoch (1582-10-15) and the Unix epoch, in milliseconds. */
const GREGORIAN_OFFSET_MS = 12_219_292_800_000;

/**
 * The time a version-1 (time-based) UUID was made, in Unix ms; null for any other version or text.
 * Cassandra and ScyllaDB give user tables such ids (TableId.generate → a time UUID), so a table's id dates its creation.
 */
export function timeUuidMs(text: string | null | undefined): number | null {
  const m = /^([0-9a-f]{8})-([0-9a-f]{4})-1([0-9a-f]{3})-[0-9a-f]{4}-[0-9a-f]{12}$/i.exec((text ?? '').trim());
  if (!m) return null;
  const ticks = (BigInt(`0x${m[3]}`) << 48n) | (BigInt(`0x${m[2]}`) << 32n) | BigInt(`0x${m[1]}`);
  return Number(ticks / 10_000n) - GREGORIAN_OFFSET_MS;
}
