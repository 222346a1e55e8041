/**
 * @module
 * 简体中文目录。
 */
import type { Catalog } from "./en.ts";

export const zhCN: Catalog = {
  "tool.running": "运行中",
  "tool.ok": "完成",
  "tool.error": "失败",
  "tool.denied": "已拒绝",
  "tool.more_lines": "… 还有 {count} 行",
  "tool.no_output": "（无输出）",
  "reasoning.title": "思考",
  "reasoning.folded": "{lines} 行思考过程",
  "diff.created": "新建",
  "diff.modified": "修改",
  "diff.deleted": "删除",
  "diff.no_changes": "没有改动",
  "diff.more_lines": "… 还有 {count} 行差异",
  "todo.title": "待办",
  "todo.progress": "已完成 {done}/{total}",
  "usage.receipt": "输入 {prompt}（缓存命中 {hit}%）· 输出 {completion}",
  "usage.cost": "{cost} {currency}",
  "notice.info": "提示",
  "notice.warning": "警告",
  "notice.error": "错误",
  "user.prompt": "你",
  "setup.intro": "Reasonix 设置",
  "setup.pick_model": "选择模型",
  "setup.paste_key": "粘贴你的 {env}（不会显示）",
  "setup.key_required": "需要填写密钥",
  "setup.key_kept": "继续使用 {source} 中已设置的 {env}",
  "setup.use_existing_key": "{source} 中已设置 {env}，是否使用？",
  "setup.testing": "正在用一个很小的请求测试密钥",
  "setup.test_ok": "密钥可用（{model} 已回复）",
  "setup.test_failed": "密钥测试失败：{message}",
  "setup.wrote_key": "已将 {env} 保存到 {file}",
  "setup.wrote_config": "已写入 {file}",
  "setup.added_keys": "已向 {file} 添加 {keys}",
  "setup.config_unchanged": "{file} 已包含所需设置，未作修改",
  "setup.cancelled": "已取消设置，未写入任何内容",
  "setup.done": "完成。运行 `reasonix` 开始",
};
