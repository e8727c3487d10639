/** Languages of the labels in what an agent reads (recall text, traces). */
export const LOCALES = ["zh", "en"] as const;

export type Locale = (typeof LOCALES)[number];
