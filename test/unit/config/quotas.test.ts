import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseDuration } from "../../../src/config/durations";
import {
  limitsOf,
  QuotaOverridesSchema,
  quotaDefaults,
  REQUEST_RATE_UNITS,
  requestRateDelta,
  secondsToNextUtcDay,
  utcDay,
} from "../../../src/config/quotas";
import { scopeAllows } from "../../../src/vocabulary/scopes";

const ROOT = path.join(import.meta.dirname, "..", "..", "..");

/** How many requests the rate-limiting binding lets through: calls are allowed while the count is below the limit. */
function allowedPerWindow(delta: number): number {
  let count = 0;
  let allowed = 0;
  while (count < REQUEST_RATE_UNITS) {
    count += delta;
    allowed += 1;
  }
  return allowed;
}

describe("the request-rate quota on one binding", () => {
  it("gives every limit up to 1,000 exactly, and limits up to 10,000 within 1 %", () => {
    for (let limit = 1; limit <= 1_000; limit++) expect(allowedPerWindow(requestRateDelta(limit)), `limit ${limit}`).toBe(limit);
    for (const limit of [1_001, 1_234, 2_500, 4_999, 7_777, 10_000]) {
      const allowed = allowedPerWindow(requestRateDelta(limit));
      expect(allowed).toBeLessThanOrEqual(limit);
      expect(allowed).toBeGreaterThanOrEqual(limit * 0.99);
    }
    expect(requestRateDelta(REQUEST_RATE_UNITS)).toBe(1);
  });

  it("both wrangler configurations give REQUEST_RATE the units this code divides", () => {
    for (const file of ["wrangler.toml", "wrangler.local.toml"]) {
      const toml = readFileSync(path.join(ROOT, file), "utf8");
      const block = /\[\[ratelimits\]\]\s*\nname = "REQUEST_RATE"[\s\S]*?simple = \{ limit = (\d+), period = (\d+) \}/.exec(toml);
      expect(block, file).not.toBeNull();
      expect(Number(block?.[1])).toBe(REQUEST_RATE_UNITS);
      expect(Number(block?.[2])).toBe(60);
    }
  });
});

describe("quota defaults and overrides", () => {
  it("reads the vars, falls back to the built-in defaults, and refuses a var out of bounds", () => {
    expect(quotaDefaults({ QUOTA_AGENTS_PER_TENANT: "3", QUOTA_MESSAGES_PER_DAY: "" })).toMatchObject({
      agents: 3,
      messagesPerDay: 1_000_000,
    });
    // Unset: no per-tenant rate beyond the binding's own (one unit a request); wrangler.toml sets one.
    expect(quotaDefaults({}).requestsPerMinute).toBe(REQUEST_RATE_UNITS);
    expect(() => quotaDefaults({ QUOTA_REQUESTS_PER_MINUTE: "0" })).toThrow(/QUOTA_REQUESTS_PER_MINUTE/);
    expect(() => quotaDefaults({ QUOTA_NODES_PER_AGENT: "ten" })).toThrow(/QUOTA_NODES_PER_AGENT/);
  });

  it("an override wins over the default; null keeps the default", () => {
    const defaults = quotaDefaults({});
    const limits = limitsOf(defaults, {
      maxAgents: 2,
      maxNodesPerAgent: null,
      messagesPerDay: 50,
      requestsPerMinute: null,
      modelWeight: 3,
    });
    expect(limits).toEqual({ ...defaults, agents: 2, messagesPerDay: 50, modelWeight: 3 });
  });

  it("overrides are whole numbers within bounds; null clears one; unknown names are refused", () => {
    expect(QuotaOverridesSchema.parse({ agents: "5", messages_per_day: null })).toEqual({ agents: 5, messages_per_day: null });
    expect(QuotaOverridesSchema.safeParse({ agents: 0 }).success).toBe(false);
    expect(QuotaOverridesSchema.safeParse({ agents: 1.5 }).success).toBe(false);
    expect(QuotaOverridesSchema.safeParse({ agent: 5 }).success).toBe(false);
  });
});

describe("days and durations", () => {
  it("a day is the UTC day; the daily quota's Retry-After reaches the next UTC midnight", () => {
    const t = Date.parse("2026-11-27T23:59:30.250Z");
    expect(utcDay(t)).toBe("2026-11-27");
    expect(secondsToNextUtcDay(t)).toBe(30);
    expect(secondsToNextUtcDay(Date.parse("2026-11-28T00:00:00Z"))).toBe(86_400);
  });

  it("durations are a whole number and s, m, h or d, nothing else", () => {
    expect(parseDuration("30d")).toBe(30 * 86_400_000);
    expect(parseDuration("1h")).toBe(3_600_000);
    expect(parseDuration("90s")).toBe(90_000);
    for (const bad of ["", "1", "1.5h", "-1h", "1w", "h", "1 h x"]) expect(parseDuration(bad), bad).toBeUndefined();
  });
});

describe("scopes", () => {
  it("each scope holds the ones before it", () => {
    expect(scopeAllows("admin", "write")).toBe(true);
    expect(scopeAllows("write", "read")).toBe(true);
    expect(scopeAllows("write", "admin")).toBe(false);
    expect(scopeAllows("read", "write")).toBe(false);
  });
});
