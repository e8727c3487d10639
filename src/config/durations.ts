/**
 * Durations as operators write them (`--expires-in 30d`, `--grace 1h`): a whole number and a unit,
 * s, m, h or d. Nothing else is accepted, so a typo is an error rather than a surprise.
 */
import { z } from "zod";

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^([0-9]{1,7})([smhd])$/;

/** Milliseconds of `text`, or undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const [, amount, unit] = match;
  return Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
}

/** A duration, at most `maxMs`, as milliseconds. */
export function durationSchema(maxMs: number) {
  return z
    .string()
    .transform((text, ctx) => {
      const ms = parseDuration(text);
      if (ms === undefined) {
        ctx.addIssue({ code: "custom", message: 'a duration: a whole number and s, m, h or d ("30d", "1h")' });
        return z.NEVER;
      }
      if (ms > maxMs) {
        ctx.addIssue({ code: "custom", message: `at most ${Math.round(maxMs / 86_400_000)} days` });
        return z.NEVER;
      }
      return ms;
    })
    .describe('A duration: a whole number and s, m, h or d ("30d", "1h").');
}
