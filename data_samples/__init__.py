"""The sample lead files, shipped in the wheel as ``dialkit.data_samples`` (pyproject.toml
maps this folder there); read them through :mod:`dialkit.samples`."""
