/**
 * @module
 * Which sentences of a user message state something (a fact, a preference, a standing rule) rather than
 * ask a question or request work, decided without the model and the same way every time. A message is
 * cut into units (lines, then sentences); each unit is a question, a request, a fact, or neither (code,
 * fillers such as "ok, thanks", fragments). English and Chinese; unknown text that is neither a question
 * nor a request and has some substance counts as a fact, so a fact phrased without any particular word
 * ("Deploy target: staging-eu", "The CI runs on Buildkite.", "我们用 pnpm") is kept.
 */

export type UnitKind = "fact" | "request" | "question" | "other";

export interface Unit {
  /** The unit exactly as typed (trimmed). */
  text: string;
  kind: UnitKind;
}

const FENCE = /^\s*(```|~~~)/;
/** Sentence ends: ASCII ones before whitespace, CJK ones anywhere. */
const SENTENCE_END = /(?<=[.!?])\s+(?=\S)|(?<=[。！？；])/;
/** Abbreviations whose dot does not end a sentence. */
const ABBREVIATION = /\b(e\.g|i\.e|etc|vs|cf|approx|Mr|Mrs|Ms|Dr|St|No)\.$/i;

/** The units of `text` in order, each verbatim; fenced code is one unit of kind "other". */
export function statementUnits(text: string): Unit[] {
  const units: Unit[] = [];
  let fence: string[] | null = null;
  for (const line of text.split("\n")) {
    if (fence !== null) {
      fence.push(line);
      if (FENCE.test(line)) {
        units.push({ text: fence.join("\n").trim(), kind: "other" });
        fence = null;
      }
      continue;
    }
    if (FENCE.test(line)) {
      fence = [line];
      continue;
    }
    for (const sentence of sentences(line)) units.push({ text: sentence, kind: classifyUnit(sentence) });
  }
  if (fence !== null) units.push({ text: fence.join("\n").trim(), kind: "other" });
  return units.filter((unit) => unit.text !== "");
}

function sentences(line: string): string[] {
  const parts: string[] = [];
  for (const piece of line.split(SENTENCE_END)) {
    const last = parts.at(-1);
    if (last !== undefined && ABBREVIATION.test(last)) parts[parts.length - 1] = `${last} ${piece}`;
    else parts.push(piece);
  }
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/** The fact units of `text`, verbatim and in order. */
export function statedFacts(text: string): string[] {
  return statementUnits(text).filter((unit) => unit.kind === "fact").map((unit) => unit.text);
}

/** Whether `text` states at least one fact. */
export function statesFact(text: string): boolean {
  return statedFacts(text).length > 0;
}

const LIST_MARK = /^\s*(?:[-*•>]+|\d{1,3}[.)]|[（(]?\d{1,3}[)）])\s+/;

export function classifyUnit(unit: string): UnitKind {
  const text = unit.replace(LIST_MARK, "").trim();
  if (text === "" || !/[\p{L}\p{N}]/u.test(text)) return "other";
  if (isQuestion(text)) return "question";
  const labelled = LABELLED.exec(text);
  if (labelled) return labelledKind(labelled[1]!.trim(), labelled[2]!.trim());
  return bareKind(text);
}

/** `key: value` with a short label before the colon (not a URL's scheme). */
const LABELLED = /^([^:：\n]{1,40}?)\s*[:：]\s*(?!\/\/)(.*)$/;
const REQUEST_LABEL =
  /^(step|task|todo|to-do|to do|next|next step|action|action item|request|ask|question|q|goal|第.{1,6}步|步骤.{0,6}|任务.{0,6}|待办|下一步|问题|需求)(\s*#?\s*[\w.-]{0,8})?$/i;

/** A label that makes what follows a standing note, whatever its mood ("Note: run lint before pushing"). */
const RULE_LABEL =
  /^(note|nb|n\.b\.|fyi|remember|remember this|reminder|rule|important|heads up|keep in mind|注意|记住|提醒|规则|重要)$/i;

function labelledKind(label: string, value: string): UnitKind {
  if (label.split(/\s+/).length > 6) return bareKind(`${label}: ${value}`);
  if (REQUEST_LABEL.test(label)) return "request";
  if (RULE_LABEL.test(label) && /[\p{L}\p{N}]/u.test(value)) return isQuestion(value) ? "question" : "fact";
  if (value === "") return bareKind(label);
  if (!/[\p{L}\p{N}]/u.test(value)) return "other";
  if (!/\s/.test(value)) return isQuestion(value) ? "question" : "fact";
  const kind = bareKind(value, true);
  // A labelled value is a fact even when it is a single word ("Port: 5433").
  return kind === "other" ? "fact" : kind;
}

function bareKind(text: string, labelled = false): UnitKind {
  if (isQuestion(text)) return "question";
  const cjk = /\p{Script=Han}/u.test(text);
  if (cjk ? isRuleZh(text) : isRuleEn(text)) return "fact";
  if (cjk ? isRequestZh(text) : isRequestEn(text)) return "request";
  if (isFiller(text) || (!labelled && isRemark(text))) return "other";
  return labelled || substantial(text) ? "fact" : "other";
}

// ---- questions

const QUESTION_END = /[?？]\s*["'”’)）]*$|[吗呢]\s*[。.!！~～]?\s*$/;
const QUESTION_START_EN =
  /^(what|what's|how|how's|why|where|where's|when|which|who|who's|whom|whose|is|are|am|was|were|do (you|we|i|they|it|he|she|u)|does|did|can|could|would|will|shall|may|might|have|has|had|isn't|aren't|doesn't|don't you|didn't|won't|can't|couldn't|wouldn't|shouldn't)\b/i;
const QUESTION_ZH =
  /什么|怎么|怎样|为什么|为何|哪里|哪儿|哪个|哪些|谁|多少|是否|是不是|能不能|可不可以|有没有|要不要|对不对|行不行|好不好/;

function isQuestion(text: string): boolean {
  if (QUESTION_END.test(text)) return true;
  if (/\p{Script=Han}/u.test(text)) return QUESTION_ZH.test(text);
  // "Do not …" and "Don't …" are rules, not questions.
  return QUESTION_START_EN.test(text) && !/^(do not|don't|does not|doesn't)\b/i.test(text) &&
    !COPULA_SECOND.test(text);
}

/** "Will is on call", "May is the deploy month": a name, then a verb. */
const COPULA_SECOND = /^(?![Ww]h|[Hh]ow\b)[A-Z]\w*\s+(is|was|has|owns|runs|lives|works|leads)\b/;

// ---- rules (pinned: a standing preference or constraint, even in the imperative)

const RULE_EN =
  /^(always|never|don't|do not|avoid|no more|in this (project|repo|repository)|remember|note that|keep in mind|fyi|for the record|be aware|bear in mind)\b|\b(must|must not|mustn't|should always|should never|is not allowed|are not allowed|is forbidden|instead of|rather than|always|never|from now on|going forward|from here on)\b|[,;]\s*(not|never)\b/i;
const POLITE_EN = /^(please|pls|kindly)\s+/i;

function isRuleEn(text: string): boolean {
  return RULE_EN.test(text.replace(POLITE_EN, ""));
}

const RULE_ZH =
  /^(请)?(记住|注意|记得|不要|别|永远不要|永远别|一定要|必须|务必|总是|一律|禁止|以后|今后|从现在起|始终)/;

function isRuleZh(text: string): boolean {
  return RULE_ZH.test(text);
}

// ---- requests

const REQUEST_START_EN =
  /^(please|pls|kindly|let's|let us|let me|can you|could you|would you|will you|i want you|i need you|i'd like|i would like|we need to|you need to|you should|go ahead|try to|make sure|help me|help us|show me|tell me|give me)\b/i;
const VERBS_EN = new Set(
  ("add fix run make create write update remove delete rename refactor implement change move show tell " +
    "explain check continue try build test install open read find search look go start stop list print " +
    "give help debug investigate review summarize summarise describe generate convert replace set put get " +
    "bump upgrade downgrade revert undo commit push merge rebase clean format lint compile deploy document " +
    "optimize optimise improve split extract inline port migrate translate draft prepare send fetch download " +
    "upload clone copy paste edit modify adjust tweak retry rerun re-run verify ensure handle support wire " +
    "enable disable skip keep drop rewrite sort filter compare measure benchmark profile trace call use do " +
    "finish complete resume proceed redo restore rollback roll publish release ship tag bisect grep cat " +
    "scaffold bootstrap setup configure mock stub simplify shorten expand reorder cleanup see visit consider say reply answer respond echo output return repeat summarise")
    .split(" "),
);
/** The word after an imperative verb that makes it one ("run the tests", "check that …"). */
const OBJECT_WORD =
  /^(the|a|an|this|that|these|those|it|them|me|us|him|her|my|our|your|all|every|each|some|any|up|out|on|off|in|into|to|for|with|over|through|back|again|now|first|next|again|away|down)$/i;
const FINITE =
  /^(is|are|was|were|has|have|had|'s|isn't|aren't|wasn't|weren't|runs|lives|uses|sits|points|stays|needs|takes|lasts|belongs|means|equals|contains|depends|comes|goes)$/i;

function isRequestEn(text: string): boolean {
  const plain = text.replace(
    /^((ok|okay|so|and|then|also|now|alright|no|yes|yeah|nope|well|but|lgtm|looks good|great|thanks|thank you|nice|perfect|cool|good|sounds good)[,.!\s]+)+/i,
    "",
  );
  if (REQUEST_START_EN.test(plain)) return true;
  const words = plain.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  const first = words[0];
  if (first === undefined || !VERBS_EN.has(first) || !/^[a-z]/i.test(plain)) return false;
  const second = words[1];
  if (second === undefined || OBJECT_WORD.test(second)) return true;
  // A noun that looks like a verb ("Test coverage is 80%", "Build times are slow"): a finite verb follows.
  return !words.slice(1, 5).some((word) => FINITE.test(word));
}

const REQUEST_ZH = new RegExp(
  "^(请|麻烦|帮我|帮忙|给我|把|替我|让我们|我们来|咱们来|你来|你去|我想让你|我要你|我需要你|我希望你|你需要|你要|你能|你可以|" +
    "修复|修一下|修改|改|试|添加|加上|加个|删除|删掉|移除|运行|执行|跑一下|创建|新建|编写|写一个|写个|写|改一下|改成|更新|" +
    "重构|实现|检查|看看|看一下|查看|解释|告诉|显示|列出|打开|读一下|读取|搜索|查找|找一下|安装|部署一下|测试一下|" +
    "继续|开始|停止|提交|推送|合并|重命名|移动|生成|优化|整理|总结|翻译|补充|完善|调试|排查|处理|做一下|试试|尝试|清理|" +
    "格式化|回滚|撤销|发布|下一步|接着)",
);

function isRequestZh(text: string): boolean {
  return REQUEST_ZH.test(text.replace(/^((好的?|那|那么|然后|现在|接下来|先|再|也|还要?)[，,\s]*)+/, ""));
}

// ---- fillers and substance

const FILLER_WORDS = new Set(
  ("ok okay k yes yep yeah no nope sure thanks thank you thx great good nice cool perfect awesome fine done " +
    "lgtm got it sounds makes sense right alright hmm hm ah oh wow i see that this works work well job so " +
    "very much all looks").split(" "),
);
const FILLER_ZH =
  /^(好的?|好吧|谢谢|多谢|行|可以|对|是的|没问题|嗯+|收到|明白|了解|知道了|不错|很好|完美|辛苦了|了|啦|呀|吧)+$/;

function isFiller(text: string): boolean {
  const bare = text.replace(/[\s\p{P}\p{S}]+/gu, " ").trim().toLowerCase();
  if (/\p{Script=Han}/u.test(bare)) return FILLER_ZH.test(bare.replace(/[\sa-z]+/g, ""));
  return bare.split(" ").every((word) => FILLER_WORDS.has(word));
}

/** "This one fails", "it is slow": a short remark about what is on screen states nothing on its own. */
const DEICTIC = /^(this|that|it|these|those|here|there|this one|that one)\b/i;

const DEICTIC_ZH = /^(这个|那个|这里|那里|这样|那样|这|那|它)/;

function isRemark(text: string): boolean {
  const han = (text.match(/\p{Script=Han}/gu) ?? []).length;
  if (han > 0) return DEICTIC_ZH.test(text) && han <= 5;
  return DEICTIC.test(text) && text.split(/\s+/).filter((word) => word !== "").length <= 4;
}

/** Enough to be a statement: three words, or three CJK characters (two with a Latin word beside). */
function substantial(text: string): boolean {
  const han = (text.match(/\p{Script=Han}/gu) ?? []).length;
  const words = (text.replace(/\p{Script=Han}/gu, " ").match(/[\p{L}\p{N}][\p{L}\p{N}'._-]*/gu) ?? []).length;
  return han >= 3 || (han >= 2 && words >= 1) || words >= 3;
}
