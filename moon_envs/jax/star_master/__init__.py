"""Star Master's JAX twin (``star_master_v0``): see :mod:`.twin` for the class, the
modules beside it for the rules (``rules``), the views (``views``), the determinisation
(``determinise``), the decay-mode hash (``forget``) and the position's arrays
(``tables``)."""

from moon_envs.jax.star_master.twin import StarMasterTwin

__all__ = ["StarMasterTwin"]
