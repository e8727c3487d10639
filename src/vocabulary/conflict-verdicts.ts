/**
 * What a pair of memories about a shared entity is to each other (docs/design.md, "Memory
 * operations", conflicts on write): unrelated: both hold, about different things; same: the same
 * fact again (both kept, copies are independent); update: the same subject and attribute with a
 * newer value (the later supersedes the earlier); contradiction: both cannot hold at once and
 * nothing says it changed over time. Judged by the language library's rules
 * (src/language/conflicts/judge.ts) and by the models.
 */
export const CONFLICT_VERDICTS = ["unrelated", "same", "update", "contradiction"] as const;
export type ConflictVerdict = (typeof CONFLICT_VERDICTS)[number];
