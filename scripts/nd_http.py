"""The one HTTP helper of the project's Python scripts (scripts/*.py, demo/demo.py): JSON or NDJSON requests to a
node, standard library only.

    request(base, method, path, body=None, ndjson=False, timeout=120, unreachable=False) -> (status, parsed body)
        an HTTP error status is an answer, not an exception; unreachable=True also answers a connection failure or
        timeout, as status 0 with {"error": message}
    call(base, method, path, body=None, ndjson=False, timeout=120, on_error=exit_on_error) -> parsed body
        the body of a 2xx answer; any other status goes to on_error(method, path, status, text), whose return value
        (if it returns) is the answer. The default exits: "error: <method> <path> -> HTTP <status>: <text>"

body: a dict/list sent as JSON, or with ndjson=True a str sent as is (application/x-ndjson). base: the node's URL
without a trailing slash, e.g. http://127.0.0.1:9200. An empty answer parses as {}.
"""
import json
import sys
import urllib.error
import urllib.request


def _send(base, method, path, body, ndjson, timeout):
    """(status, raw answer bytes); HTTP error statuses are answers."""
    data = None
    headers = {}
    if body is not None:
        data = body.encode("utf-8") if isinstance(body, str) else json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/x-ndjson" if ndjson else "application/json"
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def request(base, method, path, body=None, ndjson=False, timeout=120, unreachable=False):
    """(status, parsed body). With unreachable=True a connection failure or timeout is (0, {"error": message})."""
    try:
        status, raw = _send(base, method, path, body, ndjson, timeout)
    except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
        if not unreachable:
            raise
        return 0, {"error": str(e)}
    return status, json.loads(raw or b"{}")


def exit_on_error(method, path, status, text):
    sys.exit(f"error: {method} {path} -> HTTP {status}: {text}")


def call(base, method, path, body=None, ndjson=False, timeout=120, on_error=exit_on_error):
    """The parsed body of a 2xx answer; otherwise whatever on_error(method, path, status, text) returns (or raises)."""
    status, raw = _send(base, method, path, body, ndjson, timeout)
    if not 200 <= status < 300:
        return on_error(method, path, status, raw.decode("utf-8", "replace"))
    return json.loads(raw or b"{}")
