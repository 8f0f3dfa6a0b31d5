#!/usr/bin/env bash
# The page's figures (docs/offline.md), measured in headless Chromium on this machine against a
# real `oh7 serve` on loopback: the first visit to a playable solo table (a new profile each run),
# the expert's decision times in the Web Worker per table, and the compressed download by part.
# A benchmark, not a test: it prints figures and checks nothing.
#
#   cargo build --release && scripts/bench-web.sh            # every table, 200 decisions each
#   DECISIONS=60 RUNS=3 scripts/bench-web.sh                 # smaller
#
# Needs chromium and chromium-driver (Debian), curl and python3 (to read JSON).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/oh7}
DECISIONS=${DECISIONS:-200}
RUNS=${RUNS:-5}
LEVEL=${LEVEL:-expert}
scratch=$(mktemp -d)
cleanup() { kill "$server" "$driver" 2>/dev/null || true; rm -rf "$scratch"; }
trap cleanup EXIT

"$BIN" serve --addr 127.0.0.1:0 --db "$scratch/oh7.db" >"$scratch/serve.out" 2>/dev/null &
server=$!
for _ in $(seq 100); do grep -q http "$scratch/serve.out" 2>/dev/null && break; sleep 0.1; done
base=$(grep -o 'http://[0-9.:]*' "$scratch/serve.out" | head -1)
dport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
chromedriver --port="$dport" >/dev/null 2>&1 &
driver=$!
for _ in $(seq 100); do curl -s "http://127.0.0.1:$dport/status" >/dev/null && break; sleep 0.1; done
wd="http://127.0.0.1:$dport"
json() { python3 -c "import json, sys; v = json.load(sys.stdin)['value']; print(json.dumps(v) if not isinstance(v, str) else v)"; }

new_session() {
  local profile=$1
  curl -s -X POST "$wd/session" -H 'content-type: application/json' -d "{\"capabilities\": {\"alwaysMatch\": {
    \"goog:chromeOptions\": {\"binary\": \"/usr/bin/chromium\", \"args\": [\"--headless=new\", \"--no-sandbox\",
    \"--disable-gpu\", \"--window-size=1280,800\", \"--user-data-dir=$profile\"]}, \"timeouts\": {\"script\": 600000}}}}" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["value"]["sessionId"])'
}
go() { curl -s -X POST "$wd/session/$1/url" -H 'content-type: application/json' -d "{\"url\": \"$2\"}" >/dev/null; }
run_async() {
  python3 -c 'import json, sys; print(json.dumps({"script": sys.argv[1], "args": []}))' "$2" |
    curl -s -X POST "$wd/session/$1/execute/async" -H 'content-type: application/json' -d @- | json
}
end_session() { curl -s -X DELETE "$wd/session/$1" >/dev/null; }

echo "== first visit to a playable table ($RUNS runs, a new profile each; ms from the navigation's start)"
for i in $(seq "$RUNS"); do
  s=$(new_session "$scratch/profile-$i")
  go "$s" "$base/"
  run_async "$s" '
    const done = arguments[arguments.length - 1];
    const wait = () => { const b = document.getElementById("solo-start"); if (!b) return setTimeout(wait, 5); b.click();
      const poll = () => { const st = window.oh7State(); if (st && st.legal && st.legal.length) done(Math.round(performance.now())); else setTimeout(poll, 5); };
      poll(); };
    wait();'
  end_session "$s"
done

echo "== $LEVEL decision times in the worker ($DECISIONS decisions a table; ms)"
s=$(new_session "$scratch/profile-bench")
go "$s" "$base/"
for t in "oh7 en 4" "oh7 fr 4" "oh7 fr-advanced 5" "oh7 kod7 4" "oh7 bga 5" "oh7 bga 9" "seven - 4"; do
  read -r game preset players <<<"$t"
  level=$LEVEL
  [ "$game" = seven ] && [ "$level" = expert ] && level=search
  extra=""
  if [ "$preset" != - ]; then extra=", \"preset\": \"$preset\""; fi
  setup="{\"game\": \"$game\", \"players\": $players, \"level\": \"$level\", \"lang\": \"en\"$extra}"
  printf '%-22s ' "$game $preset $players $level"
  run_async "$s" "
    const done = arguments[arguments.length - 1];
    import('./local.js').then(m => m.request('bench', {setup: $setup, decisions: $DECISIONS})).then(done, e => done(String(e)));"
done
end_session "$s"

echo "== the download, compressed (gzip -9, as the server's compression sends it; bytes)"
"$BIN" web --out "$scratch/web" >/dev/null
(
  cd "$scratch/web"
  printf '%9s  %s\n' "$(gzip -9c oh7.wasm | wc -c)" "oh7.wasm (engine, bots, models, table, review)"
  printf '%9s  %s\n' "$(cat ./*.js | gzip -9c | wc -c)" "scripts"
  printf '%9s  %s\n' "$(gzip -9c style.css | wc -c)" "style"
  printf '%9s  %s\n' "$(cat index.html manifest.webmanifest favicon.svg icons/* | gzip -9c | wc -c)" "page, manifest, icons"
  printf '%9s  %s\n' "$(tar cf - . | gzip -9c | wc -c)" "all of it"
)
