"""The meeple rules language: grammar, parse tree -> AST."""
