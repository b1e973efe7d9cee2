"""Package layout for setuptools (the metadata is in pyproject.toml).

The ``agents/`` folder installs as the import package ``moon_agents``: a top-level name
``agents`` would collide with other distributions that install one (the OpenAI Agents
SDK, the PyPI package ``agents``). Every subpackage is found here, so a new one needs no
edit of this file.

The experiment configs stay in the top-level ``configs/`` folder of a checkout and install
as the data folder ``moon_agents/configs`` (its files are listed in ``pyproject.toml``'s
package data), where ``moon-envs configs`` and ``moon-envs train NAME`` find them.
"""

from setuptools import find_packages, setup

AGENTS_FOLDER, AGENTS_IMPORT_NAME = "agents", "moon_agents"
CONFIGS_FOLDER, CONFIGS_PACKAGE = "configs", "moon_agents.configs"

agents_packages = [
    AGENTS_IMPORT_NAME + name[len(AGENTS_FOLDER) :]
    for name in find_packages(include=[AGENTS_FOLDER, AGENTS_FOLDER + ".*"])
]

setup(
    packages=find_packages(include=["moon_envs", "moon_envs.*"])
    + agents_packages
    + [CONFIGS_PACKAGE],
    package_dir={AGENTS_IMPORT_NAME: AGENTS_FOLDER, CONFIGS_PACKAGE: CONFIGS_FOLDER},
)
