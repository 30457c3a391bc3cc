# Sourced by scripts/lint.sh and scripts/synth.sh: `rtl_sources PART...` prints the files of
# those parts of rtl/sources.list (paths from the repository root), in the list's order.
rtl_sources() {
  local want=" $* "
  local part path
  while read -r part path; do
    case $part in ''|'#'*) continue ;; esac
    [[ $want == *" $part "* ]] && echo "rtl/$path"
  done < rtl/sources.list
  return 0
}
# Every .sv file under rtl/ must be listed: a file missing from the list fails the script.
rtl_sources_check() {
  local listed missing=0 f
  listed=$(rtl_sources pkg pipe link router pe tile fmac ce mem)
  for f in $(find rtl -name '*.sv' | sort); do
    if ! grep -qx "$f" <<< "$listed"; then
      echo "rtl/sources.list does not list $f" >&2
      missing=1
    fi
  done
  return $missing
}
