/**
 * The web view of an agent's memory (DESIGN §14), served by the Worker at `/`. Sign in with an
 * API key, pick one of the tenant's agents, look at its network. Everything goes through the
 * public API of the page's own origin (web/src/api/client.ts).
 */
import { ApiClient } from "./api/client";
import type { AgentList } from "./api/schemas";
import { clearKey, loadKey, saveKey } from "./session";
import { byId, formatTime, h, replace } from "./ui/dom";
import { clearMessages, guard, showError } from "./ui/messages";
import { Workspace } from "./ui/workspace";

const views = {
  signin: byId("signin-view", HTMLElement),
  agents: byId("agents-view", HTMLElement),
  agent: byId("agent-view", HTMLElement),
};
const sessionBar = byId("session-bar", HTMLDivElement);
const currentAgent = byId("current-agent", HTMLSpanElement);
const agentList = byId("agent-list", HTMLUListElement);
const agentsMore = byId("agents-more", HTMLButtonElement);
const agentsEmpty = byId("agents-empty", HTMLParagraphElement);
const keyInput = byId("api-key", HTMLInputElement);

let client: ApiClient | null = null;
let nextCursor: string | null = null;
let workspace: Workspace | null = null;

function show(view: keyof typeof views): void {
  for (const [name, el] of Object.entries(views)) el.hidden = name !== view;
  sessionBar.hidden = view === "signin";
}

async function signIn(key: string): Promise<void> {
  const candidate = new ApiClient(key);
  // Listing the agents checks the key: a wrong one answers 401 and nothing is kept.
  const page = await candidate.listAgents(null);
  client = candidate;
  saveKey(key);
  keyInput.value = "";
  clearMessages();
  currentAgent.textContent = "";
  replace(agentList);
  appendAgents(page);
  show("agents");
  agentList.querySelector("button")?.focus();
}

function appendAgents(page: AgentList): void {
  nextCursor = page.next_cursor;
  agentsMore.hidden = nextCursor === null;
  for (const agent of page.agents) {
    const button = h(
      "button",
      { type: "button", "data-agent-id": agent.agent_id },
      h("span", { class: "agent-id" }, agent.agent_id),
      h("span", { class: "hint" }, `last active ${formatTime(agent.last_active_at)}`),
    );
    button.addEventListener(
      "click",
      guard(`Opening agent ${agent.agent_id}`, () => openAgent(agent.agent_id)),
    );
    agentList.append(h("li", {}, button));
  }
  agentsEmpty.hidden = agentList.childElementCount > 0;
}

async function openAgent(agentId: string): Promise<void> {
  if (!client) return;
  clearMessages();
  currentAgent.textContent = `Agent: ${agentId}`;
  show("agent");
  workspace ??= new Workspace();
  await workspace.open(client, agentId);
}

function signOut(): void {
  clearKey();
  client = null;
  workspace?.close();
  currentAgent.textContent = "";
  replace(agentList);
  show("signin");
  keyInput.focus();
}

byId("signin-form", HTMLFormElement).addEventListener("submit", (e) => {
  e.preventDefault();
  const key = keyInput.value.trim();
  if (!key) return;
  guard("Sign-in failed", () => signIn(key))();
});
agentsMore.addEventListener(
  "click",
  guard("Listing agents", async () => {
    if (client && nextCursor) appendAgents(await client.listAgents(nextCursor));
  }),
);
byId("change-agent", HTMLButtonElement).addEventListener(
  "click",
  guard("Listing agents", async () => {
    if (!client) return;
    workspace?.close();
    currentAgent.textContent = "";
    replace(agentList);
    appendAgents(await client.listAgents(null));
    show("agents");
  }),
);
byId("sign-out", HTMLButtonElement).addEventListener("click", signOut);
window.addEventListener("error", (e) => {
  // Chrome reports a ResizeObserver that took more than one frame to settle as an error; it is not one.
  if (typeof e.message === "string" && e.message.startsWith("ResizeObserver loop")) return;
  showError(e.error ?? e.message, "Unexpected error");
});
window.addEventListener("unhandledrejection", (e) => showError(e.reason, "Unexpected error"));

// The development key exists only in the local configuration: mention it only there.
byId("dev-key-hint", HTMLParagraphElement).hidden = !["127.0.0.1", "localhost", "[::1]"].includes(location.hostname);

// A key kept from earlier in this tab signs in again; a stale one is dropped.
const kept = loadKey();
if (kept) {
  signIn(kept).catch((err: unknown) => {
    clearKey();
    show("signin");
    showError(err, "Sign-in failed");
  });
} else {
  show("signin");
}
