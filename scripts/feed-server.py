#!/usr/bin/env python3
"""Serve a copy of the CycloneDX standards catalogue on loopback for the browser journeys.

Usage: feed-server.py PORT DIR

DIR is the catalogue folder (../shared/data/standards: feed.json and the standards as
CycloneDX documents). feed.json is answered with every URL that points into the public
catalogue rewritten to this server, so the service under test reads the feed and the
documents from here, never from the internet.
"""
import http.server
import json
import os
import signal
import sys

PUBLIC_PREFIX = "/standards/"  # .../official-3rd-party-standards/main/standards/<path>


def rewrite(url, base):
    cut = url.find(PUBLIC_PREFIX)
    return base + url[cut + len(PUBLIC_PREFIX):] if cut >= 0 else url


def main():
    port, root = int(sys.argv[1]), os.path.abspath(sys.argv[2])
    base = "http://127.0.0.1:%d/" % port
    with open(os.path.join(root, "feed.json"), encoding="utf-8") as f:
        feed = json.load(f)
    for item in feed.get("items", []):
        item["external_url"] = rewrite(item.get("external_url", ""), base)
        for att in item.get("attachments", []):
            att["url"] = rewrite(att.get("url", ""), base)
    feed_bytes = json.dumps(feed).encode("utf-8")

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=root, **kwargs)

        def do_GET(self):
            if self.path.split("?")[0] == "/feed.json":
                self.send_response(200)
                self.send_header("Content-Type", "application/feed+json")
                self.send_header("Content-Length", str(len(feed_bytes)))
                self.end_headers()
                self.wfile.write(feed_bytes)
                return
            super().do_GET()

        def log_message(self, *args):
            pass

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stopped by the test script: a clean exit
    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    main()
