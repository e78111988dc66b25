"""Serves a folder on 127.0.0.1 with the headers that make a page cross-origin isolated
(COOP same-origin, COEP require-corp), so the browser's timer has 5 us steps. Used by
scripts/web serve and the browser tests: python3 scripts/web-serve.py DIR PORT."""

import functools
import http.server
import sys


class IsolatingHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, with the isolation headers and the wasm MIME type."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
    }

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format, *args):
        pass


def main():
    folder, port = sys.argv[1], int(sys.argv[2])
    handler = functools.partial(IsolatingHandler, directory=folder)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
