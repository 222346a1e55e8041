/**
 * @module
 * The English catalog; it defines the key set. `{name}` marks a parameter.
 */
export const en = {
  "tool.running": "running",
  "tool.ok": "done",
  "tool.error": "failed",
  "tool.denied": "denied",
  "tool.more_lines": "… {count} more lines",
  "tool.no_output": "(no output)",
  "reasoning.title": "Thinking",
  "reasoning.folded": "{lines} lines of reasoning",
  "diff.created": "created",
  "diff.modified": "modified",
  "diff.deleted": "deleted",
  "diff.no_changes": "no changes",
  "diff.more_lines": "… {count} more diff lines",
  "todo.title": "Todo",
  "todo.progress": "{done}/{total} done",
  "usage.receipt": "{prompt} in ({hit}% cached) · {completion} out",
  "usage.cost": "{cost} {currency}",
  "notice.info": "info",
  "notice.warning": "warning",
  "notice.error": "error",
  "user.prompt": "you",
  "setup.intro": "Reasonix setup",
  "setup.pick_model": "Pick a model",
  "setup.paste_key": "Paste your {env} (hidden)",
  "setup.key_required": "A key is required",
  "setup.key_kept": "Keeping the {env} already set in {source}",
  "setup.use_existing_key": "{env} is already set in {source}. Use it?",
  "setup.testing": "Testing the key with one tiny request",
  "setup.test_ok": "The key works ({model} answered)",
  "setup.test_failed": "The key test failed: {message}",
  "setup.wrote_key": "Saved {env} to {file}",
  "setup.wrote_config": "Wrote {file}",
  "setup.added_keys": "Added {keys} to {file}",
  "setup.config_unchanged": "{file} already has what it needs; left untouched",
  "setup.cancelled": "Setup cancelled; nothing was written",
  "setup.done": "Done. Start with `reasonix`",
} as const;

export type MessageKey = keyof typeof en;
export type Catalog = Readonly<Record<MessageKey, string>>;
