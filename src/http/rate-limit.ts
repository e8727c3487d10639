/**
 * Request rates the service bounds per caller (Workers Rate Limiting bindings, wrangler.toml
 * `[[ratelimits]]`): what one caller may spend of what every tenant shares (the account's model
 * budget; the OAuth store). The binding counts per Cloudflare location, so a bound is approximate,
 * which is enough against a loop. Without the binding (an offline harness) nothing is limited.
 */
export const RATE_LIMIT_RETRY_AFTER_S = 60;

/** Whether `key` may make one more request now. */
export async function withinRate(binding: RateLimit | undefined, key: string): Promise<boolean> {
  if (!binding) return true;
  return (await binding.limit({ key })).success;
}
