"""Named profiles: several accounts kept apart in one config file.

A profile names a service and the key for it, so that ``Client(profile="acme")``,
``DIALKIT_PROFILE=acme`` or ``dialkit --profile acme ...`` reach that account
without the key on a command line (shell history and ``ps`` show those). The file
is TOML, under the user's config folder (``~/.config/dialkit/config.toml`` on
Linux; ``$DIALKIT_CONFIG`` names another)::

    [profiles.acme]
    base_url = "https://api.acme-dialer.example"
    api_key = "sk_live_..."          # or: api_key_env = "ACME_KEY"

A file that holds a key must be the owner's alone (mode 600), as ssh asks of its
keys: one that others can read is refused, with the ``chmod`` that fixes it.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from .._files._text import read_text
from .._utils._base_error import InputError
from .._utils._secrets import MaskedStr

CONFIG_VARIABLE = "DIALKIT_CONFIG"
"""The environment variable naming the config file, where not the default one."""
PROFILE_VARIABLE = "DIALKIT_PROFILE"
"""The environment variable naming the profile a ``Client()`` uses."""
_FIELDS = frozenset({"base_url", "api_key", "api_key_env"})


@dataclass(frozen=True)
class Profile:
    """One account of the config file: its service and key (the key masked in reprs)."""

    name: str
    base_url: str | None = None
    api_key: MaskedStr | None = None


def config_path() -> Path:
    """The config file: ``$DIALKIT_CONFIG``, else ``config.toml`` in the user's config
    folder (``~/.config/dialkit`` on Linux)."""
    return Path(os.environ.get(CONFIG_VARIABLE)
                or Path(platformdirs.user_config_dir("dialkit")) / "config.toml")


def profiles(path: str | os.PathLike[str] | None = None) -> dict[str, Profile]:
    """Every profile of the config file (none when there is no file), by name.

    Raises:
        ValueError: The file is not TOML, a profile is malformed, or the file holds a
            key and others may read it.
    """
    where = Path(path) if path is not None else config_path()
    tables = _tables(where)
    if any("api_key" in table for table in tables.values()):
        _check_private(where)
    return {name: _profile(name, table) for name, table in tables.items()}


def profile(name: str | None = None) -> Profile | None:
    """The profile ``name``, else the one ``$DIALKIT_PROFILE`` names; ``None`` when
    neither names one.

    Raises:
        ValueError: No such profile (the message lists those there are), or the file
            cannot be used (:func:`profiles`).
    """
    name = name or os.environ.get(PROFILE_VARIABLE) or None
    if name is None:
        return None
    found = profiles()
    if name not in found:
        known = ", ".join(sorted(found)) or "none"
        raise InputError(f"no profile {name!r} in {config_path()} (profiles there: {known}); "
                         f"add it with `dialkit profiles add {name}`")
    return found[name]


def save_profile(name: str, *, base_url: str, api_key: str,
                 path: str | os.PathLike[str] | None = None) -> Path:
    """Add or replace the profile ``name`` in the config file, made owner-only; the
    other profiles are kept as they were read. Written to a temporary file first, so
    a failed write leaves the old file whole.

    Raises:
        ValueError: The name is not a plain word, or the file cannot be used.
    """
    if not name.replace("-", "").replace("_", "").isalnum():
        raise InputError(f"profile name {name!r}: use letters, digits, - and _ only")
    where = Path(path) if path is not None else config_path()
    tables = _tables(where)
    tables[name] = {"base_url": base_url, "api_key": api_key}
    where.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=where.parent, prefix=".config-")
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:  # mkstemp: mode 600
        file.write(_toml(tables))
    os.replace(temporary, where)
    return where


def _tables(where: Path) -> dict[str, dict[str, str]]:
    """The file's profiles as written (an ``api_key_env`` not yet read), checked."""
    if not where.exists():  # no profiles yet
        return {}
    text = read_text(where, lambda said: InputError(f"the config file {said}"))
    try:
        tables = tomllib.loads(text).get("profiles", {})
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"the config file {where} is not valid TOML: {error}") from None
    for name, table in tables.items():
        if not isinstance(table, dict) or set(table) - _FIELDS or not all(
                isinstance(v, str) for v in table.values()):
            raise InputError(f"the config file {where}: profile {name!r} takes only the "
                             f"texts {', '.join(sorted(_FIELDS))}")
    return dict(tables)


def _profile(name: str, table: dict[str, str]) -> Profile:
    key = table.get("api_key") or os.environ.get(table.get("api_key_env", ""), "") or None
    return Profile(name, table.get("base_url"), MaskedStr(key) if key else None)


def _check_private(where: Path) -> None:
    if os.name == "nt":  # no POSIX modes: the user's profile folder is private already
        return
    if where.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise InputError(f"the config file {where} holds API keys and other users may read "
                         f"it: run `chmod 600 {where}`")


def _toml(tables: dict[str, dict[str, str]]) -> str:
    """The profiles as TOML: each a table of texts (TOML's basic strings take JSON's
    escapes; the names are plain words, :func:`save_profile` and TOML's bare keys)."""
    lines = []
    for name, table in tables.items():
        lines += [f"[profiles.{json.dumps(name)}]",
                  *(f"{key} = {json.dumps(value)}" for key, value in table.items()), ""]
    return "\n".join(lines)
