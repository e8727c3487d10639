/**
 * The tenant's requests per minute (docs/deploy.md, "Quotas"), with Cloudflare's rate-limiting
 * binding (REQUEST_RATE, `[[ratelimits]]` in wrangler.toml), keyed by tenant. The binding has one
 * limit per namespace, in units (REQUEST_RATE_UNITS); a request costs ceil(units / the tenant's
 * requests_per_minute), so each tenant gets its own limit from one binding. The binding counts per
 * Cloudflare location and per window of its own: a limit a client can rely on to within that.
 *
 * Over it: 429 quota_exceeded naming the quota, before anything is read or written. In-process
 * requests (a tool call's operation) are their outer request's and are not counted again. A
 * binding that fails lets the request through (logged): the rate limit protects the service,
 * it must not become the outage.
 */
import type { MiddlewareHandler } from "hono";
import { requestRateDelta } from "../config/quotas";
import type { AppEnv } from "./app-env";
import { quotaExceeded } from "./errors";
import { isInProcess } from "./in-process";

/** Seconds until a window of the binding has surely rolled (its period is a minute). */
const RATE_RETRY_AFTER_S = 60;

export const requestRate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const binding: RateLimit | undefined = c.env.REQUEST_RATE;
  if (binding === undefined || isInProcess(c.req.raw)) return next();
  const { tenantId, limits } = c.get("principal");
  const delta = requestRateDelta(limits.requestsPerMinute);
  let allowed = true;
  try {
    // delta 1 is the binding's default (and older local implementations know no delta).
    allowed = (await binding.limit(delta === 1 ? { key: `tenant:${tenantId}` } : { key: `tenant:${tenantId}`, delta })).success;
  } catch (err) {
    console.warn("the request rate could not be checked; the request goes through", err);
  }
  if (!allowed) throw quotaExceeded("requests_per_minute", limits.requestsPerMinute, RATE_RETRY_AFTER_S);
  await next();
};
