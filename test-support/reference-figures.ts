/**
 * Pinned figures of N interleaved reference namespaces: 13^N states, N·19·13^(N-1) transitions, depth 7N.
 * Both explorers must reach exactly these.
 */
export const referenceFigures = [
  { copies: 1, states: 13, transitions: 19, depth: 7 },
  { copies: 2, states: 169, transitions: 494, depth: 14 },
  { copies: 3, states: 2197, transitions: 9633, depth: 21 },
  { copies: 4, states: 28561, transitions: 166972, depth: 28 },
] as const;
