/**
 * What the fault suite sends: deterministic messages (the speed benchmark's synthetic chat
 * streams, seeded) and the writes an agent receives, as steps.
 *
 * Every message has an id and carries a code word of its own (`zq` + four letters + `o`: lower
 * case, ending in a vowel no stemmer touches, a keyword but never an entity), so that a keyword
 * search for it finds exactly the memory that holds that message's text.
 *
 * Each agent's steps are recorded as the faulty run sends them (`AgentLog`), with the
 * Idempotency-Key each write was given; the twin replays exactly that list, in that order.
 */
import { seededRandom } from "../../src/memory/capacity";
import { chatStream, type StreamLang } from "../../bench/speed/streams";
import type { Agent, Config, Message } from "./api";

export type Step =
  | { op: "remember"; messages: Message[] }
  | { op: "config"; patch: Config }
  | { op: "compress"; cycles: number }
  | { op: "delete" }
  /**
   * Pin (or unpin) the memory that holds a message's code word, found when the step is sent (the
   * queue idle first, as for a compression): `nodeId` is what was found (null: none, nothing sent),
   * and the twin sends exactly that.
   */
  | { op: "pin"; code: string; pinned: boolean; nodeId?: number | null };

export interface LoggedStep {
  step: Step;
  key: string;
  /** Task ids the API gave (remember, compress), once answered. */
  taskIds: string[];
  /** Kill epochs in which a send of this step lost its answer (it was sent again, same key). */
  lostIn: number[];
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** The code word of message number `n` (n < 26⁴). */
export function codeWord(n: number): string {
  let s = "";
  let x = n;
  for (let i = 0; i < 4; i++) {
    s = (LETTERS[x % 26] ?? "a") + s;
    x = Math.floor(x / 26);
  }
  return `zq${s}o`;
}

/** The code words in a text. */
export function codesIn(text: string): string[] {
  return text.match(/\bzq[a-z]{4}o\b/g) ?? [];
}

/** Hands out message numbers: every message of a run has its own code word. */
export class MessageSource {
  private next = 0;
  /** Message id → its code word, for every message handed out. */
  readonly codeOf = new Map<string, string>();

  /** `count` messages of a seeded chat stream, ids `${prefix}:${i}`, each with its code word. */
  messages(lang: StreamLang, count: number, seed: number, prefix: string): Message[] {
    return chatStream(lang, count, seed, prefix).map((m, i) => {
      const code = codeWord(this.next++);
      const id = `${prefix}:${i}`;
      this.codeOf.set(id, code);
      const content = lang === "en" ? `${m.content} (ref ${code})` : `${m.content}（编号 ${code}）`;
      const out: Message = { role: m.role === "assistant" ? "assistant" : "user", content, id };
      if (m.name !== undefined) out.name = m.name;
      if (m.timestamp !== undefined) out.timestamp = m.timestamp;
      return out;
    });
  }
}

/** Splits messages into remember calls of `sizes()` messages each. */
export function chunks<T>(xs: readonly T[], size: (i: number) => number): T[][] {
  const out: T[][] = [];
  for (let at = 0, i = 0; at < xs.length; i++) {
    const n = Math.max(1, size(i));
    out.push(xs.slice(at, at + n));
    at += n;
  }
  return out;
}

/**
 * A mixed script for one agent: remembers of 1–6 messages (some repeating an earlier message,
 * id and all, as an overlapping client submission would), parameter changes, compression
 * requests and, when `deleteAt` is given, an agent deletion at that step. Seeded. Behind every
 * eighth step a pin of the memory its last remember wrote first, and four steps later an unpin of
 * it (added without drawing from the seeded sequence, so the rest of the script is unchanged).
 */
export function mixedScript(
  source: MessageSource,
  agentId: string,
  seed: number,
  steps: number,
  lang: StreamLang,
  deleteAt?: number,
): Step[] {
  const rand = seededRandom(seed);
  const pool = source.messages(lang, steps * 6, seed, agentId);
  const sent: Message[] = [];
  const script: Step[] = [];
  const patches: Config[] = [
    { decay_rate: 0.8 },
    { decay_rate: 0.95, focus_limit: 3 },
    { focus_limit: 8 },
    { auto_compress: false },
    { auto_compress: true, link_initial_strength: 0.3 },
    { decay_rate: 0.9, delete_threshold: 8 },
  ];
  let at = 0;
  let pinnedCode: string | undefined;
  for (let i = 0; i < steps; i++) {
    if (i === deleteAt) {
      script.push({ op: "delete" });
      continue;
    }
    const r = rand();
    if (r < 0.1) script.push({ op: "config", patch: patches[Math.floor(rand() * patches.length)] ?? {} });
    else if (r < 0.2) script.push({ op: "compress", cycles: 1 + Math.floor(rand() * 5) });
    else {
      const n = 1 + Math.floor(rand() * 6);
      const messages = pool.slice(at, at + n);
      at += n;
      // One in ten repeats a message sent before (same id, same text): it must not be stored twice.
      const again = sent.length > 0 && rand() < 0.1 ? sent[Math.floor(rand() * sent.length)] : undefined;
      if (again) messages.splice(Math.floor(rand() * (messages.length + 1)), 0, again);
      sent.push(...messages);
      script.push({ op: "remember", messages });
    }
    const code = codesIn(messages0(script)?.content ?? "")[0];
    if (i % 8 === 3 && code !== undefined) {
      script.push({ op: "pin", code, pinned: true });
      pinnedCode = code;
    } else if (i % 8 === 7 && pinnedCode !== undefined) {
      script.push({ op: "pin", code: pinnedCode, pinned: false });
      pinnedCode = undefined;
    }
  }
  return script;
}

/** The first message of the script's last remember. */
function messages0(script: readonly Step[]): Message | undefined {
  for (let i = script.length - 1; i >= 0; i--) {
    const step = script[i];
    if (step?.op === "remember") return step.messages[0];
  }
  return undefined;
}

/**
 * Sends steps to one agent and records them. A compression request is sent only once the queue is
 * idle: the API runs cycles queued back to back as one pass (src/operations/compress-memories/task.ts), so a compress
 * sent while a remember's own cycle still waits would merge with it depending on timing. Waiting
 * for idle makes every run merge the same cycles.
 */
export class AgentLog {
  readonly steps: LoggedStep[] = [];
  /** Writes answered 2xx. */
  accepted = 0;
  /** Writes whose answer a kill took, sent again with the same key. */
  retried = 0;

