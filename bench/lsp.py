"""How fast `meeple lsp` answers an editor, driven over stdio as an editor drives it.

    python bench/lsp.py [--game dino_garden] [--requests 50] [--edits 7] [--steps 2]

Opens a bundled game in the server of this environment (`meeple lsp`), waits for its
diagnostics, then measures: hover, definition, references and completion at names spread over the
file, and two kinds of edit, each made `--edits` times in a row as one types (a space added to a
line in the middle; a comment line added at the top), each from the change until the server
shows names and types (its first diagnostics of the new version) and until it shows the
loader's (bounds, compiler and texts too), and the server's CPU time (all its threads) until
each; then the file is saved, until the checks' diagnostics arrive. Prints the median and the
slowest of each, in milliseconds. Figures are for comparing runs on one machine side by side (before and
after a change), not absolute; on a loaded machine, the CPU time is the steadier figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from meeple.loader import bundled_dir


async def bench(game: str, requests: int, repeats: int, steps: int) -> None:
    path = bundled_dir() / f"{game}.rules"
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = from_fs_path(str(path)) or ""
    client = LanguageClient("meeple-bench", "1")
    published: list[tuple[float, lsp.PublishDiagnosticsParams]] = []
    arrived = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published.append((time.perf_counter(), params))
        arrived.set()

    await client.start_io(str(Path(sys.executable).with_name("meeple")), "lsp")
    await client.initialize_async(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), process_id=None)
    )
    client.initialized(lsp.InitializedParams())

    async def diagnostics(version: int, count: int, since: float) -> float:
        """Seconds from `since` until the `count`-th publication of `version`."""
        while sum(1 for _, p in published if p.version == version) < count:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 600)
        return [t for t, p in published if p.version == version][count - 1] - since

    start = time.perf_counter()
    item = lsp.TextDocumentItem(uri=uri, language_id="meeple", version=1, text=text)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(item))
    first = await diagnostics(1, 1, start)
    whole = await diagnostics(1, steps + 1, start)
    print(f"{game}: {len(lines)} lines; opened: first diagnostics {first:.2f} s, checks' {whole:.2f} s")

    rules = [n for n, line in enumerate(lines) if re.match(r"\s+\w+\(", line)]
    chosen = rules[:: max(1, len(rules) // requests)][:requests]
    doc = lsp.TextDocumentIdentifier(uri)

    async def timed(name: str, make: object) -> None:
        times = []
        for n in chosen:
            column = len(lines[n]) - len(lines[n].lstrip()) + 1
            position = lsp.Position(n, column)
            began = time.perf_counter()
            try:
                await make(position)  # type: ignore[operator]
            except Exception as err:  # a server that does not offer it
                print(f"  {name}: {type(err).__name__}: {err}")
                return
            times.append((time.perf_counter() - began) * 1000)
        print(
            f"  {name}: median {statistics.median(times):.1f} ms, slowest {max(times):.1f} ms ({len(times)})"
        )

    await timed("hover", lambda p: client.text_document_hover_async(lsp.HoverParams(doc, p)))
    await timed("definition", lambda p: client.text_document_definition_async(lsp.DefinitionParams(doc, p)))
    await timed(
        "references",
        lambda p: client.text_document_references_async(
            lsp.ReferenceParams(lsp.ReferenceContext(include_declaration=True), doc, p)
        ),
    )
    await timed("completion", lambda p: client.text_document_completion_async(lsp.CompletionParams(doc, p)))

    middle = len(lines) // 2
    edits: dict[str, Callable[[int], str]] = {
        "a line changed": lambda n: "\n".join(
            [*lines[:middle], lines[middle] + " " * n, *lines[middle + 1 :]]
        ),
        "a line added at the top": lambda n: text.replace("\n", "\n# an edit\n" * n, 1),
    }
    server = client._server  # the server's process: its CPU time is read from /proc
    version = 1
    for what, edited in edits.items():
        first, loaded, first_cpu, cpu = [], [], [], []
        for n in range(1, repeats + 1):
            version += 1
            began, used = time.perf_counter(), cpu_seconds(server.pid if server else 0)
            versioned = lsp.VersionedTextDocumentIdentifier(uri=uri, version=version)
            change = lsp.TextDocumentContentChangeWholeDocument(text=edited(n))
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(versioned, [change]))
            first.append(await diagnostics(version, 1, began))
            first_cpu.append(cpu_seconds(server.pid if server else 0) - used)
            loaded.append(await diagnostics(version, steps, began))
            cpu.append(cpu_seconds(server.pid if server else 0) - used)
        began = time.perf_counter()
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        saved = await diagnostics(version, steps + 1, began)
        print(
            f"  {what} ({repeats} times): names and types {_median(first)} (server CPU {_median(first_cpu)}),"
            f" the loader's {_median(loaded)} (server CPU {_median(cpu)});"
            f" then saved: the checks' {saved:.2f} s"
        )

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far, all its threads (Linux: /proc); 0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime and stime


def _median(seconds: list[float]) -> str:
    return f"median {statistics.median(seconds) * 1000:.0f} ms (slowest {max(seconds) * 1000:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="dino_garden")
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--edits", type=int, default=7, help="times each kind of edit is made")
    parser.add_argument(
        "--steps",
        type=int,
        default=2,
        help="diagnostics the server publishes for a version before the checks' (1 for a server that"
        " did not show names and types first)",
    )
    args = parser.parse_args()
    asyncio.run(bench(args.game, args.requests, args.edits, args.steps))


if __name__ == "__main__":
    main()
