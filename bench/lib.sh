# Sourced by the shell benchmarks: `. "$(dirname "$0")/lib.sh"`, then `bench_setup "${1:-build}"`.
# bench_setup BUILD_DIR sets root (the source tree), tessera (the built CLI) and tmp (a scratch
# directory removed at exit). The helpers below use them.

bench_setup() {
  root=$(cd "$(dirname "$0")/.." && pwd)
  tessera=$(cd "$1" && pwd)/bin/tessera
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

# link_image NAME LAYOUT_TEXT: links the layout text into "$tmp/NAME.timg".
link_image() {
  printf '%s\n' "$2" > "$tmp/$1.tlayout"
  "$tessera" link -o "$tmp/$1.timg" "$tmp/$1.tlayout" > /dev/null
}

# callgrind_count ARGS...: the host instructions valgrind --tool=callgrind counts for
# `tessera ARGS...` (its output is dropped; a run stopped by --max-cycles exits non-zero, which is
# expected). Stops the script if callgrind gave no count.
callgrind_count() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tessera" "$@" \
    > /dev/null 2> "$tmp/cg.err" || true
  n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/cg.err")
  if [ -z "$n" ]; then
    echo "callgrind counted nothing for: tessera $*" >&2
    tail -n 5 "$tmp/cg.err" >&2
    exit 1
  fi
  echo "$n"
}
