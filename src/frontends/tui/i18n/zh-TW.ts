/**
 * @module
 * 繁體中文目錄。
 */
import type { Catalog } from "./en.ts";

export const zhTW: Catalog = {
  "tool.running": "執行中",
  "tool.ok": "完成",
  "tool.error": "失敗",
  "tool.denied": "已拒絕",
  "tool.more_lines": "… 還有 {count} 行",
  "tool.no_output": "（無輸出）",
  "reasoning.title": "思考",
  "reasoning.folded": "{lines} 行思考過程",
  "diff.created": "新建",
  "diff.modified": "修改",
  "diff.deleted": "刪除",
  "diff.no_changes": "沒有變更",
  "diff.more_lines": "… 還有 {count} 行差異",
  "todo.title": "待辦",
  "todo.progress": "已完成 {done}/{total}",
  "usage.receipt": "輸入 {prompt}（快取命中 {hit}%）· 輸出 {completion}",
  "usage.cost": "{cost} {currency}",
  "notice.info": "提示",
  "notice.warning": "警告",
  "notice.error": "錯誤",
  "user.prompt": "你",
  "setup.intro": "Reasonix 設定",
  "setup.pick_model": "選擇模型",
  "setup.paste_key": "貼上你的 {env}（不會顯示）",
  "setup.key_required": "需要填寫金鑰",
  "setup.key_kept": "繼續使用 {source} 中已設定的 {env}",
  "setup.use_existing_key": "{source} 中已設定 {env}，是否使用？",
  "setup.testing": "正在用一個很小的請求測試金鑰",
  "setup.test_ok": "金鑰可用（{model} 已回覆）",
  "setup.test_failed": "金鑰測試失敗：{message}",
  "setup.wrote_key": "已將 {env} 儲存到 {file}",
  "setup.wrote_config": "已寫入 {file}",
  "setup.added_keys": "已向 {file} 新增 {keys}",
  "setup.config_unchanged": "{file} 已包含所需設定，未作修改",
  "setup.cancelled": "已取消設定，未寫入任何內容",
  "setup.done": "完成。執行 `reasonix` 開始",
};
