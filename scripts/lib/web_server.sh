# Serves web/ on a free local port for the browser scripts (sourced by scripts/web_test.sh and
# scripts/web_bench.sh), so both start, wait for and stop the page's server the same way.
#
#   serve_web LOG      sets `port`, starts scripts/lib/web_server.py on it (output to LOG), stops it on exit,
#                      and returns once the page answers (or after 5 s)
serve_web() {
    local log=$1
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    python3 scripts/lib/web_server.py "$port" web >"$log" 2>&1 &
    web_server_pid=$!
    trap 'kill "$web_server_pid" 2>/dev/null || true' EXIT
    for _ in $(seq 50); do
        python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/page/')" 2>/dev/null && return 0
        sleep 0.1
    done
}
