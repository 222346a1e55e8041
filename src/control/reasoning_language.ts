/**
 * @module
 * `/reasoning-language auto|zh|en`: the language of the model's visible reasoning. A change is told
 * to the model as a note on the tail of the next user message; the system prompt never changes
 * mid-session, so the cached prefix survives.
 */

export const REASONING_LANGUAGES = ["auto", "zh", "en"] as const;
export type ReasoningLanguage = (typeof REASONING_LANGUAGES)[number];

export function isReasoningLanguage(value: string): value is ReasoningLanguage {
  return (REASONING_LANGUAGES as readonly string[]).includes(value);
}

export function reasoningLanguageNote(language: ReasoningLanguage): string {
  if (language === "zh") return "From now on, write your visible reasoning in Simplified Chinese.";
  if (language === "en") return "From now on, write your visible reasoning in English.";
  return "From now on, write your visible reasoning in the language the user writes in.";
}
