/**
 * Render timings, as User Timing measures the browser keeps (performance.getEntriesByName), so the
 * tests and web/scripts/measure-render.ts read the same figures the page shows in its status line.
 *   <name>:first-render  from the request to the first frame that shows the new nodes
 *   <name>:complete      until every new node's details were read and drawn
 */
export interface Timing {
  firstRender(): number;
  complete(): number;
}

let sequence = 0;

export function startTiming(name: string): Timing {
  sequence += 1;
  const start = `${name}:start#${sequence}`;
  performance.mark(start);
  const measure = (phase: string): number => performance.measure(`${name}:${phase}`, start).duration;
  return { firstRender: () => measure("first-render"), complete: () => measure("complete") };
}
