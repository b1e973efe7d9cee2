"""Games played and watched by people: human play in the terminal
(:mod:`moon_agents.play.human`) and replays as GIF or HTML (:mod:`moon_agents.play.replay`).
"""
