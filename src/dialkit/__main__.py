"""``python -m dialkit``: the ``dialkit`` command, where no console script is on the path."""

from dialkit.cli import main

main()
