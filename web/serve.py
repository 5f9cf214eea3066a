#!/usr/bin/env python3
"""Serves web/dist on localhost with the headers a cross-origin isolated page needs (COOP and COEP: threads
in WebAssembly need them); any static host that can set two headers does the same. No application code.
Usage: serve.py DIR [PORT] [--no-isolation]  (without the headers, as a host that cannot set them: the page
runs its CPU work on one thread)."""
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    isolation = True
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript",
                      ".wasm": "application/wasm", ".txt": "text/plain"}

    def end_headers(self):
        if self.isolation:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):  # quiet: the page's own panels say what happens
        pass


def main():
    args = [a for a in sys.argv[1:] if a != "--no-isolation"]
    Handler.isolation = len(args) == len(sys.argv) - 1
    root = args[0]
    port = int(args[1]) if len(args) > 1 else 8080
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=root))
    print(f"serving {root} at http://localhost:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
