"""Doc generators: the rule reference and the summary of a game, generated from its AST.

    docs = game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    write([docs], Path("out"), ["md", "html", "pdf"], summary=True)

`english` speaks every AST node in English, `model` gathers what a rulebook says, `flow` draws the
flow of play, `render` fills the jinja2 templates (`templates/`) and writes the files, `lexer` is
the Pygments lexer that colours `.rules` source. None of them knows any game.
"""

from meeple.codegen.render import GameDocs, game_docs, pdf_available, write

__all__ = ["GameDocs", "game_docs", "pdf_available", "write"]
