"""What a lead clean is asked to do, whichever way it runs: :class:`CleanOptions`.

The options are declared once, as typed sets (STYLE.md point 19): :class:`CleanArgs`, what
every clean takes, and :class:`FileArgs`, with how a file is read. :func:`dialkit.leads.clean`,
:func:`~dialkit.leads.clean_file` and :func:`~dialkit.leads.import_leads` take ``**options:
Unpack[FileArgs]``, :func:`~dialkit.leads.clean_dataset` (a Dask source has no sheet,
encoding or header) ``**options: Unpack[CleanArgs]``, beside their own parameters; each
gathers them by :func:`options_of` into a :class:`CleanOptions` (whose fields are the two
sets' keys with their defaults, a test holds them equal), and the drivers (a file in
memory or in chunks: :mod:`._stream`; a Dask frame's partitions:
:mod:`.._dask._clean`; an import) read them as typed attributes, not as a ``dict`` of
anything passed from hand to hand. The options are a module of their own, below the entry
points and the drivers alike: the entry points hand them to the drivers, so the drivers
taking them from the entry points would close a circle of imports.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from dialkit._places._blocked import blocked_regions

from .._utils._base_error import InputError
from ._clean._campaign import check_campaign
from ._clean._result import ALT_PHONE_FIELD, EXTENSION_FIELD
from ._read._lead_file import ColumnMap, Header

if TYPE_CHECKING:
    from dialkit.client import Client


class CleanArgs(TypedDict, total=False):
    """What every clean takes, a file's or a Dask source's: what each means is
    :func:`dialkit.leads.clean`'s docstring."""

    region: str
    blocked_countries: Collection[str]
    country_column: str | None
    mapping: ColumnMap | None
    extension_field: str | None
    alt_phone_field: str | None


class FileArgs(CleanArgs, total=False):
    """A clean's options with how a file is read (as :func:`dialkit.leads.read` takes
    them)."""

    sheet: str | int | None
    encoding: str | None
    header: Header


def options_of(function: str, given: CleanArgs | FileArgs, takes: type[CleanArgs], *,
               client: Client | None = None, campaign_id: str | None = None) -> CleanOptions:
    """The options ``function`` was given (it ``takes`` :class:`CleanArgs` or
    :class:`FileArgs`), one it does not take refused with the :class:`TypeError` Python
    raises for such a keyword, naming the ones it does."""
    known = sorted(takes.__annotations__)
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise TypeError(f"{function}() got an unexpected keyword argument {unknown[0]!r}; "
                        f"its options are {', '.join(known)}")
    return CleanOptions(client=client, campaign_id=campaign_id, **given)


@dataclass(frozen=True, kw_only=True)
class CleanOptions:
    """The arguments of a clean, as :func:`dialkit.leads.clean` documents them: the
    account's (``client``, ``campaign_id``) and :class:`FileArgs`' with their defaults."""

    region: str = "US"
    client: Client | None = None
    campaign_id: str | None = None
    blocked_countries: Collection[str] = ()
    country_column: str | None = None
    sheet: str | int | None = None
    mapping: ColumnMap | None = None
    encoding: str | None = None
    extension_field: str | None = EXTENSION_FIELD
    alt_phone_field: str | None = ALT_PHONE_FIELD
    header: Header = "infer"

    def checked(self) -> frozenset[str]:
        """The blocked regions, once what can be refused before the file is read has been
        checked: the countries, the custom fields' names, and (with a client) the campaign,
        so that a mistyped id fails before a long file is read."""
        blocked = frozenset(blocked_regions(self.blocked_countries))
        if self.client is not None and self.campaign_id is not None:
            check_campaign(self.client, self.campaign_id)
        field_name("extension_field", self.extension_field)
        field_name("alt_phone_field", self.alt_phone_field)
        return blocked

    def skipped(self) -> dict[str, str]:
        """The checks that do not run, each with what would run it."""
        skipped = {}
        if self.client is None or self.campaign_id is None:
            skipped["duplicate_in_campaign"] = ("needs the campaign's leads: pass client= "
                                                "and campaign_id=")
        if self.client is None:
            skipped["on_dnc"] = "needs the account's DNC list: pass client="
        return skipped


def field_name(option: str, name: str | None) -> str | None:
    """``name``, refused when it is not a custom field's name (nor ``None``)."""
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise InputError(f"{option}={name!r}: pass the custom field's name, or None to leave "
                         "it out")
    return name
