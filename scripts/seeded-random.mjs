// The one seeded generator of the repository's scripts and tests (the fidelity mutants, the emulator's faults,
// the quick-check mutations): plain JavaScript, so a script on plain node and a test under vitest both import it
// as it is, with no build step.

/** mulberry32: small, fast, spread evenly; the same seed gives the same numbers in [0, 1) on every machine. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
