#!/usr/bin/env python3
"""README examples check: every REST example of README.md runs, verbatim and in order, on the demo node.

Starts a fresh node with scripts/node.sh (the plugin zip in target/), loads the demo as scripts/demo.sh does
(demo/demo.py), then runs each `curl` command of the README's ```sh blocks exactly as written, except that
localhost:9200 becomes the node's port (NODE_PORT). A command fails the check when its HTTP status is not 2xx, unless
the comment line right above it says `# expected error: <status>`, in which case it must answer that status.
Commands that are not curl (mvn, scripts/...) are listed as skipped. Exit code 1 on any failure.

  python3 scripts/readme_check.py                 # fresh node on NODE_PORT (default 9200), stopped at the end
  python3 scripts/readme_check.py --url URL       # an already running node that has no README indices yet
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
README = os.path.join(ROOT, "README.md")
EXPECTED = re.compile(r"#\s*expected error:\s*(\d{3})")


def examples(path):
    """(line number, command, expected status or None) of every command in the ```sh blocks, in order."""
    found = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    in_block = False
    command, start, expected, pending_expected = None, 0, None, None
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            in_block = line.strip() == "```sh" and not in_block
            command, pending_expected = None, None
            continue
        if not in_block:
            continue
        if command is None:
            stripped = line.strip()
            if not stripped:
                pending_expected = None
                continue
            if stripped.startswith("#"):
                match = EXPECTED.search(stripped)
                pending_expected = int(match.group(1)) if match else pending_expected
                continue
            command, start, expected, pending_expected = line, number, pending_expected, None
        else:
            command += "\n" + line
        try:
            shlex.split(command, comments=True)
        except ValueError:  # an open quote: the command goes on on the next line
            continue
        found.append((start, command, expected))
        command = None
    return found


def run_curl(command, port):
    """Runs the curl command with curl itself; answers (HTTP status, body)."""
    args = shlex.split(command.replace("localhost:9200", f"localhost:{port}"), comments=True)
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        result = subprocess.run(["curl", "-sS", "-o", out.name, "-w", "%{http_code}", *args[1:]],
                                capture_output=True, text=True, timeout=300)
        body = open(out.name, encoding="utf-8", errors="replace").read()
    if result.returncode != 0:
        return 0, result.stderr.strip()
    return int(result.stdout.strip() or 0), body


def check(port):
    failures = 0
    for line, command, expected in examples(README):
        first = command.split("\n", 1)[0]
        if not command.startswith("curl "):
            print(f"  skipped   README.md:{line}  {first}  (not a REST example)")
            continue
        status, body = run_curl(command, port)
        ok = status == expected if expected else 200 <= status < 300
        print(f"  {'ok' if ok else 'FAILED':9} README.md:{line}  HTTP {status}  {first[:100]}")
        if not ok:
            failures += 1
            want = f"HTTP {expected}" if expected else "a 2xx answer"
            print(f"            expected {want}; got: {body[:600]}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="run against this running node instead of starting one")
    options = parser.parse_args()
    node = os.path.join(ROOT, "scripts", "node.sh")
    if options.url:
        port = re.search(r":(\d+)", options.url).group(1)
        failures = check(port)
    else:
        port = os.environ.get("NODE_PORT", "9200")
        subprocess.run([node, "start"], check=True)
        try:
            # the node a newcomer has after `scripts/demo.sh --keep`
            subprocess.run([sys.executable, os.path.join(ROOT, "demo", "demo.py"), "--url", f"http://127.0.0.1:{port}"],
                           check=True, stdout=subprocess.DEVNULL)
            print(f"README examples on the demo node at port {port}:")
            failures = check(port)
        finally:
            subprocess.run([node, "stop"], check=False)
    if failures:
        print(f"README check: {failures} example(s) failed")
        return 1
    print("README check: every REST example ran as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
