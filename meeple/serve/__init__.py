"""`meeple serve`: the playtest page (needs the `serve` extra: Starlette and uvicorn)."""
