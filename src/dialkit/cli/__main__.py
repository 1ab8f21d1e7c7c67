"""``python -m dialkit.cli``: the ``dialkit`` command, where no console script is installed."""

from dialkit.cli import main

main()
