/**
 * Time as the rate limiter sees it. Waits for a rate limit last seconds to minutes, so tests run
 * them on a simulated clock (test/fakes/sim-clock.ts) where sleeping advances time at once.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
