/**
 * The MCP connector's consent page (src/oauth/connector.ts): which client asks, where its access
 * goes, and a field for the API key whose tenant it will act for. Everything the client chose
 * (its name, its redirect host) is escaped: a registration is self-asserted.
 */
import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";

const escape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function consentPage(details: ConsentDescription, handle: string, options: { problem?: string; devKeyHint: boolean }): string {
  const name = escape(details.clientName);
  const local = details.redirectIsLoopback
    ? "<p><strong>Access goes to an app on this computer.</strong> Continue only if you just started connecting from it.</p>"
    : "";
  const problem = options.problem ? `<p role="alert"><strong>${escape(options.problem)}</strong></p>` : "";
  const hint = options.devKeyHint ? "<p>Locally, the development key is <code>dev-key-local-only</code>.</p>" : "";
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect ${name} to Agent Memory</title>
<main style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; line-height: 1.5">
<h1>Connect ${name} to Agent Memory?</h1>
<p>${name} (a self-registered name, not verified) asks to use the memory of your agents through MCP. Its access will be sent to <strong>${escape(details.redirectHost)}</strong>.</p>
${local}
${problem}
<form method="post">
  <input type="hidden" name="handle" value="${escape(handle)}">
  <p><label>API key <input type="password" name="api_key" autocomplete="off" required style="width: 100%"></label></p>
  ${hint}
  <p>The connection acts for the key's tenant until you revoke it.</p>
  <p><button name="decision" value="approve">Allow</button> <button name="decision" value="deny" formnovalidate>Deny</button></p>
</form>
</main>
</html>`;
}
