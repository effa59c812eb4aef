#!/usr/bin/env python3
"""Authorization with security on: runs against an Elasticsearch 8.19 node started with x-pack security
(NODE_SECURITY=1 scripts/node.sh start; the superuser comes from NODE_ADMIN / NODE_ADMIN_PASSWORD) and checks that the
plugin's actions are authorized by their action names and the indices they reach:

  * a user who may read index A only gets 403 for a `like` probe (query and rescorer) that reaches index B, for
    `_near_duplicates` on B and for a `near_duplicate_check` whose target is B, and 200 on A;
  * `_near_duplicates/_write` needs the write privilege on the index (403 for the reader, 200 for a writer);
  * `_simhash` without an index needs no index privilege (a user with the `monitor` cluster privilege only);
    with an index it reads the field's mapping and needs a read privilege there.

Standard library only. Usage: security_check.py [--url http://127.0.0.1:9260]"""
import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ADMIN = (os.environ.get("NODE_ADMIN", "admin"), os.environ.get("NODE_ADMIN_PASSWORD", "near-duplicate-admin"))
PASSWORD = "near-duplicate-test"
ROLES = """
reader_a:
  indices:
    - names: ["sec-a"]
      privileges: ["read"]
writer_a:
  indices:
    - names: ["sec-a"]
      privileges: ["read", "write"]
monitor_only:
  cluster: ["monitor"]
ingest_a:
  cluster: ["monitor"]
  indices:
    - names: ["sec-a", "sec-c"]
      privileges: ["read", "write", "create_index"]
"""
USERS = {"reader": "reader_a", "writer": "writer_a", "monitor": "monitor_only", "ingester": "ingest_a"}

failures = []


