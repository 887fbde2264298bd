"""`neuralis lower --profile openai|anthropic|gemini` is a fixed point of each provider's SDK.

For every example tool file (`examples/*/tools/*.json`) and each provider, the definition
`neuralis lower` prints goes through the function the provider's SDK runs on a tool
definition, which must give it back unchanged (compared as JSON values):

- openai: `agents.strict_schema.ensure_strict_json_schema(parameters,
  _reject_open_objects=True)` (what the Agents SDK runs on an MCP tool), openai's own
  `lib._pydantic._ensure_strict_json_schema`, and `agents.FunctionTool(...,
  strict_json_schema=True)` accepts it;
- anthropic: `anthropic.lib._parse._transform.transform_schema(input_schema)` (the strict
  grammar's transform);
- gemini: `google.genai.types.FunctionDeclaration.model_validate(definition)`, dumped back
  (`mode="json"`, `exclude_none`, `by_alias`).

No example tool may be refused (`neuralis lower` exits 1). The golden schemas of every
type family and serde attribute (`tests/snapshots/*.json`) go through the same check; one
of them may be refused, but only with `dialect-refused` on stderr (a map, a recursive
type for OpenAI and Gemini, a value of any type), and then `REFUSED` names it. Usage:
dialects.py --neuralis BIN --root REPO
"""

import argparse
import copy
import glob
import json
import os
import subprocess
import sys

from agents import FunctionTool
from agents.strict_schema import ensure_strict_json_schema
from anthropic.lib._parse._transform import transform_schema
from google.genai import types
from openai.lib._pydantic import _ensure_strict_json_schema as openai_strict


def fixed_point(provider, definition):
    """The problems of `definition` under `provider`'s SDK: [] for a fixed point."""
    if provider == "openai":
        params = definition["parameters"]
        problems = []
        if ensure_strict_json_schema(copy.deepcopy(params), _reject_open_objects=True) != params:
            problems.append("ensure_strict_json_schema changes it")
        mine = copy.deepcopy(params)
        if openai_strict(mine, path=(), root=mine) != params:
            problems.append("openai's _ensure_strict_json_schema changes it")

        async def invoke(_ctx, _args):
            return ""

        tool = FunctionTool(name=definition["name"], description=definition["description"],
                            params_json_schema=params, on_invoke_tool=invoke,
                            strict_json_schema=True)
        if tool.params_json_schema != params:
            problems.append("FunctionTool(strict_json_schema=True) changes it")
        return problems
    if provider == "anthropic":
        schema = definition["input_schema"]
        return [] if transform_schema(copy.deepcopy(schema)) == schema else [
            f"transform_schema changes it: {json.dumps(transform_schema(copy.deepcopy(schema)))}"]
    dumped = types.FunctionDeclaration.model_validate(definition).model_dump(
        mode="json", exclude_none=True, by_alias=True)
    return [] if dumped == definition else [f"FunctionDeclaration dumps {json.dumps(dumped)}"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--neuralis", required=True)
    parser.add_argument("--root", required=True)
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(args.root, "examples", "*", "tools", "*.json")))
    golden = sorted(glob.glob(os.path.join(args.root, "tests", "snapshots", "*.json")))
    failed = False
    for provider in ("openai", "anthropic", "gemini"):
        problems = []
        refused = []
        for path in files + golden:
            run = subprocess.run([args.neuralis, "lower", "--profile", provider, path],
                                 capture_output=True, text=True)
            label = os.path.relpath(path, args.root)
            if run.returncode == 1 and path in golden and "error[dialect-refused]" in run.stderr:
                refused.append(label)
                continue
            if run.returncode != 0:
                problems.append(f"{label}: neuralis lower exited {run.returncode}: {run.stderr[:300]}")
                continue
            try:
                for p in fixed_point(provider, json.loads(run.stdout)):
                    problems.append(f"{label}: {p}")
            except Exception as e:  # the SDK refuses the definition
                problems.append(f"{label}: refused: {type(e).__name__}: {e}")
        total = len(files) + len(golden) - len(refused)
        print(f"dialects: {provider}: {total - len(problems)} / {total} a fixed point "
              f"({len(files)} example tools, {len(golden) - len(refused)} golden schemas; "
              f"REFUSED: {', '.join(os.path.basename(r) for r in refused) or 'none'})")
        for p in problems:
            print(f"  {p}")
        failed = failed or bool(problems) or not files
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
