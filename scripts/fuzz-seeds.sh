#!/usr/bin/env bash
# Regenerates the fuzz seeds kept in the repository from the reference vectors:
#   fuzz/seeds/decode/  every `hex` of crates/core/tests/vectors/subscription.json as raw bytes, and
#                       ConsumerProtocolAssignment bytes of the CLI's `assign` answers
#   fuzz/seeds/text/    the link fragment (after '#') that `rebalance-lab link` writes for
#                       every entry of range/roundrobin/sticky/cooperative-sticky.json, and
#                       a few hex texts in the forms the hex reader accepts
# Needs jq and xxd. Deterministic: running it twice gives the same files.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v jq >/dev/null && command -v xxd >/dev/null || { echo "fuzz-seeds.sh needs jq and xxd" >&2; exit 1; }

cargo build --quiet -p rebalance-lab-cli --bin rebalance-lab
CLI="${CARGO_TARGET_DIR:-$PWD/target}/debug/rebalance-lab"
DEC=fuzz/seeds/decode
TXT=fuzz/seeds/text
rm -rf "$DEC" "$TXT"
mkdir -p "$DEC" "$TXT"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Subscriptions: the raw bytes of every vector (well-formed and malformed alike).
n=0
while read -r name hex; do
  printf '%s' "$hex" | xxd -r -p >"$DEC/sub-$(printf %03d $n)-$name.bin"
  n=$((n + 1))
done < <(jq -r '.[] | "\(.name | gsub("[^A-Za-z0-9._-]"; "_")) \(.hex)"' crates/core/tests/vectors/subscription.json)
echo "decode: $n subscription seeds"

# Links: each assignment vector as a scenario file, through `rebalance-lab link`.
links=0 skipped=0
for f in range roundrobin sticky cooperative-sticky; do
  count=$(jq length "crates/core/tests/vectors/$f.json")
  for ((i = 0; i < count; i++)); do
    jq ".[$i]" "crates/core/tests/vectors/$f.json" >"$TMP/scenario.json"
    if link=$("$CLI" link "$TMP/scenario.json" 2>"$TMP/err"); then
      printf '%s' "${link#*#}" >"$TXT/link-$f-$(printf %03d "$i").txt"
      links=$((links + 1))
    else
      echo "  skipped $f.json[$i]: $(cat "$TMP/err")"
      skipped=$((skipped + 1))
    fi
  done
done
echo "text: $links link seeds ($skipped vectors the CLI refuses)"

# What kafka-consumer-groups.sh prints (the import's fixtures), for the import's reader.
imports=0
for f in crates/core/tests/fixtures/kafka-consumer-groups/*.txt; do
  cp "$f" "$TXT/import-$(basename "$f")"
  imports=$((imports + 1))
done
echo "text: $imports kafka-consumer-groups.sh seeds"

# Assignments: what `rebalance-lab assign` gives each member of the first roundrobin and
# range vectors, written as ConsumerProtocolAssignment v0 and v3 (same layout; null user
# data), and one with user data.
be() { printf "%0$1x" "$2"; }                  # big-endian hex of width $1 digits
str_hex() { be 4 "${#1}"; printf '%s' "$1" | xxd -p | tr -d '\n'; }
a=0
for f in roundrobin range; do
  for ((i = 0; i < 12; i++)); do
    jq ".[$i]" "crates/core/tests/vectors/$f.json" >"$TMP/scenario.json"
    "$CLI" assign "$TMP/scenario.json" >"$TMP/answer.json" 2>/dev/null || continue
    # one line per member: topic count, then "topic p p p" groups separated by '|'
    while IFS= read -r line; do
      body=""
      IFS='|' read -ra groups <<<"$line"
      ntopics=0
      for g in "${groups[@]}"; do
        [ -n "$g" ] || continue
        read -ra parts <<<"$g"
        body+="$(str_hex "${parts[0]}")$(be 8 $((${#parts[@]} - 1)))"
        for p in "${parts[@]:1}"; do body+="$(be 8 "$p")"; done
        ntopics=$((ntopics + 1))
      done
      for v in 0 3; do
        printf '%s' "$(be 4 $v)$(be 8 $ntopics)${body}ffffffff" | xxd -r -p \
          >"$DEC/asg-$(printf %03d $a)-v$v.bin"
      done
      a=$((a + 1))
    done < <(jq -r '.[] | [to_entries[] | "\(.key) \(.value | map(tostring) | join(" "))"] | join("|")' "$TMP/answer.json")
    [ $a -ge 24 ] && break 2
  done
done
# with 4 bytes of user data
printf '%s' "0001$(be 8 1)$(str_hex orders)$(be 8 2)$(be 8 0)$(be 8 5)00000004cafebabe" | xxd -r -p >"$DEC/asg-userdata.bin"
echo "decode: $((a * 2 + 1)) assignment seeds"

# Hex texts: a few subscriptions in the forms the hex reader accepts.
jq -r '[.[] | select(.kind == "encode") | .hex][35:40][]' crates/core/tests/vectors/subscription.json >"$TMP/hexes"
h=0
while read -r hex; do
  printf '%s' "$hex" >"$TXT/hex-$h-plain.txt"
  printf '%s' "$hex" | sed 's/../& /g; s/ $//' >"$TXT/hex-$h-spaced.txt"
  printf '%s' "$hex" | sed 's/../0x&, /g; s/, $//' >"$TXT/hex-$h-0x.txt"
  printf '%s' "$hex" | xxd -r -p | xxd >"$TXT/hex-$h-xxd.txt"
  printf '%s' "$hex" | xxd -r -p | hexdump -C >"$TXT/hex-$h-hexdump.txt"
  h=$((h + 1))
done <"$TMP/hexes"
echo "text: $((h * 5)) hex seeds"
du -sh fuzz/seeds