def send(url, user, method, path, body=None, ndjson=False):
    data = None
    headers = {"Authorization": "Basic " + base64.b64encode(f"{user[0]}:{user[1]}".encode()).decode()}
    if body is not None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        headers["Content-Type"] = "application/x-ndjson" if ndjson else "application/json"
    req = urllib.request.Request(url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def expect(what, status, answer, wanted):
    ok = status == wanted
    print(f"{'ok  ' if ok else 'FAIL'} {what}: HTTP {status} (expected {wanted})"
          + ("" if ok else f" {json.dumps(answer)[:300]}"), flush=True)
    if not ok:
        failures.append(what)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default=f"http://127.0.0.1:{os.environ.get('NODE_PORT', '9260')}")
    args = parser.parse_args()
    url = args.url
    env = dict(os.environ, NODE_PLATFORM="elasticsearch")
    with tempfile.NamedTemporaryFile("w", suffix=".yml", delete=False) as f:
        f.write(ROLES)
    subprocess.run([os.path.join(HERE, "node.sh"), "roles", f.name], check=True, env=env)
    for name, role in USERS.items():
        subprocess.run([os.path.join(HERE, "node.sh"), "useradd", name, PASSWORD, role], check=True, env=env,
                       stdout=subprocess.DEVNULL)
    user = {name: (name, PASSWORD) for name in USERS}
    # the file realm reloads users and roles from disk every few seconds: wait until each user authenticates with its role
    deadline = time.time() + 90
    for name, role in USERS.items():
        while True:
            status, answer = send(url, user[name], "GET", "/_security/_authenticate")
            if status == 200 and role in answer.get("roles", []):
                break
            if time.time() > deadline:
                sys.exit(f"error: user [{name}] does not authenticate with role [{role}]: HTTP {status} {answer}")
            time.sleep(1)

    text = "The old harbor bridge reopened to traffic on Monday morning after two years of repairs. " * 5
    send(url, ADMIN, "DELETE", "/sec-c?ignore_unavailable=true")
    for index in ("sec-a", "sec-b"):
        send(url, ADMIN, "DELETE", f"/{index}?ignore_unavailable=true")
        status, answer = send(url, ADMIN, "PUT", f"/{index}", {"mappings": {"properties": {"simhash": {"type": "simhash"}}}})
        expect(f"admin creates {index}", status, answer, 200)
    send(url, ADMIN, "PUT", "/_ingest/pipeline/sec-fp", {"processors": [{"simhash": {"field": "text", "target_field": "simhash"}}]})
    for index in ("sec-a", "sec-b"):
        status, answer = send(url, ADMIN, "PUT", f"/{index}/_doc/1?pipeline=sec-fp&refresh=true", {"text": text})
        expect(f"admin indexes into {index}", status, answer, 201)

    like_b = {"near_duplicate": {"field": "simhash", "like": {"_index": "sec-b", "_id": "1"}}}
    like_a = {"near_duplicate": {"field": "simhash", "like": {"_index": "sec-a", "_id": "1"}}}
    status, answer = send(url, user["reader"], "POST", "/sec-a/_search", {"query": like_a})
    expect("reader: like probe within A", status, answer, 200)
    status, answer = send(url, user["reader"], "POST", "/sec-a/_search", {"query": like_b})
    expect("reader: like probe reaching B (query)", status, answer, 403)
    status, answer = send(url, user["reader"], "POST", "/sec-a/_search", {
        "query": {"match_all": {}}, "rescore": {"near_duplicate": {"field": "simhash", "like": {"_index": "sec-b", "_id": "1"}}}})
    expect("reader: like probe reaching B (rescorer)", status, answer, 403)
    status, answer = send(url, user["reader"], "POST", "/sec-b/_search", {"query": like_a})
    expect("reader: search on B", status, answer, 403)

    status, answer = send(url, user["reader"], "POST", "/sec-a/_near_duplicates", {"field": "simhash"})
    expect("reader: _near_duplicates on A", status, answer, 200)
    status, answer = send(url, user["reader"], "POST", "/sec-b/_near_duplicates", {"field": "simhash"})
    expect("reader: _near_duplicates on B", status, answer, 403)
    status, answer = send(url, user["reader"], "POST", "/sec-a/_near_duplicates/_write", {"field": "simhash"})
    expect("reader: _near_duplicates/_write on A (no write privilege)", status, answer, 403)
    status, answer = send(url, user["writer"], "POST", "/sec-a/_near_duplicates/_write", {"field": "simhash"})
    expect("writer: _near_duplicates/_write on A", status, answer, 200)

    status, answer = send(url, user["monitor"], "POST", "/_simhash", {"text": text})
    expect("monitor only: _simhash without an index", status, answer, 200)
    status, answer = send(url, user["monitor"], "POST", "/sec-a/_simhash", {"field": "simhash", "text": text})
    expect("monitor only: _simhash on A (reads its mapping)", status, answer, 403)
    status, answer = send(url, user["reader"], "POST", "/sec-a/_simhash", {"field": "simhash", "text": text})
    expect("reader: _simhash on A", status, answer, 200)

    for target in ("sec-a", "sec-b"):
        send(url, ADMIN, "PUT", f"/_ingest/pipeline/sec-check-{target}", {"processors": [
            {"simhash": {"field": "text", "target_field": "simhash"}},
            {"near_duplicate_check": {"field": "simhash", "index": target, "on_duplicate": "tag",
                                      "result_field": "near_duplicate"}}]})
    status, answer = send(url, user["ingester"], "PUT", "/sec-c/_doc/1?pipeline=sec-check-sec-a&refresh=true", {"text": text})
    expect("ingester: check against A (may read A)", status, answer, 201)
    status, answer = send(url, ADMIN, "GET", "/sec-c/_doc/1")
    outcome = answer.get("_source", {}).get("near_duplicate", {}).get("status")
    expect(f"ingester: the check read A and found the copy (status {outcome})", 200 if outcome == "duplicate" else 500,
           answer, 200)
    status, answer = send(url, user["ingester"], "PUT", "/sec-c/_doc/2?pipeline=sec-check-sec-b&refresh=true", {"text": text})
    expect("ingester: check against B (may not read B)", status, answer, 403)

    print(f"security check: {'FAILED ' + ', '.join(failures) if failures else 'all passed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
