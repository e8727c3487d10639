/**
 * A real turn of the event loop, so that requests waiting for the object get in (a recall behind a
 * compression scan waits for one page, not the whole cycle). Awaiting D1 is not enough everywhere:
 * in the local runtime D1 answers in-process, and a chain of such calls never lets the loop poll
 * for new requests; a timer does. Used between the pages of long background work.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
}
