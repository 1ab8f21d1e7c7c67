"""Client tests; a package so their file names may repeat those of tests/sandbox/."""
