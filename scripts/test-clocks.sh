#!/usr/bin/env bash
# The unit suite (`npm test`'s jest, all of it: no rule can then miss a new test that touches dates) under other
# clocks and time zones: Debian's faketime sets the process's clock (it keeps running from there), TZ its zone.
# Usage: npm run test:clocks            every clock and zone below, then the table for docs/testing.md
#        npm run test:clocks -- --ci    the part .ci/run runs beside the real-n8n suites on every landing: the 1st of a
#                                       month far east (its `npm test` runs far west, TZ=Etc/GMT+12, on the real date)
#        npm run test:clocks -- --row N  row N (from 1) of the table below alone
# Env:   CLOCKS_WORKERS (jest workers, default 2); CI=true skips the builds (.ci/run has made them).
# Needs: faketime (apt-get install faketime; installed here when missing and run as root).
set -euo pipefail
cd "$(dirname "$0")/.."

# clock (UTC) | zone | why
ALL=(
	'2026-12-01 10:00:00|Pacific/Kiritimati|the 1st (day and month both read as a month)'
	'2027-01-12 23:30:00|Etc/GMT+12|the 12th, late: still the 12th in UTC-12, the 13th in UTC'
	'2027-01-13 00:30:00|UTC|the 13th, just after midnight'
	'2027-04-30 10:00:00|Pacific/Kiritimati|the last day of a month: already the 1st in UTC+14 from 10:00 UTC'
	'2026-11-30 23:59:50|Etc/GMT+12|the last day of a month, across midnight UTC'
	'2026-12-31 23:59:50|UTC|31 December into the new year'
	'2026-12-31 23:59:50|Pacific/Kiritimati|31 December into the new year (1 January in UTC+14 already)'
	'2026-12-31 23:59:50|Etc/GMT+12|31 December into the new year (still the 31st in UTC-12)'
	'2028-02-29 12:00:00|UTC|29 February of a leap year'
	'2028-02-29 12:00:00|Etc/GMT+12|29 February of a leap year, far west'
	'2027-03-28 00:59:50|Europe/Berlin|Berlin springs forward (02:00 → 03:00)'
	'2026-10-25 00:59:50|Europe/Berlin|Berlin falls back (03:00 → 02:00)'
	'2027-03-14 06:59:50|America/New_York|New York springs forward (02:00 → 03:00)'
	'2026-11-01 05:59:50|America/New_York|New York falls back (02:00 → 01:00)'
)
runs=("${ALL[@]}")
case "${1:-}" in
	--ci) runs=("${ALL[0]}") ;;
	--row) runs=("${ALL[$(($2 - 1))]}") ;;
esac

if ! command -v faketime >/dev/null; then
	[ "$(id -u)" -eq 0 ] || { echo "test:clocks needs faketime: apt-get install faketime" >&2; exit 1; }
	(apt-get update -qq && apt-get install -y -qq faketime) >/dev/null
fi

# Each run must really see its clock and zone: a faketime that did not take (or an unknown zone, which Node reads as
# UTC) would pass every row for nothing.
check_clock() {
	local clock=$1 zone=$2 seen
	seen=$(TZ=$zone faketime --exclude-monotonic "$clock UTC" node -e 'process.stdout.write(new Date().toISOString().slice(0, 16))')
	[ "$seen" = "$(date -u -d "$clock UTC" +%Y-%m-%dT%H:%M)" ] || { echo "faketime did not set the clock to $clock UTC (Node saw $seen)" >&2; return 1; }
	# Intl refuses a zone it does not know (a TZ it does not know, Node reads as UTC without a word).
	node -e 'new Intl.DateTimeFormat("en", { timeZone: process.argv[1] })' "$zone" 2>/dev/null || { echo "Node does not know the zone $zone" >&2; return 1; }
}

if [ "${CI:-}" != "true" ]; then
	npm run build --silent
	npm run build:tools --silent
fi

rows=()
failed=0
for run in "${runs[@]}"; do
	IFS='|' read -r clock zone why <<<"$run"
	check_clock "$clock" "$zone"
	printf '\n=== %s UTC in %s: %s\n' "$clock" "$zone" "$why"
	log=$(mktemp)
	status=0
	TZ=$zone faketime --exclude-monotonic "$clock UTC" npx jest --selectProjects unit --maxWorkers="${CLOCKS_WORKERS:-2}" --testTimeout=60000 --silent >"$log" 2>&1 || status=$?
	grep -E '^(Tests:|Test Suites:)|✕' "$log" || true
	summary=$(grep -E '^Tests:' "$log" | tail -1 | sed 's/^Tests: *//')
	if [ "$status" -eq 0 ]; then verdict="passed ($summary)"; else verdict="**failed** ($summary)"; failed=1; tail -60 "$log"; fi
	rows+=("| $clock UTC | \`$zone\` | $why | $verdict |")
	rm -f "$log"
done

printf '\n=== test:clocks, %s, at %s\n' "$(date -u +'%Y-%m-%d %H:%M UTC')" "$(git rev-parse --short HEAD)"
printf '| clock | TZ | why | unit suite |\n|---|---|---|---|\n'
printf '%s\n' "${rows[@]}"
exit "$failed"
