/**
 * @module
 * The bash program behind host_fs.ts (used by src/tool/confined_fs.ts). It walks into a directory with `cd` one component at a time
 * and asks the kernel where it landed (`readlink /proc/self/cwd`), so the cwd is an anchor a symlink
 * swap cannot move; every later syscall uses a bare name relative to it, and the second directory of a
 * move is held open as fd 4 and named `/proc/self/fd/4/<name>`. Exit codes are the `EXIT` values.
 */

export const HOST_FS_EXIT = {
  changed: 10,
  notFound: 11,
  isDirectory: 12,
  parentIsFile: 13,
  exists: 15,
  /** A FIFO, socket or device. */
  special: 16,
  /** The file agent's only (fs_agent.ts): too big; hidden or read-only. */
  tooLarge: 17,
  forbidden: 18,
} as const;

/** Reads are prefixed with this byte once every check passed, so an empty file is not an error. */
export const HOST_FS_READ_OK = 0x2b;

export const HOST_FS_SCRIPT = [
  "set -u -f",
  "umask 022",
  'fail() { printf \'%s\' "$2" >&2; exit "$1"; }',
  'here() { local p; p=$(readlink /proc/self/cwd && echo .) || fail 10 "cannot read the cwd"; printf \'%s\' "${p%??}"; }',
  "enter() {",
  '  local want="$1" comp made=0 IFS=/',
  '  cd -P -- "$1" 2>/dev/null || fail 11 "$1"',
  '  [ "$(here)" = "$1" ] || fail 10 "$1"',
  '  [ -z "$2" ] && return 0',
  "  for comp in $2; do",
  '    want="$want/$comp"',
  '    if [ "$3" = 1 ] && [ ! -e "./$comp" ] && [ ! -L "./$comp" ]; then mkdir -- "./$comp" 2>/dev/null; made=1; fi',
  '    [ -L "./$comp" ] && fail 10 "$want"',
  '    [ -e "./$comp" ] || fail 11 "$want"',
  '    [ -d "./$comp" ] || fail 13 "$want"',
  '    cd -P -- "./$comp" 2>/dev/null || fail 10 "$want"',
  '    if [ "$made" = 1 ]; then [ "$(here)" = "$want" ] || fail 10 "$want"; fi',
  "  done",
  '  [ "$(here)" = "$want" ] || fail 10 "$want"',
  "}",
  'op="$1"; shift',
  'case "$op" in',
  "write)",
  '  enter "$1" "$2" "$4"',
  '  name="$3"; tmp="$5"',
  '  [ -L "./$name" ] && fail 10 "$name"',
  '  [ -d "./$name" ] && fail 12 "$name"',
  "  set -C",
  '  cat > "./$tmp" || fail 1 "cannot create a temp file"',
  "  set +C",
  '  if [ -e "./$name" ]; then chmod --reference="./$name" -- "./$tmp" 2>/dev/null; fi',
  '  sync -- "./$tmp" && mv -f -T -- "./$tmp" "./$name" || { rm -f -- "./$tmp"; fail 1 "cannot replace $name"; }',
  "  sync -- . 2>/dev/null",
  "  exit 0 ;;",
  "read)",
  '  enter "$1" "$2" 0',
  '  name="$3"',
  '  [ -L "./$name" ] && fail 10 "$name"',
  '  [ -e "./$name" ] || fail 11 "$name"',
  '  [ -d "./$name" ] && fail 12 "$name"',
  // Opening a FIFO would block. bash has no non-blocking open, so a FIFO swapped in between this test
  // and the open still blocks; the file agent, which opens with O_NONBLOCK, has no such window.
  '  [ -f "./$name" ] || fail 16 "$name"',
  '  exec 3< "./$name" || fail 11 "$name"',
  "  got=$(readlink /proc/self/fd/3 && echo .)",
  '  [ "${got%??}" = "$(here)/$name" ] || fail 10 "$name"',
  "  printf +",
  "  exec cat <&3 ;;",
  "move)",
  '  enter "$4" "$5" 1',
  '  exec 4< . || fail 10 "$4"',
  '  enter "$1" "$2" 0',
  '  from="$3"; to="$6"',
  '  [ -e "./$from" ] || [ -L "./$from" ] || fail 11 "$from"',
  '  if [ "$7" != 1 ] && { [ -e "/proc/self/fd/4/$to" ] || [ -L "/proc/self/fd/4/$to" ]; }; then fail 15 "$to"; fi',
  '  mv -f -T -- "./$from" "/proc/self/fd/4/$to" ;;',
  '*) fail 2 "unknown operation $op" ;;',
  "esac",
].join("\n");
