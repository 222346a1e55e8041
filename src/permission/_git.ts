/**
 * @module
 * How git is judged. Read-only subcommands (`status`, `log`, `diff`...) can still run programs that
 * configuration names (`core.fsmonitor`, `core.pager`, diff drivers and textconv, hooks). They stay
 * reads only in the workspace's own repository with no option that points git at another repository
 * or configuration: the sandbox keeps the workspace's `.git/config` and `.git/hooks` read-only to tools
 * and bash, so the repository cannot rewire them mid-session. `-c`, `--config-env`, `--exec-path=`,
 * `--git-dir` and `-C` elsewhere (an embedded repository brings its own configuration) are tier 2.
 */
import { checkFlags, flagSpec } from "./_flags.ts";
import { READ, tier2, type Verdict, writes } from "./_verdict.ts";

const GLOBAL_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"]);
const GLOBAL_FLAGS = new Set([
  "--no-pager",
  "-p",
  "--paginate",
  "-P",
  "--bare",
  "--no-replace-objects",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--no-optional-locks",
  "--no-advice",
  "--exec-path",
  "--version",
  "--help",
  "-v",
  "-h",
]);

/** Where the subcommand is: global options (and their values) come before it. */
export function gitSubcommandAt(args: readonly (string | null)[]): number {
  let i = 0;
  while (i < args.length) {
    const arg = args[i];
    if (arg === null || arg === undefined || !arg.startsWith("-")) break;
    i += GLOBAL_VALUED.has(arg) ? 2 : 1;
  }
  return i;
}

const DIFF_FLAGS = "-psuzwbRaDWmct -U= -S= -G= -L= -I= -l= -n= -M? -C? -B? -X? # --patch --no-patch " +
  "--stat --shortstat --numstat --name-only --name-status --raw --patch-with-stat --patch-with-raw " +
  "--summary --dirstat --compact-summary --full-index --binary --abbrev --relative --no-relative " +
  "--ignore-space-change --ignore-all-space --ignore-blank-lines --ignore-space-at-eol " +
  "--ignore-cr-at-eol --ignore-matching-lines= --unified= --function-context --minimal --patience " +
  "--histogram --diff-algorithm= --anchored= --check --cached --staged --merge-base --exit-code --quiet " +
  "--no-index --text --stat-width= --stat-count= --stat-name-width= --stat-graph-width= --no-prefix " +
  "--default-prefix --src-prefix= --dst-prefix= --line-prefix= --ita-invisible-in-index --color " +
  "--no-color --color-moved --no-color-moved --color-moved-ws= --color-words --word-diff " +
  "--word-diff-regex= --submodule --ignore-submodules --diff-filter= --pickaxe-all --pickaxe-regex " +
  "--find-renames --find-copies --find-copies-harder --no-renames --break-rewrites " +
  "--irreversible-delete --no-ext-diff --no-textconv --indent-heuristic --no-indent-heuristic " +
  "--ws-error-highlight= --output-indicator-new= --output-indicator-old= --output-indicator-context= " +
  "--cc --combined-all-paths --diff-merges= --remerge-diff --rename-empty --no-rename-empty --follow " +
  ">--output= >--ext-diff >--textconv";

const LOG_FLAGS = "-g -n= --oneline --graph --decorate --no-decorate --decorate-refs= " +
  "--decorate-refs-exclude= --all --format= --pretty --abbrev-commit --no-abbrev-commit --author= " +
  "--committer= --grep= --all-match --invert-grep --regexp-ignore-case -i -E -F -P --basic-regexp " +
  "--extended-regexp --fixed-strings --perl-regexp --since= --until= --after= --before= --date= " +
  "--reverse --merges --no-merges --min-parents= --max-parents= --first-parent --max-count= --skip= " +
  "--cherry-pick --cherry-mark --cherry --left-right --left-only --right-only --boundary --topo-order " +
  "--date-order --author-date-order --source --ancestry-path --simplify-by-decoration --branches " +
  "--tags --remotes --glob= --exclude= --not --walk-reflogs --full-history --dense --sparse " +
  "--show-signature --mailmap --no-mailmap --use-mailmap --encoding= --expand-tabs --no-expand-tabs " +
  "--notes --no-notes --show-notes --log-size --children --parents --show-pulls --count --objects " +
  "--objects-edge --in-commit-order --header --timestamp --no-walk --do-walk --bisect --single-worktree " +
  "--show-linear-break --reflog --alternate-refs --stdin --clear-decorations --relative-date " +
  "--show-origin --name-only";

