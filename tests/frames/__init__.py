"""Frame and cache tests; a package so their file names may repeat those elsewhere."""
