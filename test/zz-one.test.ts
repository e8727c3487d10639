import { it } from "vitest";
import { call, freshAgent, rememberAndWait } from "./helpers";
it("times remembers", async () => {
  const a = freshAgent("t");
  const t0 = Date.now();
  for (let i = 0; i < 30; i++) await rememberAndWait(a, [{ role: "user", content: `Ticket ${i}: Alice reviewed the Orion release notes.`, id: `t${i}` }]);
  console.log("ZZ serial 30 in", Date.now() - t0);
  const t1 = Date.now();
  for (let i = 30; i < 60; i++) await call(`/v1/agents/${a}/remember`, { body: { messages: [{ role: "user", content: `Ticket ${i}: Bob reviewed the Vega notes.`, id: `t${i}` }] } });
  await call(`/v1/agents/${a}/stats?wait_ms=30000`);
  console.log("ZZ burst 30 in", Date.now() - t1);
});
