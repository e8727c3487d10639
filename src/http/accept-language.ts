/**
 * The labels' language a request prefers by its Accept-Language header: the supported language
 * (zh, en; a region such as en-US or zh-Hant-TW counts as its language) it weights highest, or
 * none (no header, `*`, only other languages). Parsed by Hono's language detector.
 */
import type { Context } from "hono";
import { detectFromHeader, type DetectorOptions } from "hono/language";
import { LOCALES, type Locale, type LocalePreference } from "../vocabulary/locales";

const OPTIONS: DetectorOptions = {
  order: ["header"],
  lookupQueryString: "lang",
  lookupCookie: "language",
  lookupFromPathIndex: 0,
  lookupFromHeaderKey: "accept-language",
  caches: false,
  ignoreCase: true,
  // Never returned by the header detector; the fallback is chooseLocale's.
  fallbackLanguage: "en",
  supportedLanguages: [...LOCALES],
};

function isLocale(value: string | undefined): value is Locale {
  return LOCALES.some((l) => l === value);
}

export function acceptedLocale(c: Context): Locale | undefined {
  const detected = detectFromHeader(c, OPTIONS);
  return isLocale(detected) ? detected : undefined;
}

/** What a request says about the labels' language: `locale` as given, and its Accept-Language. */
export function localePreference(c: Context, locale: Locale | undefined): LocalePreference {
  const accepted = acceptedLocale(c);
  return { ...(locale === undefined ? {} : { locale }), ...(accepted === undefined ? {} : { accept_language: accepted }) };
}
