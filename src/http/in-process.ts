/**
 * Requests the Worker sends to its own app in-process (tools/call and MCP run an operation's REST
 * request so: src/surfaces/in-process.ts). They are the outer request's work, not requests of
 * their own: the tenant's request rate counts the outer one only. Marked by object identity, so
 * nothing a client sends can pass for one.
 */
const inProcess = new WeakSet<Request>();

export function markInProcess(request: Request): Request {
  inProcess.add(request);
  return request;
}

export function isInProcess(request: Request): boolean {
  return inProcess.has(request);
}
