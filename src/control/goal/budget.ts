/**
 * @module
 * A goal's turn budget, from the kind of work its text asks for: research 40 turns, write 20, simple 10.
 * A small deterministic classifier over keywords (English and Chinese); no model call.
 */

export type GoalCategory = "write" | "simple" | "research";

export const GOAL_BUDGETS: Readonly<Record<GoalCategory, number>> = { write: 20, simple: 10, research: 40 };

const RESEARCH = [
  /\b(research|investigat\w*|explor\w*|analy[sz]\w*|survey\w*|compar\w*|study|audit\w*|understand)\b/,
  /\b(find out|figure out|look into|report on|summari[sz]e|evaluate|assess|why does|how does)\b/,
  /(调研|研究|分析|调查|对比|评估)/,
];
const WRITE = [
  /\b(implement\w*|add\w*|creat\w*|build\w*|writ\w*|fix\w*|refactor\w*|migrat\w*|port|rewrit\w*)\b/,
  /\b(updat\w*|chang\w*|remov\w*|delet\w*|replac\w*|support|make|convert\w*|extract\w*|test\w*)\b/,
  /(实现|添加|增加|修复|重构|迁移|编写|删除|修改)/,
];
const SIMPLE = [
  /\b(typo\w*|renam\w*|bump\w*|format\w*|lint|one[- ]line\w*|tiny|small|quick\w*|trivial|single)\b/,
  /(拼写|重命名|格式化|小改)/,
];

/** Where the first match of any of `patterns` starts; Infinity when none matches. */
function firstHit(text: string, patterns: readonly RegExp[]): number {
  const starts = patterns.map((pattern) => pattern.exec(text)?.index ?? Infinity);
  return Math.min(...starts);
}

/**
 * The category `text` falls in; the same text always gives the same answer. The kind of word that comes
 * first decides between research and writing ("investigate why the build fails" is research); a small
 * change ("fix a typo", "bump the version") is simple; a short text with neither kind is simple.
 */
export function classifyGoal(text: string): GoalCategory {
  const lower = text.toLowerCase();
  const research = firstHit(lower, RESEARCH);
  const write = firstHit(lower, WRITE);
  if (research < write) return "research";
  if (firstHit(lower, SIMPLE) < Infinity) return "simple";
  if (write < Infinity) return "write";
  return lower.split(/\s+/).filter(Boolean).length <= 12 ? "simple" : "write";
}
