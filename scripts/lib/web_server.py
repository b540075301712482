"""Serves a directory for the browser page, cross-origin isolated.

    python3 scripts/lib/web_server.py PORT DIRECTORY

Like `python3 -m http.server --bind 127.0.0.1`, plus the two headers that make a page cross-origin
isolated (Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy): only then may the page share
memory with its worker, which is how `stop` reaches a search running in the worker (web/chuhan-engine.js).
"""

import functools
import http.server
import sys


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    """A static file handler that marks every answer cross-origin isolated."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".mjs": "text/javascript"}

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit():
        sys.exit("usage: web_server.py PORT DIRECTORY")
    handler = functools.partial(IsolatedHandler, directory=sys.argv[2])
    with http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler) as server:
        print(f"serving {sys.argv[2]} on http://127.0.0.1:{sys.argv[1]}/ (cross-origin isolated)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
