"""The notebooks ``dialkit demo`` runs, shipped in the wheel as ``dialkit.notebooks``
(pyproject.toml maps this folder there); read them through ``dialkit._files._packaged``."""