const OTHER_FLAGS = "-qvrdlrtebefHh -e= -z -L= -s --short --branch --porcelain --long --untracked-files " +
  "--ignored --ignore-submodules --show-stash --ahead-behind --no-ahead-behind --renames --no-renames " +
  "--find-renames --column --no-column --verbose --null --show-toplevel --abbrev-ref --verify --quiet " +
  "--git-dir --is-inside-work-tree --is-inside-git-dir --is-bare-repository --show-prefix --show-cdup " +
  "--symbolic --symbolic-full-name --git-common-dir --absolute-git-dir --show-superproject-working-tree " +
  "--local-env-vars --default= --prefix= --sq --sq-quote --revs-only --no-revs --flags --no-flags " +
  "--resolve-git-dir= --git-path= --path-format= --show-object-format --is-shallow-repository " +
  "--show-ref-format --cached --deleted --modified --others --stage --unmerged --killed -c -m -o -i " +
  "-u -k -x= -X= --exclude-from= --exclude-per-directory= --exclude-standard --error-unmatch " +
  "--full-name --directory --no-empty-directory --eol --deduplicate --recurse-submodules --name-status " +
  "--object-only --full-tree --numbered --summary --email --group= --contains --no-contains --merged " +
  "--no-merged --points-at= --sort= --count= --shell --perl --python --tcl --ignore-case --omit-empty " +
  "--match= --always --dirty --broken --exact-match --candidates= --first-parent --tags --all --heads " +
  "--head --dereference --hash --exists --octopus --is-ancestor --independent --fork-point --refs= " +
  "--name-only --no-undefined --annotate-stdin --stdin --non-matching --no-index --human-readable " +
  "--build-options --batch --batch-check --batch-command --batch-all-objects --follow-symlinks " +
  "--buffer --unordered --allow-unknown-type --use-mailmap -Z --porcelain --line-porcelain " +
  "--incremental --show-name --show-number --show-email --root --contents= --ignore-rev= " +
  "--ignore-revs-file= --color-lines --color-by-age --progress --no-progress --score-debug " +
  "--show-stats --reverse -M? -C? -w -p >--textconv >--filters";

const GREP_FLAGS = "-aiIvwlLchHnzoqEGFPWpr -e= -f= -A= -B= -C= -m= # --cached --untracked --no-index " +
  "--exclude-standard --recurse-submodules --text --textconv --no-textconv --ignore-case --max-depth= " +
  "--word-regexp --invert-match --full-name --extended-regexp --basic-regexp --fixed-strings " +
  "--perl-regexp --line-number --column --files-with-matches --name-only --files-without-match --null " +
  "--only-matching --count --color --no-color --break --heading --show-function --context= " +
  "--after-context= --before-context= --function-context --threads= --and --or --not --all-match " +
  "--quiet --max-count= !-O? !--open-files-in-pager";

const GIT_READ = new Map<string, string>([
  ["status", OTHER_FLAGS],
  ["log", `${DIFF_FLAGS} ${LOG_FLAGS}`],
  ["whatchanged", `${DIFF_FLAGS} ${LOG_FLAGS}`],
  ["show", `${DIFF_FLAGS} ${LOG_FLAGS}`],
  ["rev-list", `${DIFF_FLAGS} ${LOG_FLAGS}`],
  ["diff", DIFF_FLAGS],
  ["blame", `${OTHER_FLAGS} -S=`],
  ["annotate", OTHER_FLAGS],
  ["shortlog", `${OTHER_FLAGS} ${LOG_FLAGS}`],
  ["describe", OTHER_FLAGS],
  ["rev-parse", OTHER_FLAGS],
  ["ls-files", OTHER_FLAGS],
  ["ls-tree", OTHER_FLAGS],
  ["cat-file", OTHER_FLAGS],
  ["grep", GREP_FLAGS],
  ["merge-base", OTHER_FLAGS],
  ["show-ref", OTHER_FLAGS],
  ["for-each-ref", OTHER_FLAGS],
  ["version", OTHER_FLAGS],
  ["name-rev", OTHER_FLAGS],
  ["count-objects", OTHER_FLAGS],
  ["check-ignore", OTHER_FLAGS],
  ["help", "*"],
]);

