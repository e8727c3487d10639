/**
 * A simulated clock for rate-limit tests: `sleep` advances time at once and records the wait, so a
 * test can run minutes of 429 back-off in milliseconds and still check how long it would have taken.
 */
import type { Clock } from "../../src/models/rate/clock";

export class SimClock implements Clock {
  readonly sleeps: number[] = [];
  private time: number;

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.time += ms;
  }

  /** Time passed without a sleep (e.g. between two remembers). */
  advance(ms: number): void {
    this.time += ms;
  }

  get slept(): number {
    return this.sleeps.reduce((sum, ms) => sum + ms, 0);
  }
}
