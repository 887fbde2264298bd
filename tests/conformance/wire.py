"""What went over the wire, read back from wire_tee.py's logs, and the checks every
client's run shares: these look at the raw JSON-RPC lines, not at what an SDK models
(an SDK can fill in a missing field, or hide one it does not know).
"""

import copy
import glob
import json
import os
import time

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
MODERN = "2026-07-28"


class Failure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def report_failure(label, e):
    """Prints a scenario's failure as one `FAIL` line: the exception, or the one inside an
    exception group (anyio's task groups wrap what a task raised)."""
    while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
        e = e.exceptions[0]
    print(f"FAIL {label}: {type(e).__name__}: {e}")


class Wire:
    """Every line one client's servers sent and received (all tee logs in a directory)."""

    def __init__(self, directory):
        self.directory = directory

    def entries(self):
        out = []
        for path in sorted(glob.glob(os.path.join(self.directory, "*.jsonl"))):
            with open(path, encoding="utf-8") as f:
                for raw in f:
                    entry = json.loads(raw)
                    try:
                        entry["message"] = json.loads(entry["line"])
                    except ValueError:
                        entry["message"] = None
                    entry["file"] = path
                    out.append(entry)
        return out

    def stdout_is_json_rpc(self):
        for e in self.entries():
            if e["dir"] == "s2c":
                m = e["message"]
                check(isinstance(m, dict) and m.get("jsonrpc") == "2.0",
                      f"the server wrote a line that is not JSON-RPC: {e['line'][:200]!r}")

    def request(self, method, predicate=lambda params: True, timeout=10.0):
        """The (file, entry) of the last client request with this method whose params pass."""
        deadline = time.monotonic() + timeout
        while True:
            found = None
            for e in self.entries():
                m = e["message"]
                if (e["dir"] == "c2s" and isinstance(m, dict) and m.get("method") == method
                        and "id" in m and predicate(m.get("params") or {})):
                    found = e
            if found or time.monotonic() > deadline:
                check(found, f"no `{method}` request went over the wire")
                return found
            time.sleep(0.02)

    def response(self, request, timeout=10.0):
        """The server's answer to `request` (an entry from `request`), from the same log."""
        deadline = time.monotonic() + timeout
        rid = request["message"]["id"]
        while True:
            for e in self.entries():
                m = e["message"]
                if (e["file"] == request["file"] and e["dir"] == "s2c" and isinstance(m, dict)
                        and m.get("id") == rid and ("result" in m or "error" in m)):
                    return e
            check(time.monotonic() < deadline, f"no answer to request id {rid!r}")
            time.sleep(0.02)

    def notifications(self, request, method):
        """Server notifications of `method` in the same log as `request`."""
        return [e for e in self.entries()
                if e["file"] == request["file"] and e["dir"] == "s2c"
                and isinstance(e["message"], dict) and e["message"].get("method") == method]

    def call(self, tool, arguments, timeout=10.0):
        """The raw `tools/call` request for this tool and these arguments, and its answer."""
        req = self.request("tools/call",
                           lambda p: p.get("name") == tool and (p.get("arguments") or {}) == arguments,
                           timeout)
        return req, self.response(req, timeout)


def packages(only=None):
    """The example packages of packages.json (or only the one named `only`)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "packages.json"), encoding="utf-8") as f:
        listed = json.load(f)["packages"]
    return [p for p in listed if only is None or p["name"] == only]


def load_tools(root, spec):
    """The package's tool files: {name: document}."""
    paths = spec if isinstance(spec, list) else sorted(glob.glob(os.path.join(root, spec, "*.json")))
    tools = {}
    for path in paths:
        path = os.path.join(root, path)
        with open(path, encoding="utf-8") as f:
            tools[os.path.splitext(os.path.basename(path))[0]] = json.load(f)
    return tools


def has_output(raw_tools, name):
    """Whether `tools/list` gives the tool `name` an `outputSchema`."""
    return any(t.get("name") == name and "outputSchema" in t for t in raw_tools)


SAFE_INTEGER = 2**53 - 1
SCHEMA_MAPS = ("patternProperties", "dependencies")
SCHEMA_ONE = ("additionalProperties", "additionalItems", "contains", "propertyNames",
              "not", "if", "then", "else")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")


