"""Example pin maps shipped with the package (a package so pip installs the TOML files)."""