const BRANCH_SAFE = new Set([
  "-a",
  "--all",
  "-r",
  "--remotes",
  "-v",
  "-vv",
  "--verbose",
  "--show-current",
  "-l",
  "--list",
]);

const CONFIG_READS = ["--get", "--get-all", "--list", "-l", "--get-regexp"];

/** `elsewhere`: an earlier `cd` left the workspace root, so git may find another repository. */
export function git(args: readonly (string | null)[], elsewhere = false): Verdict {
  const at = gitSubcommandAt(args);
  const global = checkGlobal(args.slice(0, at));
  if (global) return global;
  const sub = args[at];
  const rest = args.slice(at + 1);
  if (sub === null) return tier2("the git subcommand is computed", "program-option");
  if (sub === undefined) return READ;
  const verdict = subcommand(sub, rest);
  if (verdict.kind === "read" && elsewhere) {
    return tier2(
      `"git ${sub}" after "cd" can find another repository, whose configuration can run commands`,
      "program-option",
    );
  }
  return verdict;
}

function checkGlobal(options: readonly (string | null)[]): Verdict | null {
  for (let i = 0; i < options.length; i++) {
    const arg = options[i]!;
    const [flag, value] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), true] : [arg, false];
    const next = value ? arg.slice(arg.indexOf("=") + 1) : options[i + 1] ?? null;
    if (flag === "-c" || flag === "--config-env") {
      return tier2(`"git ${flag}" sets configuration that can run commands`, "program-option");
    }
    if (flag === "--exec-path" && value) {
      return tier2(`"git --exec-path=" runs git's programs from another directory`, "program-option");
    }
    if (flag === "--git-dir" || (flag === "-C" && next !== ".")) {
      return tier2(
        `"git ${flag}" points git at another repository, whose configuration can run commands`,
        "program-option",
      );
    }
    if (flag === "--work-tree") {
      return writes(`"git --work-tree" works on another directory`, "program-option");
    }
    if (GLOBAL_VALUED.has(flag)) {
      if (!value) i++;
    } else if (!GLOBAL_FLAGS.has(flag)) {
      return writes(`"git ${flag}" is not an option the policy knows to be read-only`);
    }
  }
  return null;
}

function subcommand(sub: string, rest: readonly (string | null)[]): Verdict {
  const spec = GIT_READ.get(sub);
  if (spec !== undefined) return checkFlags(`git ${sub}`, rest, flagSpec(spec));
  const changes = writes(
    `"git ${sub}" with these arguments changes the repository or files`,
    "unknown-program",
  );
  const ok = (safe: boolean): Verdict => safe ? READ : changes;
  const values = rest.filter((arg): arg is string => arg !== null);
  switch (sub) {
    case "branch":
      return ok(values.length === rest.length && values.every((arg) => BRANCH_SAFE.has(arg)));
    case "tag":
      return ok(rest.length === 0 || (rest[0] === "-l" || rest[0] === "--list"));
    case "remote":
      return ok(rest.length === 0 || (rest.length === 1 && rest[0] === "-v") || rest[0] === "get-url");
    case "stash":
      return ok(rest[0] === "list" || rest[0] === "show");
    case "worktree":
      return ok(rest[0] === "list");
    case "config":
      return ok(
        values.some((arg) => CONFIG_READS.includes(arg)) && !values.some((arg) => /^-(e|-edit)$/.test(arg)),
      );
    case "reflog":
      return ok(rest.length === 0 || rest[0] === "show");
    case "difftool":
    case "mergetool":
      return rest.some((arg) => arg === null || /^(-x|--extcmd|-t|--tool)/.test(arg))
        ? tier2(`"git ${sub}" with a tool option runs the named program`, "program-option")
        : writes(`"git ${sub}" runs the configured tool`, "program-option");
  }
  return writes(`"git ${sub}" changes the repository or files`, "unknown-program");
}
