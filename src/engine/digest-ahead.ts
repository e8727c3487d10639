/**
 * Model work pipelined across queued remembers (docs/design.md, "Model economy"). With a remote
 * model a digest takes about a second, so while one remember's writes are applied, the digests of
 * the next queued remembers are already asked, several sharing one call (digestMany). Only the
 * model's answers are prepared ahead, in memory: every write still happens in its task, in queue
 * order, and a task uses an answer only if it was asked for exactly the messages it now stores
 * (an earlier remember may have stored some of their ids meanwhile). An eviction or crash loses
 * nothing but the answers: the task asks again.
 */
import { digestOf } from "../models/digest";
import type { ModelMessage, SmallModel, WindowDigest } from "../models/types";

/** Queued remembers whose digests are asked ahead of their turn. */
export const DIGEST_AHEAD_TASKS = 20;
/** Remembers that may share one call (10 messages each: one window of a typical model). */
export const DIGEST_SHARED_TASKS = 5;

export interface Conversation {
  taskId: string;
  messages: ModelMessage[];
}

interface Prepared {
  key: string;
  digest: Promise<WindowDigest | undefined>;
  /** The answer, once it has come. */
  settled?: WindowDigest | undefined;
}

const keyOf = (messages: readonly ModelMessage[]): string => JSON.stringify(messages);

export class DigestAhead {
  private readonly prepared = new Map<string, Prepared>();

  /**
   * The digest of `current`, prepared ahead when it was (and for these very messages), else asked
   * now together with the first queued remembers not yet asked for; the remaining `upcoming`
   * ones are asked in further shared calls of DIGEST_SHARED_TASKS, in flight while this remember
   * is written.
   */
  async digest(model: SmallModel, current: Conversation, upcoming: readonly Conversation[], summaryMax: number): Promise<WindowDigest> {
    const kept = this.prepared.get(current.taskId);
    this.prepared.delete(current.taskId);
    const waiting = upcoming.filter((c) => c.taskId !== current.taskId && c.messages.length > 0 && !this.prepared.has(c.taskId));
    let mine = kept?.key === keyOf(current.messages) ? kept.digest : undefined;
    if (!mine) {
      this.ask(model, [current, ...waiting.splice(0, DIGEST_SHARED_TASKS - 1)], summaryMax);
      mine = this.prepared.get(current.taskId)?.digest;
      this.prepared.delete(current.taskId);
    }
    // Only full groups ahead: a remainder waits to fill up, or for its own turn.
    for (let at = 0; at + DIGEST_SHARED_TASKS <= waiting.length; at += DIGEST_SHARED_TASKS) {
      this.ask(model, waiting.slice(at, at + DIGEST_SHARED_TASKS), summaryMax);
    }
    this.forgetBeyond(upcoming);
    return (await mine) ?? digestOf(model, current.messages, summaryMax);
  }

  /** One shared call for `group`; every conversation's answer is kept under its task. */
  private ask(model: SmallModel, group: readonly Conversation[], summaryMax: number): void {
    const conversations = group.map((c) => c.messages);
    // A failed shared call is no failure of a task: each asks again in its turn.
    const all = (model.digestMany ? model.digestMany(conversations, summaryMax) : Promise.resolve(undefined)).catch(() => undefined);
    group.forEach((c, i) => {
      const prepared: Prepared = { key: keyOf(c.messages), digest: all.then((r) => r?.[i]) };
      void prepared.digest.then((d) => (prepared.settled = d));
      this.prepared.set(c.taskId, prepared);
    });
  }

  /** The digest of a queued conversation if it was asked ahead for these messages and has come. */
  known(conversation: Conversation): WindowDigest | undefined {
    const prepared = this.prepared.get(conversation.taskId);
    return prepared?.key === keyOf(conversation.messages) ? prepared.settled : undefined;
  }

  /** Answers for tasks no longer queued (deleted, failed) are dropped once the map outgrows the window. */
  private forgetBeyond(upcoming: readonly Conversation[]): void {
    if (this.prepared.size <= 2 * DIGEST_AHEAD_TASKS) return;
    const queued = new Set(upcoming.map((c) => c.taskId));
    for (const id of this.prepared.keys()) if (!queued.has(id)) this.prepared.delete(id);
  }
}
