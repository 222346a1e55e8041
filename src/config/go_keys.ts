/**
 * @module
 * The one list of what a Go Reasonix 1.38 config file holds that Reasonix reads differently: keys it
 * accepts but does not act on yet, keys Go itself retired, and Go's spellings of values Reasonix has
 * its own names for. A file the Go binary wrote therefore loads without an error or a warning; the
 * keys that are not used yet are listed by `reasonix doctor` and `reasonix config path`.
 */

/** Accepted, not used yet, by table (`root` is the top level, `provider` each `[[providers]]` entry). */
export const NOT_USED_YET = {
  root: [
    "skills",
    "lsp",
    "browser",
    "environment",
    "statusline",
    "telemetry",
    "notifications",
    "desktop",
    "bot",
    "remote",
  ],
  agent: [
    "temperature",
    "planner_model",
    "vision_model",
    "output_style",
  ],
  tools: ["background_jobs", "shell"],
  sandbox: ["workspace_root"],
  secrets: ["filter_subprocess_env"],
  network: ["proxy_mode", "proxy_url", "no_proxy", "proxy"],
  ui: ["theme_style", "cursor_shape", "shortcut_layout"],
  provider: [
    "display_name",
    "chat_url",
    "request_url",
    "models_url",
    "balance_url",
    "prices",
    "billing_currency",
    "thinking",
    "supported_efforts",
    "default_effort",
    "vision_models",
    "web_search",
    "extra_body",
    "model_overrides",
  ],
} as const;

/** Keys Go Reasonix parses and ignores itself: accepted silently. */
export const RETIRED = {
  root: ["config_version", "credentials_store"],
  agent: ["keep", "recent_keep", "plan_mode_read_only_commands"],
} as const;

/**
 * Go's values for keys Reasonix spells differently, and what each means here. `""` is Go's "use the
 * default" where its template says so.
 */
export const GO_VALUES = {
  /** Go: `auto|en|zh`, empty = auto-detect. */
  language: { zh: "zh-CN", "": "auto" },
  /** Go: `enforce|off`, empty = enforce. */
  sandboxBash: { enforce: true, off: false, "": true },
  /**
   * Go: the writer fallback `ask|allow|deny`. `deny` becomes `ask`, the strictest mode here, as Go's
   * `read-only` preset does: a headless run refuses every write in it.
   */
  permissionMode: { allow: "auto", deny: "ask" },
  /** Go writes the list-price currency as a symbol. */
  priceCurrency: { "$": "USD", "¥": "CNY", "￥": "CNY" },
} as const;

/** Go values Reasonix accepts but does not act on yet: the key is noted and keeps its default. */
export const GO_VALUES_NOT_USED_YET = {
  /** Go: 0 = no tool-local cap; here every command keeps a time limit. */
  bashTimeoutSeconds: [0],
} as const;

/** Provider kinds and reasoning protocols Go supports and Reasonix does not yet: accepted, not used. */
export const PROVIDER_KINDS_NOT_USED_YET: readonly string[] = ["anthropic", "responses"];
export const REASONING_PROTOCOLS_NOT_USED_YET: readonly string[] = ["glm", "kimi-k3"];