def admits_null(root, schema):
    """Whether `null` may pass `schema`, read from its keywords (as docs/dialects.md says)."""
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, dict):
        return True
    if "$ref" in schema:
        ref = schema["$ref"]
        target = root if ref == "#" else None
        if ref.startswith("#/"):
            target = root
            for part in ref[2:].split("/"):
                part = part.replace("~1", "/").replace("~0", "~")
                target = target.get(part) if isinstance(target, dict) else None
        return True if target is None else admits_null(root, target)
    t = schema.get("type")
    type_ok = t is None or t == "null" or (isinstance(t, list) and "null" in t) \
        or not isinstance(t, (str, list))
    enum_ok = "enum" not in schema or None in schema["enum"]
    const_ok = "const" not in schema or schema["const"] is None
    any_ok = all(any(admits_null(root, b) for b in schema[k]) for k in ("anyOf", "oneOf") if k in schema)
    all_ok = all(admits_null(root, b) for b in schema.get("allOf", []))
    return type_ok and enum_ok and const_ok and any_ok and all_ok


def portable(doc):
    """The file's input schema as a server serves it by default (docs/dialects.md, "What
    an MCP server serves"), restated here from the documented rule: optional properties
    also admit `null` (`{"anyOf": [<schema>, {"type": "null"}]}`, its `default` outside),
    no boolean `additionalProperties`, `definitions` as `$defs` (with `$ref: "#"` pointing
    at a copy of the root there), integer bounds within 2^53 - 1."""
    original = copy.deepcopy(doc)
    root = copy.deepcopy(doc)
    defs = root.pop("$defs", {})
    defs.update(root.pop("definitions", {}))
    root_name = None
    if '"$ref": "#"' in json.dumps(original):
        root_name = "Root"
        while root_name in defs:
            root_name += "_"
        copy_of_root = copy.deepcopy(root)
        copy_of_root.pop("title", None)
        defs[root_name] = copy_of_root

    def nullable(p):
        inner = dict(p)
        wrapper = {}
        if "default" in inner:
            wrapper["default"] = inner.pop("default")
        wrapper["anyOf"] = [inner, {"type": "null"}]
        p.clear()
        p.update(wrapper)

    def node(m):
        if not isinstance(m, dict):
            return
        if isinstance(m.get("additionalProperties"), bool):
            del m["additionalProperties"]
        ref = m.get("$ref")
        if ref == "#" and root_name:
            m["$ref"] = "#/$defs/" + root_name
        elif isinstance(ref, str) and ref.startswith("#/definitions/"):
            m["$ref"] = "#/$defs/" + ref[len("#/definitions/"):]
        t = m.get("type")
        if t == "integer" or (isinstance(t, list) and "integer" in t):
            for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                v = m.get(k)
                if isinstance(v, int) and not isinstance(v, bool):
                    m[k] = max(-SAFE_INTEGER, min(SAFE_INTEGER, v))
        required = m.get("required", [])
        for key, p in (m.get("properties") or {}).items():
            optional = key not in required and not admits_null(original, p)
            node(p)
            if optional and isinstance(p, dict):
                nullable(p)
        for k in SCHEMA_MAPS:
            for child in (m.get(k) or {}).values():
                node(child)
        items = m.get("items")
        for child in (items if isinstance(items, list) else [items]):
            node(child)
        for k in SCHEMA_ONE:
            if k in m:
                node(m[k])
        for k in SCHEMA_LISTS:
            for child in m.get(k, []):
                node(child)

    node(root)
    for d in defs.values():
        node(d)
    if defs:
        root["$defs"] = defs
    return root


def check_listing(raw_tools, files):
    """`tools/list` as sent: the package's tools, each schema the file's without `$schema`
    and `x-neuralis` and with each `x-neuralis.defaults` value as its property's `default`,
    as the default served dialect writes it (`portable`), every hint stated as the file
    says (absent means false)."""
    names = sorted(t.get("name") for t in raw_tools)
    check(names == sorted(files), f"tools/list has {names}, the package has {sorted(files)}")
    for tool in raw_tools:
        doc = files[tool["name"]]
        expected = copy.deepcopy({k: v for k, v in doc.items() if k not in ("$schema", "x-neuralis")})
        for key, value in doc.get("x-neuralis", {}).get("defaults", {}).items():
            expected["properties"][key]["default"] = value
        expected = portable(expected)
        check(tool.get("inputSchema") == expected,
              f"{tool['name']}: inputSchema differs from the tool file served portably: "
              f"{json.dumps(tool.get('inputSchema'))} != {json.dumps(expected)}")
        annotations = tool.get("annotations") or {}
        declared = doc.get("x-neuralis", {}).get("annotations", {})
        for hint in HINTS:
            check(isinstance(annotations.get(hint), bool),
                  f"{tool['name']}: `{hint}` is not stated on the wire")
            check(annotations[hint] == (declared.get(hint) is True),
                  f"{tool['name']}: `{hint}` is {annotations[hint]}, the file says {declared.get(hint)}")
        if "description" in doc:
            check(tool.get("description") == doc["description"], f"{tool['name']}: description")


