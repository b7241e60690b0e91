"""Simulated tables for tests, benchmarks and the demo: true and noisy observations of games."""

from companion.sim.table import random_layout, still_states, table_observation

__all__ = ["random_layout", "still_states", "table_observation"]
