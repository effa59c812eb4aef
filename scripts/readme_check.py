#!/usr/bin/env python3
"""README examples check: every REST example of README.md runs, verbatim and in order, on the demo node.

Starts a fresh node with scripts/node.sh (the plugin zip in target/), loads the demo as scripts/demo.sh does
(demo/demo.py), then runs each `curl` command of the README's ```sh blocks exactly as written, except that
localhost:9200 becomes the node's port (NODE_PORT). A command fails the check when its HTTP status is not 2xx, unless
the comment line right above it says `# expected error: <status>`, in which case it must answer that status.
An example also shows what it is there for: each `# expect: <path> <op> <value>` line in the comments right above it
is checked against its JSON answer, e.g.

  # expect: hits >= 1                                   hits = hits.total.value
  # expect: hits.hits.length == 1                       .length = the number of items of a list (or keys of an object)
  # expect: groups >= 1                                 groups = groups.length (_near_duplicates)
  # expect: hits.hits.0.fields._near_duplicate_distance.0 == 2
  # expect: _source.near_duplicate.status == duplicate  (ops ==, !=, >=, <=, >, <; numbers, true/false, or text)

and an example that reads (`_search`, `_near_duplicates` without `_write`, `_simhash`, `GET .../_doc/...`) without an
`# expect:` line fails the check: an example that shows nothing proves nothing.
Commands that are not curl (mvn, scripts/...) are listed as skipped. Exit code 1 on any failure.

  python3 scripts/readme_check.py                 # fresh node on NODE_PORT (default 9200), stopped at the end
  python3 scripts/readme_check.py --url URL       # an already running node that has no README indices yet
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
README = os.path.join(ROOT, "README.md")
EXPECTED = re.compile(r"#\s*expected error:\s*(\d{3})")
EXPECT = re.compile(r"#\s*expect:\s*(\S+)\s*(==|!=|>=|<=|>|<)\s*(.+?)\s*$")
ALIASES = {"hits": "hits.total.value", "groups": "groups.length"}
READS = re.compile(r"/_search|/_near_duplicates(?!/_write)|/_simhash|/_doc/")


def examples(path):
    """(line number, command, expected status or None, [expectations]) of every command in the ```sh blocks, in order."""
    found = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    in_block = False
    command, start, expected, pending_expected = None, 0, None, None
    expects, pending_expects = [], []
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            in_block = line.strip() == "```sh" and not in_block
            command, pending_expected, pending_expects = None, None, []
            continue
        if not in_block:
            continue
        if command is None:
            stripped = line.strip()
            if not stripped:
                pending_expected, pending_expects = None, []
                continue
            if stripped.startswith("#"):
                match = EXPECTED.search(stripped)
                pending_expected = int(match.group(1)) if match else pending_expected
                match = EXPECT.match(stripped)
                if match:
                    pending_expects.append(match.groups())
                elif stripped.startswith("# expect"):
                    raise SystemExit(f"README.md:{number}: cannot read [{stripped}] (see scripts/readme_check.py)")
                continue
            command, start, expected, pending_expected = line, number, pending_expected, None
            expects, pending_expects = pending_expects, []
        else:
            command += "\n" + line
        try:
            shlex.split(command, comments=True)
        except ValueError:  # an open quote: the command goes on on the next line
            continue
        found.append((start, command, expected, expects))
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


def value_at(answer, path):
    """The value at a dotted path of the JSON answer (list indexes as numbers, `length` for a size); KeyError if none."""
    value = answer
    for part in ALIASES.get(path, path).split("."):
        if part == "length" and isinstance(value, (list, dict)):
            value = len(value)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise KeyError(path)
    return value


def literal(text):
    if text in ("true", "false"):
        return text == "true"
    try:
        return float(text)
    except ValueError:
        return text.strip('"')


def unmet(body, expects):
    """The expectations the answer does not meet, as readable lines."""
    if not expects:
        return []
    try:
        answer = json.loads(body)
    except ValueError:
        return ["the answer is not JSON"]
    failed = []
    for path, op, want in expects:
        try:
            got = value_at(answer, path)
        except KeyError:
            failed.append(f"{path} {op} {want}: the answer has no {path}")
            continue
        want_value = literal(want)
        if isinstance(want_value, float) and not isinstance(got, bool) and isinstance(got, (int, float)):
            left, right = float(got), want_value
        elif isinstance(want_value, bool) or isinstance(got, bool):
            left, right = got, want_value
        else:
            left, right = str(got), str(want_value if not isinstance(want_value, float) else want)
        ok = {"==": left == right, "!=": left != right}.get(op)
        if ok is None:
            ok = isinstance(left, float) and isinstance(right, float) and {
                ">=": left >= right, "<=": left <= right, ">": left > right, "<": left < right}[op]
        if not ok:
            failed.append(f"{path} {op} {want}: got {json.dumps(got)[:200]}")
    return failed


def reads(command):
    """Whether the example reads (a search, groups, _simhash, a GET of a document): it must then say what it shows."""
    args = shlex.split(command, comments=True)
    url = next((a for a in args if "localhost:" in a), "")
    writes = any(a in ("-XPUT", "-XDELETE") for a in args)
    return bool(READS.search(url)) and not (writes and "/_doc/" in url)


def check(port):
    failures = 0
    for line, command, expected, expects in examples(README):
        first = command.split("\n", 1)[0]
        if not command.startswith("curl "):
            print(f"  skipped   README.md:{line}  {first}  (not a REST example)")
            continue
        status, body = run_curl(command, port)
        ok = status == expected if expected else 200 <= status < 300
        shown = unmet(body, expects) if ok and not expected else []
        silent = ok and not expected and not expects and reads(command)
        passed = ok and not shown and not silent
        print(f"  {'ok' if passed else 'FAILED':9} README.md:{line}  HTTP {status}  {first[:100]}"
              + (f"  ({len(expects)} expectation{'s' if len(expects) > 1 else ''} met)" if passed and expects else ""))
        if not ok:
            failures += 1
            want = f"HTTP {expected}" if expected else "a 2xx answer"
            print(f"            expected {want}; got: {body[:600]}")
        elif shown:
            failures += 1
            for failure in shown:
                print(f"            expected {failure}")
        elif silent:
            failures += 1
            print("            an example that reads needs an `# expect:` line saying what its answer shows")
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
    print("README check: every REST example ran as documented and showed what it is there for")
    return 0


if __name__ == "__main__":
    sys.exit(main())
