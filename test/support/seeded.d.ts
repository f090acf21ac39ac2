/** The same numbers in [0, 1) for the same seed (mulberry32). */
export function seeded(seed: number): () => number;