def check_output(raw_tools, name, structured):
    """A typed tool as sent: `outputSchema` on its `tools/list` entry (an object schema,
    no `$schema`), valid under draft-07 and 2020-12 (what clients validate with), and the
    `structuredContent` of its result valid against it under both."""
    import jsonschema

    tool = next((t for t in raw_tools if t.get("name") == name), None)
    check(tool is not None, f"{name} is not listed")
    schema = tool.get("outputSchema")
    check(isinstance(schema, dict), f"{name}: no outputSchema on the wire")
    check(schema.get("type") == "object", f"{name}: outputSchema is not an object schema")
    check("$schema" not in schema, f"{name}: outputSchema names a dialect")
    for cls in (jsonschema.Draft7Validator, jsonschema.Draft202012Validator):
        cls.check_schema(schema)
        errors = [e.message for e in cls(schema).iter_errors(structured)]
        check(not errors, f"{name}: structuredContent breaks its outputSchema ({cls.__name__}): {errors}")
    return schema


def check_result(answer, era, is_error):
    """A `tools/call` answer as sent: a result (never a protocol error) with content blocks,
    `isError` as expected, and `resultType: "complete"` exactly on the 2026-07-28 era."""
    m = answer["message"]
    check("result" in m, f"a protocol error where a result belongs: {m.get('error')}")
    result = m["result"]
    check(isinstance(result.get("content"), list) and result["content"],
          f"no content blocks: {result}")
    for block in result["content"]:
        check(block.get("type") in ("text", "image", "audio", "resource"), f"block {block}")
    check(result.get("isError", False) is is_error, f"isError is {result.get('isError')}: {result}")
    if era == MODERN:
        check(result.get("resultType") == "complete",
              f"2026-07-28 requires resultType \"complete\": {sorted(result)}")
    else:
        check("resultType" not in result, f"{era} has no resultType: {sorted(result)}")
    return result


def check_unknown_argument(result, typed=False):
    """The refusal of an unknown argument names its pointer in the text, and in
    `structuredContent.errors`, except for a tool with an `outputSchema`, whose `isError`
    results carry no `structuredContent` (clients such as the Inspector check it against
    the output schema)."""
    text = " ".join(b.get("text", "") for b in result["content"])
    check("`/bogus`" in text, f"the error does not name the pointer /bogus: {text!r}")
    if typed:
        check("structuredContent" not in result,
              f"an isError result of a typed tool carries structuredContent: {result}")
        return
    pointers = [e.get("pointer") for e in (result.get("structuredContent") or {}).get("errors", [])]
    check("/bogus" in pointers, f"structuredContent.errors has {pointers}")


def check_unknown_tool(result, name):
    text = " ".join(b.get("text", "") for b in result["content"])
    check(f"no tool named `{name}` is available" in text, f"not the generic refusal: {text!r}")


def check_progress(wire, request, answer, batches):
    """Progress notifications as sent: one per batch for the request's token, increasing,
    with the total, all before the result."""
    token = request["message"]["params"]["_meta"]["progressToken"]
    sent = [e for e in wire.notifications(request, "notifications/progress")
            if e["message"]["params"].get("progressToken") == token]
    values = [e["message"]["params"]["progress"] for e in sent]
    check(values == list(range(1, batches + 1)), f"progress values {values}")
    check(all(e["message"]["params"].get("total") == batches for e in sent), "total")
    check(all(e["message"]["params"].get("message") for e in sent), "message")
    check(all(e["t"] <= answer["t"] for e in sent), "a progress notification after the result")


def check_cancelled(wire, request, progress):
    """The client's `notifications/cancelled` went out, no result for the request followed
    (MCP: the receiver does not answer a cancelled request), and, for a tool that reports
    progress, its reports stopped within one batch: the handler really stopped."""
    rid = request["message"]["id"]
    deadline = time.monotonic() + 10
    while True:
        sent = [e for e in wire.entries()
                if e["file"] == request["file"] and e["dir"] == "c2s"
                and isinstance(e["message"], dict)
                and e["message"].get("method") == "notifications/cancelled"
                and e["message"].get("params", {}).get("requestId") == rid]
        if sent or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    check(sent, "the client sent no notifications/cancelled")
    time.sleep(1.0)
    answers = [e for e in wire.entries()
               if e["file"] == request["file"] and e["dir"] == "s2c"
               and isinstance(e["message"], dict) and e["message"].get("id") == rid]
    check(not answers, f"a cancelled request was answered: {answers[0]['line'][:200] if answers else ''}")
    if progress:
        token = request["message"]["params"]["_meta"]["progressToken"]
        late = [e for e in wire.notifications(request, "notifications/progress")
                if e["message"]["params"].get("progressToken") == token
                and e["t"] > sent[0]["t"] + 0.35]
        check(not late, f"{len(late)} progress reports after the cancellation: the handler ran on")
