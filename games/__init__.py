"""The bundled games: one `.rules` file per game and variant."""
