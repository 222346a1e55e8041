/**
 * @module
 * Variables whose value decides what later commands run or load: the search path, the shell's start-up
 * and prompt hooks, word splitting, the dynamic loader, git's configuration, interpreters' module paths
 * and option variables, pagers and editors. Setting one turns a read into running chosen code.
 */
const EXACT = new Set([
  "PATH",
  "IFS",
  "BASH_ENV",
  "ENV",
  "CDPATH",
  "PS0",
  "PS1",
  "PS2",
  "PS3",
  "PS4",
  "PROMPT_COMMAND",
  "SHELLOPTS",
  "BASHOPTS",
  "GLOBIGNORE",
  "HOME",
  "SHELL",
  "XDG_CONFIG_HOME",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PYTHONHOME",
  "PYTHONUSERBASE",
  "NODE_OPTIONS",
  "NODE_PATH",
  "PERL5LIB",
  "PERL5OPT",
  "PERLLIB",
  "PERL5DB",
  "RUBYOPT",
  "RUBYLIB",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "CLASSPATH",
  "LUA_PATH",
  "LUA_CPATH",
  "LUA_INIT",
  "DENO_DIR",
  "PAGER",
  "MANPAGER",
  "EDITOR",
  "VISUAL",
  "BROWSER",
  "LESSOPEN",
  "LESSCLOSE",
  "LESSKEYIN",
  "TAR_OPTIONS",
  "GREP_OPTIONS",
  "RIPGREP_CONFIG_PATH",
  "MAGIC",
  "GCONV_PATH",
  "LOCPATH",
  "NLSPATH",
  "GLIBC_TUNABLES",
  "HOSTALIASES",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "MAKEFLAGS",
  "TMPDIR",
]);

const PREFIXES = ["LD_", "DYLD_", "GIT_", "BASH_FUNC_", "NPM_CONFIG_", "npm_config_", "PYTHON", "PERL"];

export function isDangerousVariable(name: string): boolean {
  return EXACT.has(name) || PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** The variable a `NAME=value`, `NAME+=value` or `NAME[i]=value` word assigns, or null. */
export function assignedName(word: string): string | null {
  return /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(word)?.[1] ?? null;
}
