"""Only the package list lives here (pyproject.toml has everything else): every ``gameai``
package plus ``gameai.experiments``, which pyproject maps to the repository's experiments/
folder. A ``packages.find`` table cannot name a package whose folder it maps elsewhere."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["gameai", "gameai.*"]) + ["gameai.experiments"])
