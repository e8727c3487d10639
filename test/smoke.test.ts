import { env } from "cloudflare:test";
import { expect, it } from "vitest";

it("applies the D1 migrations", async () => {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM nodes").first<{ n: number }>();
  expect(row?.n).toBe(0);
});
