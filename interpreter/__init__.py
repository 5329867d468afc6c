"""Analysis, compiled program, engine, agents: everything that runs a game."""
