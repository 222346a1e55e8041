/**
 * @module
 * Deterministic reading of a turn's words for verified delivery: does the person ask for a change
 * (implement, fix, add, refactor… in English or Chinese), and does the model's answer claim the work is
 * done. Plain word lists, no model call: the same text always gets the same verdict.
 */

const CHANGE_WORDS_EN =
  /\b(implement|fix|add|change|modify|refactor|rewrite|rename|remove|delete|update|create|write|patch|migrate|replace|edit)(s|es|ed|ing)?\b/i;
const CHANGE_WORDS_ZH =
  /实现|修复|修正|修改|改成|改为|添加|增加|新增|加上|重构|重写|删除|移除|更新|创建|编写|替换|迁移|修一下|改一下/;

const DONE_WORDS_EN =
  /\b(done|fixed|implemented|completed|added|changed|updated|refactored|resolved|finished|created|removed|renamed|works now|all set)\b/i;
const DONE_WORDS_ZH =
  /完成|已修复|修复了|已实现|实现了|已添加|添加了|已修改|修改了|已更新|更新了|已重构|重构了|搞定|好了/;

/** Words that make an answer a report of what did not happen rather than a claim of delivery. */
const NOT_DONE_EN =
  /\b(not|never|no changes?|nothing (was|has been) (changed|done)|unable|could ?n[o']t|can ?n[o']t|did ?n[o']t|was ?n[o']t|won[o']t|blocked|failed)\b/i;
const NOT_DONE_ZH = /没有|未能|未完成|无法|不能|失败|阻塞/;

/** The person asks for a change to the code or files (the implement/fix kind of task). */
export function asksForChange(text: string): boolean {
  return CHANGE_WORDS_EN.test(text) || CHANGE_WORDS_ZH.test(text);
}

/** The answer says the work is done, and does not also say something was not done. */
export function claimsDone(answer: string): boolean {
  const claims = DONE_WORDS_EN.test(answer) || DONE_WORDS_ZH.test(answer);
  return claims && !NOT_DONE_EN.test(answer) && !NOT_DONE_ZH.test(answer);
}
