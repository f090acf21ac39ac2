#!/usr/bin/env python3
"""An independent reader of the gateway's remote transaction report.

Python's standard library only, sharing no code with the sandbox or the node: its own OAuth 1.0a
HMAC-SHA1 signature (RFC 5849: the query parameters and the oauth_* parameters in the base string,
consumer key = merchant login, key = control key + '&'), urllib for HTTP and the csv module for the
body. Rows are printed as JSON, bound to the header by name, exactly as the report wrote them (card
columns masked as served). Whether the body was read whole is said, never guessed:

  complete  the HTTP body ended as HTTP says it ends, and the CSV's last record is whole
            (ends with a line break, has as many fields as the header, no quote left open)
  problem   why not, when it is not

Usage: report_client.py URL LOGIN CONTROL_KEY '{"createdFromDate": "...", ...}' [--tamper]
Prints {"status", "contentType", "chunked", "complete", "problem", "header", "rows"} (or "body"
instead of header/rows when the reply is not HTTP 200).
"""

import argparse
import base64
import csv
import hashlib
import hmac
import http.client
import io
import json
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def percent(value):
    """RFC 3986 percent-encoding, as OAuth 1.0a requires (only unreserved characters kept)."""
    return urllib.parse.quote(str(value), safe="-._~")


def authorization(method, url, params, login, key, tamper=False):
    """The Authorization header of an OAuth 1.0a HMAC-SHA1 request with these query parameters."""
    oauth = {
        "oauth_consumer_key": login,
        "oauth_nonce": secrets.token_hex(8),
        "oauth_signature_method": "HMAC-SHA1",
        "oauth_timestamp": str(int(time.time())),
        "oauth_version": "1.0",
    }
    pairs = sorted((percent(k), percent(v)) for k, v in list(params.items()) + list(oauth.items()))
    normalised = "&".join(f"{k}={v}" for k, v in pairs)
    base = "&".join([method, percent(url), percent(normalised)])
    digest = hmac.new((percent(key) + "&").encode(), base.encode(), hashlib.sha1).digest()
    signature = base64.b64encode(digest).decode()
    if tamper:
        signature = ("B" if signature[0] == "A" else "A") + signature[1:]
    oauth["oauth_signature"] = signature
    return "OAuth " + ", ".join(f'{k}="{percent(v)}"' for k, v in oauth.items())


def fetch(url, params, login, key, tamper=False):
    """(status, headers, body text, problem): problem says why the body was not read whole."""
    query = urllib.parse.urlencode(params, quote_via=urllib.parse.quote, safe="-._~")
    request = urllib.request.Request(
        url + ("?" + query if query else ""),
        headers={"Authorization": authorization("GET", url, params, login, key, tamper)},
    )
    try:
        response = urllib.request.urlopen(request, timeout=120)
    except urllib.error.HTTPError as error:
        response = error
    problem = None
    try:
        raw = response.read()
    except http.client.IncompleteRead as error:
        raw = error.partial
        problem = "the connection closed before the body ended (IncompleteRead)"
    except (ConnectionError, http.client.HTTPException) as error:
        raw = b""
        problem = f"the body could not be read: {error!r}"
    return response.status, response.headers, raw.decode("utf-8", errors="replace"), problem


def parse_report(text):
    """(header, rows, problem): the records of an RFC 4180 body bound to its header by name."""
    if text == "":
        return [], [], "the body is empty (not even a header record)"
    try:
        records = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as error:
        return [], [], f"the CSV is malformed: {error}"
    header, data = records[0], [record for record in records[1:] if record != []]
    rows = [dict(zip(header, record)) for record in data]
    problem = None
    if not text.endswith("\n"):
        problem = "the last record does not end with a line break"
    short = [i for i, record in enumerate(data) if len(record) != len(header)]
    if short:
        problem = f"record {short[0] + 1} has {len(data[short[0]])} fields, the header {len(header)}"
    return header, rows, problem


def main():
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("url")
    arguments.add_argument("login")
    arguments.add_argument("control_key")
    arguments.add_argument("params", help="the query parameters, a JSON object")
    arguments.add_argument("--tamper", action="store_true", help="send a wrong signature")
    options = arguments.parse_args()
    params = json.loads(options.params)
    status, headers, text, problem = fetch(options.url, params, options.login, options.control_key, options.tamper)
    out = {
        "status": status,
        "contentType": headers.get("Content-Type"),
        "chunked": headers.get("Transfer-Encoding") == "chunked",
    }
    if status == 200:
        header, rows, csv_problem = parse_report(text)
        problem = problem or csv_problem
        out.update({"complete": problem is None, "problem": problem, "header": header, "rows": rows})
    else:
        out.update({"complete": problem is None, "problem": problem, "body": text})
    # json.dumps, not json.dump: dump encodes piece by piece in Python (minutes for 100,000 rows)
    sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
