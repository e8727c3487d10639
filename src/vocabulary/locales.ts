import { z } from "zod";

/** Languages of the labels in what an agent reads (recall text, traces, the context block). */
export const LOCALES = ["zh", "en"] as const;

export type Locale = (typeof LOCALES)[number];

/** The labels' language when nothing else says one (docs/design.md, "The labels' language"). */
export const DEFAULT_LOCALE: Locale = "en";

/**
 * What a request says about the labels' language: `locale` as given (body or query), and the
 * supported language its Accept-Language header prefers, if any.
 */
export interface LocalePreference {
  locale?: Locale | undefined;
  accept_language?: Locale | undefined;
}

/** A LocalePreference in a task's payload (src/operations/shared/label-locale.ts decides). */
export const LocalePreferenceShape = { locale: z.enum(LOCALES).optional(), accept_language: z.enum(LOCALES).optional() };

/**
 * The labels' language, by the one rule every surface follows (docs/design.md, "The labels'
 * language"): an explicit `locale`, else the request's Accept-Language, else the language of what
 * the agent remembered, else English. `agentLanguage` is asked only when it decides.
 */
export async function chooseLocale(preference: LocalePreference, agentLanguage: () => Promise<Locale | undefined>): Promise<Locale> {
  return preference.locale ?? preference.accept_language ?? (await agentLanguage()) ?? DEFAULT_LOCALE;
}
