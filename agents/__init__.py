"""Baseline agents, training and evaluation for moon-envs (depends on moon_envs)."""

from agents.base import Agent, AgentView, legal_actions
from agents.random_agent import RandomAgent

__all__ = ["Agent", "AgentView", "RandomAgent", "legal_actions"]
