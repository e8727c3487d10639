/**
 * Conflict verdicts asked ahead of their turn (docs/design.md, "Model economy"). The conflict check
 * of a remember stays in its place in the queue's order, so the network never depends on timing;
 * what moves is the model call. When a remember's check needs verdicts, the pairs that the queued
 * remembers behind it will probably ask about (their digests are already known: digest-ahead.ts)
 * go into the same call, and when they come to be checked, their verdicts are already here. Only
 * answers are kept, in memory, keyed by the whole question: the two memories' texts and the entities
 * the pair is about (a remote model's prompt names them). A check uses only answers to the very
 * questions it asks, so its verdicts are those it would get in its turn; a pair that was not foreseen
 * as asked (another candidate, a text that changed, a link to an entity that broke since) is simply
 * asked. An eviction or crash loses nothing but the answers.
 */
import { judgeConflict, mayConflict } from "../language/conflicts/judge";
import { ParseCache } from "../language/conflicts/parse";
import type { ConflictPair, ConflictVerdict, SmallModel } from "../models/types";

/** Verdicts kept (asked ahead or already used); a remember asks about a few dozen pairs. */
const KEPT_VERDICTS = 16_384;
/**
 * Pairs one call carries (before the model's own filter closes some), the running check's own
 * first. Pairs foreseen beyond a call the running check makes go in calls of their own only as
 * full ones: fewer wait for the next check that needs a call, and ride along.
 */
export const AHEAD_FILL_PAIRS = 160;

/** Pairs foreseen for the queued remembers, in queue order; the first `next` are the next remember's. */
export interface Foreseen {
  pairs: readonly ConflictPair[];
  next: number;
}

export const NOTHING_FORESEEN: Foreseen = { pairs: [], next: 0 };

/** A pair's question: what the model is asked about it. */
const keyOf = (pair: ConflictPair): string => JSON.stringify([pair.earlier, pair.later, pair.entities]);
/** A pair's texts only: what foresight looks verdicts up by. */
const textsOf = (pair: Pick<ConflictPair, "earlier" | "later">): string => JSON.stringify([pair.earlier, pair.later]);

export class VerdictsAhead {
  /** By question, oldest first (a Map keeps insertion order): past KEPT_VERDICTS the oldest go. */
  private readonly known = new Map<string, Promise<ConflictVerdict | undefined>>();
  /** The verdicts that have come, by the pair's texts (the latest, whatever entities it was asked about): foresight only. */
  private readonly settled = new Map<string, ConflictVerdict>();

  /** The classical rules' parses, for guesses (the agent's own: never shared between tenants). */
  private readonly parses = new ParseCache();

  /** The verdict on a pair if it was asked and has come (what foresight may build on). */
  verdictOf(pair: Pick<ConflictPair, "earlier" | "later">): ConflictVerdict | undefined {
    return this.settled.get(textsOf(pair));
  }

  /**
   * The model's verdict if it has come, else the classical rules' guess at it: foresight only (which
   * pairs an update will bring), never a verdict a check uses. The texts' taggers must be loaded.
   */
  likelyVerdict(pair: Pick<ConflictPair, "earlier" | "later">): ConflictVerdict {
    const known = this.settled.get(textsOf(pair));
    if (known !== undefined) return known;
    return mayConflict(pair, this.parses) ? judgeConflict(pair, this.parses) : "unrelated";
  }

