"""Doc generators: rule references and summaries from the AST."""
