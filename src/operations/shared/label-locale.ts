/**
 * The labels' language of one read (recall, context, profile): the rule of chooseLocale
 * (src/vocabulary/locales.ts), with the agent's language read from its newest memories' script.
 * That language is kept until the agent's next new node, so a run of reads pays for it once.
 */
import { scriptLanguage } from "../../text/script-language";
import { chooseLocale, type Locale, type LocalePreference } from "../../vocabulary/locales";
import { networkReader } from "../../engine/network-reader";
import type { AgentNetwork, AgentStores } from "../../engine/runtime";

/** Newest segments and newest explicit memories read for the agent's language (each). */
const SAMPLE = 50;

const known = new WeakMap<object, { nextNodeId: number; language: Locale | undefined }>();

export function labelLocale(rt: Pick<AgentStores, "meta" | "focus"> & AgentNetwork, preference: LocalePreference): Promise<Locale> {
  return chooseLocale(preference, () => agentLanguage(rt));
}

/** The script of what the agent remembered; undefined for an agent with no memory yet. */
async function agentLanguage(rt: Pick<AgentStores, "meta" | "focus"> & AgentNetwork): Promise<Locale | undefined> {
  const repos = rt.existingRepos();
  if (!repos) return undefined;
  const nextNodeId = rt.meta.nextNodeId();
  const cached = known.get(rt);
  if (cached?.nextNodeId === nextNodeId) return cached.language;
  const reader = await networkReader(rt, repos);
  const [segments, memories] = await Promise.all([reader.ofKind("segment", SAMPLE), reader.ofKind("memory", SAMPLE)]);
  const language = scriptLanguage([...segments, ...memories].map((n) => n.content));
  known.set(rt, { nextNodeId, language });
  return language;
}
