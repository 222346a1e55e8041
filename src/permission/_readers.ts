/**
 * @module
 * The read-only programs and the flags that keep them read-only (spec syntax in `_flags.ts`). A
 * program is a reader only with these flags: any other flag makes it a writer, and a flag that names a
 * program to run makes the line tier 2.
 */
import { checkFlags, flagSpec } from "./_flags.ts";
import { READ, tier2, type Verdict, writes } from "./_verdict.ts";

const SUMS = "-bctzw --binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn";
const EXPAND = "-i -a -t= --initial --tabs= --all --first-only #";

/** No option of these runs a program or writes a file, and their arguments are plain text. */
const FREE = "*";

const READERS: Readonly<Record<string, string>> = {
  cat: "-AbeEnstTuv --show-all --number-nonblank --show-ends --number --squeeze-blank --show-tabs " +
    "--show-nonprinting",
  head: "-qvz -c= -n= # --bytes= --lines= --quiet --silent --verbose --zero-terminated",
  tail: "-qvzfF -c= -n= -s= # --bytes= --lines= --quiet --silent --verbose --zero-terminated --follow " +
    "--retry --pid= --sleep-interval= --max-unchanged-stats=",
  wc: "-cmlLw --bytes --chars --lines --max-line-length --words --files0-from= --total=",
  pwd: "-LP",
  echo: FREE,
  true: FREE,
  false: FREE,
  ":": FREE,
  test: FREE,
  "[": FREE,
  sleep: FREE,
  ls: "-aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1 -I= -T= -w= --all --almost-all --author --escape " +
    "--block-size= --ignore-backups --color --directory --dired --classify --file-type --format= " +
    "--full-time --group-directories-first --no-group --human-readable --si " +
    "--dereference-command-line --dereference-command-line-symlink-to-dir --hide= --hyperlink " +
    "--indicator-style= --inode --ignore= --kibibytes --dereference --numeric-uid-gid --literal " +
    "--hide-control-chars --show-control-chars --quote-name --quoting-style= --reverse --recursive " +
    "--size --sort= --time= --time-style= --tabsize= --width= --context --zero",
  whoami: "",
  id: "-ugGnrzaZ --user --group --groups --name --real --zero --context",
  uname: "-asnrvmpio --all --kernel-name --nodename --kernel-release --kernel-version --machine " +
    "--processor --hardware-platform --operating-system",
  which: "-as",
  type: "-afptP",
  whereis: "-bmsulf -B= -M= -S=",
  basename: "-az -s= --multiple --suffix= --zero",
  dirname: "-z --zero",
  realpath: "-emLPqsz --relative-to= --relative-base= --canonicalize-existing --canonicalize-missing " +
    "--logical --physical --quiet --strip --no-symlinks --zero",
  readlink: "-femnqsvz --canonicalize --canonicalize-existing --canonicalize-missing --no-newline " +
    "--quiet --silent --verbose --zero",
  stat: "-fLt -c= --format= --printf= --terse --file-system --dereference --cached=",
  file: "-bihLNkrs0pEl -m= -f= -e= -F= -P= --mime --mime-type --mime-encoding --brief --dereference " +
    "--no-dereference --keep-going --special-files --raw --separator= --magic-file= --files-from= " +
    "--exclude= --exclude-quiet= --parameter= --extension --apple --no-pad --print0 --preserve-date " +
    "--no-sandbox >-C >--compile",
  du: "-abcDhHkLlmPSsx0 -d= -t= -B= -X= --all --apparent-size --block-size= --bytes --total " +
    "--dereference-args --max-depth= --human-readable --inodes --si --summarize --threshold= --time " +
    "--time-style= --exclude-from= --exclude= --one-file-system --null --count-links --dereference",
  df: "-ahHiklPTa -x= -t= -B= --all --human-readable --si --inodes --local --portability --print-type " +
    "--total --output --type= --exclude-type= --block-size= --sync --no-sync",
  grep: "-rRnilLcvwxohHsqEFGPzZaIbUT -e= -f= -m= -A= -B= -C= -d= -D= # --include= --exclude= " +
    "--exclude-dir= --exclude-from= --color --colour --max-count= --context= --after-context= " +
    "--before-context= --regexp= --file= --files-with-matches --files-without-match --count " +
    "--ignore-case --no-ignore-case --invert-match --word-regexp --line-regexp --only-matching " +
    "--no-filename --with-filename --no-messages --quiet --silent --extended-regexp --fixed-strings " +
    "--basic-regexp --perl-regexp --recursive --dereference-recursive --line-number --null --null-data " +
    "--text --binary-files= --label= --line-buffered --initial-tab --byte-offset --devices= " +
    "--directories=",
  cut: "-snz -b= -c= -d= -f= --bytes= --characters= --delimiter= --fields= --complement " +
    "--only-delimited --output-delimiter= --zero-terminated",
  tr: "-cCdst --complement --delete --squeeze-repeats --truncate-set1",
  nl: "-p -b= -d= -f= -h= -i= -l= -n= -s= -v= -w=",
  cmp: "-bls -i= -n= --print-bytes --verbose --silent --quiet --ignore-initial= --bytes=",
  comm: "-123iz --check-order --nocheck-order --output-delimiter= --total --zero-terminated",
  diff: "-uqrNabBwiystTpcen -U= -C= -W= -F= -x= -X= -I= -S= --label= --unified --context --brief " +
    "--recursive --new-file --unidirectional-new-file --text --ignore-space-change --ignore-blank-lines " +
    "--ignore-all-space --ignore-case --side-by-side --width= --report-identical-files --expand-tabs " +
    "--initial-tab --show-c-function --show-function-line= --exclude= --exclude-from= --color " +
    "--no-dereference --strip-trailing-cr --minimal --speed-large-files --suppress-common-lines " +
    "--normal --ignore-matching-lines= --horizon-lines= --suppress-blank-empty --tabsize= " +
    "--from-file= --to-file= --ignore-file-name-case --no-ignore-file-name-case --starting-file= " +
    "--ignore-tab-expansion --ignore-trailing-space --left-column --new-line-format= " +
    "--old-line-format= --unchanged-line-format= --line-format= --GTYPE-group-format=",
  seq: "-w -f= -s= # --format= --separator= --equal-width",
  printenv: "-0 --null",
  ps: FREE,
  free: "-bkmghwtl -s= -c= --human --si --total --bytes --kilo --mega --giga --tera --wide --seconds= " +
    "--count= --lohi",
  uptime: "-ps --pretty --since",
  nproc: "--all --ignore=",
  arch: "",
  groups: "",
  tac: "-br -s= --before --regex --separator=",
  rev: "",
  paste: "-sz -d= --delimiters= --serial --zero-terminated",
  join: "-iz -a= -e= -j= -o= -t= -v= -1= -2= --check-order --nocheck-order --header --ignore-case " +
    "--zero-terminated",
  fmt: "-csu -p= -w= -g= -t # --crown-margin --prefix= --split-only --uniform-spacing --width= --goal=",
  fold: "-bs -w= # --bytes --spaces --width=",
  expand: EXPAND,
  unexpand: EXPAND,
  column: "-txneJdL -s= -o= -c= -N= -R= -l= -T= -W= -H= -O= -r= -E= -C= --table --separator= " +
    "--output-separator= --columns= --fillrows --table-columns= --table-name= --json",
  od: "-abcdfilosxv -A= -j= -N= -S= -t= -w --address-radix= --skip-bytes= --read-bytes= --strings " +
    "--format= --output-duplicates --width --endian= --traditional",
  hexdump: "-bcCdoxv -e= -f= -n= -s=",
  xxd: "-abCEipuU -c= -g= -l= -s= -o= -n= -R= --autoskip --bits --cols= --groupsize= --include " +
    "--len= --postscript --plain --seek= --uppercase --name= >-r >--revert",
  strings: "-adfwo -n= -t= -e= -s= -T= --all --data --print-file-name --bytes= --radix= --encoding= " +
    "--output-separator= --include-all-whitespace --target=",
  md5sum: SUMS,
  sha1sum: SUMS,
  sha256sum: SUMS,
  sha512sum: SUMS,
  b2sum: `${SUMS} -l= --length=`,
  cksum: `${SUMS} -a= -l= --algorithm= --length= --untagged --base64 --raw --debug`,
  jq: "-rcsnejaSCMRh --tab --indent= --arg== --argjson== --slurpfile== --rawfile== --args --jsonargs " +
    "--raw-output --compact-output --slurp --null-input --exit-status --join-output --ascii-output " +
    "--sort-keys --color-output --monochrome-output --raw-input --raw-output0 --seq --stream " +
    "--stream-errors -f= --from-file= -L= --unbuffered",
  less: "-NRrSFXiIMmnEesfcdqQwWK~ -x= -j= -p= -h= -y= -z= -b= --RAW-CONTROL-CHARS " +
    "--quit-if-one-screen --no-init --chop-long-lines --LINE-NUMBERS --line-numbers --ignore-case " +
    "--IGNORE-CASE --quit-at-eof --squeeze-blank-lines --pattern= >-o= >-O= >--log-file= >--LOG-FILE= " +
    "!-k= !--lesskey-file=",
  more: "-dlfpcsu -n= # --silent --logical --no-pause --print-over --clean-print --squeeze --plain " +
    "--lines=",
  cd: "-LPe@",
  pushd: FREE,
  popd: FREE,
  dirs: FREE,
  locale: "-amckv --all-locales --charmaps --category-name --keyword-name --verbose",
  tty: "-s --silent --quiet",
  set: FREE,
  shift: FREE,
  exit: FREE,
  return: FREE,
  break: FREE,
  continue: FREE,
  wait: FREE,
  jobs: FREE,
  help: FREE,
  cal: "-13myjsYwhv -n=",
  look: "-bdfa -t=",
  numfmt: "-z -d= --from= --to= --field= --format= --padding= --round= --suffix= --header " +
    "--invalid= --grouping --from-unit= --to-unit= --delimiter= --zero-terminated",
  getconf: "-a -v=",
  lsof: FREE,
  pgrep: "-cfilnovwxaA -d= -g= -G= -O= -P= -s= -t= -u= -U= -r= --list-name --list-full --count " +
    "--delimiter= --full --newest --oldest --older= --parent= --exact --inverse --lightweight",
  tsort: "",
  iconv: "-lcs -f= -t= --from-code= --to-code= --list --silent >-o= >--output=",
  sort: "-bdfgiMhnRrVcCmsuz -k= -t= -S= --ignore-leading-blanks --dictionary-order --ignore-case " +
    "--general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort " +
    "--random-sort --random-source= --reverse --sort= --version-sort --check --merge --stable --unique " +
    "--zero-terminated --key= --field-separator= --buffer-size= --parallel= --files0-from= --debug " +
    "--batch-size= >-o= >--output= >-T= >--temporary-directory= !--compress-program=",
  uniq: "-cdDuiz -f= -s= -w= --count --repeated --all-repeated --unique --ignore-case --skip-fields= " +
    "--skip-chars= --check-chars= --zero-terminated --group",
  tree: "-adlfixACDFghnpqrstuvJNQS -L= -P= -I= -H= -T= --noreport --dirsfirst --filelimit= --charset= " +
    "--gitignore --prune --matchdirs --ignore-case --du --si --sort= --info --fromfile --metafirst " +
    "--noindent >-o=",
  date: "-uRI -d= -f= -r= --date= --file= --reference= --iso-8601 --rfc-3339= --rfc-email --utc " +
    "--universal --debug >-s= >--set=",
  hostname: "-sfiIdaAy --short --fqdn --long --ip-address --all-ip-addresses --domain --alias " +
    "--all-fqdns --yp",
  yq: "-ceMNPrCoIp -e= --output-format= --input-format= --unwrapScalar --null-input --exit-status " +
    "--colors --no-colors --indent= --prettyPrint --expression= >-i >--inplace",
  fd: "-HIsiLaluFg0pq -e= -t= -E= -d= -c= -j= -S= -o= --hidden --no-ignore --no-ignore-vcs " +
    "--case-sensitive --ignore-case --glob --regex --fixed-strings --absolute-path --list-details " +
    "--follow --full-path --print0 --max-depth= --min-depth= --exact-depth= --type= --extension= " +
    "--exclude= --size= --changed-within= --changed-before= --owner= --color= --threads= " +
    "--max-results= --quiet --show-errors --base-directory= --path-separator= --strip-cwd-prefix " +
    "--format= !-x= !--exec= !-X= !--exec-batch=",
  rg: "-nNiSswxvlLcoquUFHaPI0 -e= -f= -g= -t= -T= -A= -B= -C= -m= -j= -M= -r= -E= -d= " +
    "--files --files-with-matches --files-without-match --type= --type-not= --glob= --iglob= " +
    "--hidden --no-ignore --no-ignore-vcs --no-ignore-parent --no-ignore-dot --no-ignore-global " +
    "--ignore-file= --follow --max-count= --max-depth= --json --vimgrep --color= --colors= --heading " +
    "--no-heading --line-number --no-line-number --column --no-column --count --count-matches " +
    "--fixed-strings --word-regexp --line-regexp --case-sensitive --ignore-case --smart-case " +
    "--context= --after-context= --before-context= --multiline --multiline-dotall --pcre2 --engine= " +
    "--sort= --sortr= --stats --type-list --trim --replace= --only-matching --no-filename " +
    "--with-filename --null --null-data --no-messages --invert-match --pretty --passthru --debug " +
    "--max-columns= --max-columns-preview --max-filesize= --threads= --encoding= --no-config --quiet " +
    "--unrestricted --binary --text --regexp= --file= --byte-offset --crlf --one-file-system " +
    "--no-unicode --path-separator= --field-match-separator= --field-context-separator= " +
    "--context-separator= --no-context-separator --include-zero --glob-case-insensitive --files0 " +
    "--hyperlink-format= --line-buffered --block-buffered " +
    "!--pre= !--pre-glob= !--hostname-bin= >-z >--search-zip",
};

