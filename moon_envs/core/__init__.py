"""The shared core: the Game/State protocol, the one AEC adapter, the single-agent view."""