  constructor(
    readonly agent: Agent,
    /** Called after every accepted write (kill triggers count them). */
    private readonly onAccepted: () => void = () => {},
  ) {}

  get id(): string {
    return this.agent.id;
  }

  /** Sends one step; `idleFirst` for a compression request (see above). */
  async run(step: Step): Promise<LoggedStep> {
    if (step.op === "compress" || step.op === "pin") await this.agent.idle();
    if (step.op === "pin") step.nodeId = (await this.agent.search(step.code, "keyword", 5))[0]?.node_id ?? null;
    const logged: LoggedStep = { step, key: `${this.id}.${this.steps.length}`, taskIds: [], lostIn: [] };
    this.steps.push(logged);
    await send(this.agent, logged, () => this.answered(logged));
    return logged;
  }

  /**
   * Starts one step and resolves once it is known to be queued (`accepted`: the caller's own
   * check, e.g. the agent's task count), leaving its answer to come later (`answer`). For a
   * DELETE or PUT config, whose answer waits until the change is applied.
   */
  start(step: Step): { logged: LoggedStep; answer: Promise<void> } {
    const logged: LoggedStep = { step, key: `${this.id}.${this.steps.length}`, taskIds: [], lostIn: [] };
    this.steps.push(logged);
    const answer = send(this.agent, logged, () => this.answered(logged));
    return { logged, answer };
  }

  private answered(logged: LoggedStep): void {
    if (logged.lostIn.length > 0) this.retried += 1;
    this.accepted += 1;
    this.onAccepted();
  }
}

/** Sends a logged step (with its key) and records its task ids and lost answers. */
export async function send(agent: Agent, logged: LoggedStep, answered: () => void = () => {}): Promise<void> {
  const { step, key } = logged;
  switch (step.op) {
    case "remember": {
      const a = await agent.remember(step.messages, key);
      logged.taskIds = [a.value.task_id];
      logged.lostIn = a.lostIn;
      break;
    }
    case "config":
      logged.lostIn = (await agent.configure(step.patch, key)).lostIn;
      break;
    case "compress": {
      const a = await agent.compress(step.cycles, key);
      logged.taskIds = a.value.task_ids;
      logged.lostIn = a.lostIn;
      break;
    }
    case "delete":
      logged.lostIn = (await agent.delete(key)).lostIn;
      break;
    case "pin":
      if (step.nodeId !== undefined && step.nodeId !== null) logged.lostIn = (await agent.pin(step.nodeId, step.pinned, key)).lostIn;
      break;
  }
  answered();
}
