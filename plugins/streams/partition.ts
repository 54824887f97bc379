/**
 * Which partition a message goes to. A key always lands on the same partition of a stream with
 * the same partition count (32-bit FNV-1a of its UTF-8 bytes, modulo the count), whatever the
 * instance or backend; messages without a key are spread round-robin.
 */
export function partitionOfKey(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}

let next = 0;

export function partitionFor(key: string | null, partitions: number): number {
  if (key !== null) return partitionOfKey(key, partitions);
  next = (next + 1) % 1_000_000;
  return next % partitions;
}
