#!/usr/bin/env bash
# compute-sanitizer racecheck and synccheck over every tutorial at a small shape, ON the GPU machine:
#   bash scripts/sanitize.sh [case names...]       (after `make gpu-bundle` here; carry .gpu)
# One sanitizer process per case and tool, so each report belongs to one kernel. Prints a table last.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${SANITIZE_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  mapfile -t cases < <(bash scripts/gpu.sh -- python3 -c \
    'from tlx.tools.tutorial_smoke import _cases; print("\n".join(_cases()))' 2>/dev/null | grep -v -e '^NVIDIA' -e '^tlx ')
fi
status=0
rows=()
for name in "${cases[@]}"; do
  row="$name"
  for tool in racecheck synccheck; do
    log="$logs/$name.$tool.log"
    bash scripts/gpu.sh -- compute-sanitizer --tool "$tool" --print-limit 10 \
      python3 -m tlx.tools.tutorial_smoke "$name" >"$log" 2>&1
    rc=$?
    found=$(grep -oE "(RACECHECK|ERROR) SUMMARY: [0-9]+ (hazard|error)" "$log" | grep -oE "[0-9]+" | head -1)
    result=$(grep -oE " (ok|WRONG)$" "$log" | tr -d ' ' | head -1)
    row="$row | $tool ${found:-?} (${result:-no result}, exit $rc)"
    [ "$rc" -eq 0 ] && [ "${found:-1}" = 0 ] && [ "$result" = ok ] || status=1
  done
  rows+=("$row")
done
echo "logs: $logs"
printf '%s\n' "${rows[@]}"
exit $status
