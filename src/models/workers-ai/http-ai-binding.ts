/**
 * An `AiBinding` that forwards each `run` to an HTTP endpoint (AI_SIMULATOR_URL): the benchmark's
 * stand-in for Workers AI (bench/speed/ai-simulator.ts), which answers after the service's latency
 * and refuses beyond the account's rate limits. Only used when the Worker has no AI binding, so a
 * deployment with a real binding never sends anything to it. A refusal comes back as the binding's
 * own failure would: an Error whose message starts with the internal code ("3021: …"), so
 * binding-errors.ts classifies both alike.
 */
import { z } from "zod";
import type { AiBinding } from "./ai-client";

const RUN_ANSWER = z.object({ result: z.unknown() });

export class HttpAiBinding implements AiBinding {
  constructor(private readonly url: string) {}

  async run(model: string, inputs: Record<string, unknown>): Promise<unknown> {
    const res = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model, inputs }),
    });
    if (!res.ok) throw new Error(await res.text());
    const answer = RUN_ANSWER.safeParse(await res.json());
    if (!answer.success) throw new Error(`the AI simulator answered without a result: ${answer.error.message}`);
    return answer.data.result;
  }
}
