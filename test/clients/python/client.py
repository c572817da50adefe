"""The official Python MCP SDK's `Client` (mcp 2.x) on the same journey as the TypeScript clients.

Usage: python3 client.py <case json> <result path>. The case is the worker input of run.ts
(stdio server command or HTTP url, era); the result has the shape of lib/types.ts WorkerResult.
Era "modern" pins 2026-07-28; "legacy" uses the 2025 initialize handshake.
"""
import asyncio
import json
import logging
import sys
import warnings
from importlib.metadata import version

from mcp import Client, StdioServerParameters

EXPECTED = ["chat", "web_search", "image_generate", "auth_status"]
STEP_S = 30


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def cell(ok, note=""):
    return {"status": "pass" if ok else "fail", **({"note": note} if note else {})}


def texts(result):
    return "\n".join(item.text for item in result.content if item.type == "text")


async def step(out, key, coroutine):
    try:
        out[key] = await asyncio.wait_for(coroutine, STEP_S)
    except Exception as error:  # a failed step is a failed cell, never a crash
        out[key] = cell(False, f"{type(error).__name__}: {error}"[:200])


async def journey(client, out, collected):
    async def listing():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tools = (await client.list_tools()).tools
        out["delivered"] = [{"name": t.name, "parameters": t.input_schema} for t in tools]
        out["warnings"] = [str(w.message) for w in caught] + collected.lines
        missing = [name for name in EXPECTED if name not in {t.name for t in tools}]
        if missing:
            return cell(False, "missing " + ", ".join(missing))
        if out["warnings"]:
            return cell(False, f"{len(out['warnings'])} warning(s): {out['warnings'][0]}")
        return cell(True, f"{len(tools)} tools, no warnings")

    async def chat():
        progress = []

        async def on_progress(value, total, message):
            progress.append(message or "")

        prompt = "Say hello to python-sdk"
        result = await client.call_tool(
            "chat", {"model": "openai/gpt-sandbox", "prompt": prompt}, progress_callback=on_progress
        )
        if result.is_error:
            return cell(False, "isError: " + texts(result)[:160])
        if prompt not in texts(result):
            return cell(False, "reply lacks the prompt")
        return cell(bool(progress), f"{len(progress)} progress" if progress else "no progress notifications")

    async def search():
        result = await client.call_tool("web_search", {"query": "model context protocol"})
        return cell(not result.is_error and "http" in texts(result), texts(result)[:160] if result.is_error else "")

    async def image():
        result = await client.call_tool(
            "image_generate", {"model": "pixel-lite", "prompt": "a fox", "resolution": "512x512"}
        )
        images = sum(1 for item in result.content if item.type == "image")
        return cell(not result.is_error and images > 0, f"{images} image")

    await step(out, "list", listing())
    await step(out, "chat", chat())
    await step(out, "search", search())
    await step(out, "image", image())


async def main():
    case, result_path = json.loads(sys.argv[1]), sys.argv[2]
    collected = Collect()
    logging.getLogger().addHandler(collected)
    failed = cell(False, "not run")
    out = {
        "id": case["case"]["id"],
        "version": f"mcp@{version('mcp')} (Python)",
        "node": f"python {sys.version.split()[0]}",
        "list": failed, "chat": failed, "search": failed, "image": failed,
        "warnings": [], "delivered": [],
    }
    try:
        stdio = case["case"]["transport"] == "stdio"
        server = StdioServerParameters(**case["server"]) if stdio else case["url"]
        mode = "2026-07-28" if case["case"]["era"] == "modern" else "legacy"
        # Every request is bounded by read_timeout_seconds; run.ts ends the process after 120 s.
        async with Client(server, mode=mode, read_timeout_seconds=STEP_S) as client:
            await journey(client, out, collected)
    except Exception as error:
        note = cell(False, f"{type(error).__name__}: {error}"[:200])
        for key in ("list", "chat", "search", "image"):
            if out[key] is failed:
                out[key] = note
    with open(result_path, "w") as handle:
        json.dump(out, handle)


asyncio.run(main())
