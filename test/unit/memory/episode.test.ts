import { describe, expect, it } from "vitest";
import { episodeMeta } from "../../../src/memory/episode";

/** A submitted message, as the remember endpoint takes it. */
interface Msg {
  role: "user" | "assistant" | "system";
  content: string;
  name?: string;
  id?: string;
  timestamp?: number;
}

const DAY = 86_400_000;

const T0 = Date.UTC(2026, 2, 10, 9, 0, 0);

/** A team chat in English over several submissions, with names, times and a recurring topic. */
const sessions: Msg[][] = [
  [
    {
      role: "user",
      name: "Alice",
      content: "The Phoenix launch moved to Friday because the payment audit is late.",
      timestamp: T0,
      id: "p1",
    },
    {
      role: "assistant",
      name: "Bob",
      content: "Then the Phoenix press release needs a new date as well.",
      timestamp: T0 + 60_000,
      id: "p2",
    },
    {
      role: "user",
      name: "Alice",
      content: "Carol owns the payment audit; she expects it done by Wednesday.",
      timestamp: T0 + 120_000,
      id: "p3",
    },
  ],
  [
    { role: "user", name: "Dave", content: "Grace fixed the login bug in the Phoenix dashboard.", timestamp: T0 + DAY, id: "p4" },
    {
      role: "assistant",
      name: "Bob",
      content: "Good. The dashboard goes to Tokyo customers next month.",
      timestamp: T0 + DAY + 60_000,
      id: "p5",
    },
  ],
];

describe("the pure pieces", () => {
  it("an episode's participants are counted by messages and its span comes from the messages' times", () => {
    const meta = episodeMeta(sessions[0] ?? [], 3);
    expect(meta.participants).toEqual([
      { name: "Alice", messages: 2 },
      { name: "Bob", messages: 1 },
    ]);
    expect(meta).toMatchObject({ from: T0, to: T0 + 120_000, segments: 3, messages: 3 });
  });
});