/** `less +!cmd` runs a less command at start, and `!` is its shell escape. */
function lessStart(name: string): (arg: string) => Verdict | null {
  return (arg) =>
    arg.startsWith("+") && !/^\+(\d+|\/[^!|]*)$/.test(arg)
      ? tier2(`"${name} ${arg}" runs a command of ${name} at start`, "program-option")
      : null;
}

/** How a reader with these arguments is judged; null when the program is not a known reader. */
export function judgeReader(name: string, args: readonly (string | null)[]): Verdict | null {
  const text = READERS[name];
  if (text === undefined) return null;
  const spec = flagSpec(text);
  switch (name) {
    case "less":
    case "more":
      return checkFlags(name, args, spec, { positional: lessStart(name) });
    case "uniq":
    case "xxd": {
      const verdict = checkFlags(name, args, spec);
      const positionals = args.filter((arg) => arg === null || !arg.startsWith("-")).length;
      return verdict.kind === "read" && positionals > 1 ? writes(`"${name} IN OUT" writes files`) : verdict;
    }
    case "hostname":
      return args.some((arg) => arg === null || !arg.startsWith("-"))
        ? writes(`"hostname NAME" renames the host`)
        : checkFlags(name, args, spec);
  }
  return checkFlags(name, args, spec);
}

export function isReader(name: string): boolean {
  return READERS[name] !== undefined;
}

export { READ };
