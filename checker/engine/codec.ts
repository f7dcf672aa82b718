/**
 * A state as a fixed number of small non-negative integers ("lanes"), so the explorer can keep it in
 * one typed array instead of an object and a string key. `decode(encode(s))` must equal `s` under the
 * model's key: the lanes are the state, not a hash of it.
 */
export interface StateCodec<S> {
  /** Lanes per state. */
  readonly width: number;
  /** Writes the state's lanes into `out[offset .. offset + width)`; every lane a non-negative integer below 2^32. */
  encode(state: S, out: Uint32Array, offset: number): void;
  /** The state whose lanes are `lanes[offset .. offset + width)`. */
  decode(lanes: Uint16Array | Uint32Array, offset: number): S;
  /** The lanes of the state with this model key, or undefined when the key names no state of this codec. */
  lanesOfKey?(key: string): Uint32Array | undefined;
}

/** Murmur3's 32-bit mix over `width` lanes: stable across runs, so the search order stays deterministic. */
export function hashLanes(
  lanes: Uint16Array | Uint32Array,
  offset: number,
  width: number,
  seed = 0x9747b28c,
): number {
  let hash = seed ^ width;
  for (let i = offset; i < offset + width; i++) {
    let k = Math.imul(lanes[i], 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    hash ^= Math.imul(k, 0x1b873593);
    hash = (hash << 13) | (hash >>> 19);
    hash = (Math.imul(hash, 5) + 0xe6546b64) | 0;
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash | 0;
}
