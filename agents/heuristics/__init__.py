"""Per-game heuristic agents."""