  /**
   * The verdicts on `pairs`, in order: those already asked are awaited, the others asked now, in
   * one call together with `ahead` pairs nobody asked about yet; further `ahead` pairs are asked in
   * full calls nobody waits for. A failed call ahead is no failure: its pairs are asked again in
   * their turn.
   */
  async judge(
    model: Pick<SmallModel, "judgeConflicts">,
    pairs: readonly ConflictPair[],
    foresee: () => Promise<Foreseen>,
  ): Promise<{ verdicts: ConflictVerdict[]; foreseen: number }> {
    const mine = new Map<string, Promise<ConflictVerdict | undefined>>();
    for (const pair of pairs) {
      const kept = this.known.get(keyOf(pair));
      if (kept) mine.set(keyOf(pair), kept);
    }
    const missing = unique(pairs.filter((p) => !mine.has(keyOf(p))));
    const missingKeys = new Set(missing.map(keyOf));
    const unasked = (p: ConflictPair) => !missingKeys.has(keyOf(p)) && !this.known.has(keyOf(p));
    let got: (ConflictVerdict | undefined)[];
    if (missing.length > 0) {
      // The running check's call carries pairs ahead up to AHEAD_FILL_PAIRS; more go in a call of
      // their own that nobody waits for.
      const ahead = await foresee();
      const extra = unique(ahead.pairs.filter(unasked));
      const fill = extra.slice(0, Math.max(0, AHEAD_FILL_PAIRS - missing.length));
      const call = model.judgeConflicts([...missing, ...fill]);
      this.keep([...missing, ...fill], call);
      this.askAhead(model, extra.slice(fill.length), ahead.pairs.slice(0, ahead.next).some(unasked));
      // The running check's own verdicts: a failure here is the task's (it is retried).
      const verdicts = await call;
      missing.forEach((p, i) => mine.set(keyOf(p), Promise.resolve(verdicts[i])));
      got = await Promise.all(pairs.map((p) => mine.get(keyOf(p)) ?? Promise.resolve(undefined)));
    } else {
      // Foreseen after this check's own verdicts have come: updates among them move entities.
      got = await Promise.all(pairs.map((p) => mine.get(keyOf(p)) ?? Promise.resolve(undefined)));
      const ahead = await foresee();
      // The next remember will want its verdicts in a moment: then no pair waits for a fuller call.
      this.askAhead(model, unique(ahead.pairs.filter(unasked)), ahead.pairs.slice(0, ahead.next).some(unasked));
    }
    // Pairs whose call ahead failed: asked again now, together.
    const failed = unique(pairs.filter((_p, i) => got[i] === undefined));
    const foreseen = pairs.filter((p) => !missingKeys.has(keyOf(p))).length;
    if (failed.length === 0) return { verdicts: got.filter((v): v is ConflictVerdict => v !== undefined), foreseen };
    const again = model.judgeConflicts(failed);
    this.keep(failed, again);
    const verdicts = await again;
    const byKey = new Map(failed.map((p, i) => [keyOf(p), verdicts[i]]));
    const all = pairs.map((p, i) => {
      const verdict = got[i] ?? byKey.get(keyOf(p));
      if (verdict === undefined) throw new Error("the model gave no verdict for a pair");
      return verdict;
    });
    return { verdicts: all, foreseen };
  }

  /** Calls of AHEAD_FILL_PAIRS pairs, side by side; unless `all`, a remainder waits for a later check. */
  private askAhead(model: Pick<SmallModel, "judgeConflicts">, pairs: readonly ConflictPair[], all: boolean): void {
    for (let at = 0; at < pairs.length && (all || at + AHEAD_FILL_PAIRS <= pairs.length); at += AHEAD_FILL_PAIRS) {
      const chunk = pairs.slice(at, at + AHEAD_FILL_PAIRS);
      this.keep(chunk, model.judgeConflicts(chunk));
    }
  }

  private remember(pair: ConflictPair, verdict: Promise<ConflictVerdict | undefined>): void {
    const key = keyOf(pair);
    this.known.delete(key);
    this.known.set(key, verdict);
    void verdict.then((v) => {
      if (v === undefined || this.known.get(key) !== verdict) return;
      const texts = textsOf(pair);
      this.settled.delete(texts);
      this.settled.set(texts, v);
      dropOldest(this.settled);
    });
    dropOldest(this.known);
  }

  private keep(pairs: readonly ConflictPair[], call: Promise<ConflictVerdict[]>): void {
    const settled = call.catch(() => undefined);
    pairs.forEach((p, i) =>
      this.remember(
        p,
        settled.then((v) => v?.[i]),
      ),
    );
  }
}

/** Past KEPT_VERDICTS entries, the oldest go. */
function dropOldest(map: Map<string, unknown>): void {
  for (const oldest of map.keys()) {
    if (map.size <= KEPT_VERDICTS) break;
    map.delete(oldest);
  }
}

/** Each question once (the first pair asking it), in order. */
function unique(pairs: readonly ConflictPair[]): ConflictPair[] {
  const seen = new Set<string>();
  return pairs.filter((p) => {
    const key = keyOf(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
