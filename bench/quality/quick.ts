/**
 * The --quick smoke check: small enough to finish in about a minute, wide enough to exercise every
 * path (all configurations, both query modes, every LoCoMo category, MADial when given).
 * The first LoCoMo conversation and every 8th of its questions (the file groups questions by
 * category, so a stride keeps all categories); every 8th MADial item. Pure module.
 */
import type { LocomoConversation } from "../lib/locomo";
import type { MadialDataset } from "../lib/madial";

export const QUICK_STRIDE = 8;

export const everyNth = <T>(xs: readonly T[], n: number): T[] => xs.filter((_x, i) => i % n === 0);

export function quickLocomo(conversations: readonly LocomoConversation[]): LocomoConversation[] {
  const first = conversations[0];
  return first ? [{ ...first, questions: everyNth(first.questions, QUICK_STRIDE) }] : [];
}

export function quickMadial<D extends MadialDataset>(ds: D): D {
  return { ...ds, items: everyNth(ds.items, QUICK_STRIDE) };
}
