"""Which webhook URLs the service calls: https, to a public address.

The contract refuses a URL that is not https, or that does not resolve to a
public address (private, loopback, link-local, cloud metadata), with 422
``webhook_url_refused``; the URL is checked again before every delivery. The
emulator runs these checks at create, update and replay, and before every
delivery attempt:

1. The scheme must be ``https``. Exception: with ``[server]
   allow_loopback_webhooks = true``, loopback receivers (127.0.0.0/8, ``::1``,
   ``localhost``) are accepted, and may use plain ``http``, because a local test
   receiver has no TLS certificate.
2. An IP literal is judged as written (an IPv4-mapped IPv6 address as its IPv4
   address): cloud metadata, loopback, link-local, and every address that is not
   globally routable (private, shared, reserved, multicast) are refused.
3. ``localhost`` and names under ``.localhost`` are loopback; cloud-metadata
   names (``metadata.google.internal``, ...) are refused, and so are names under
   the private-use suffixes ``.internal``, ``.local`` and ``.home.arpa``.
4. Names under the reserved ``.test``, ``.example`` and ``.invalid`` and the
   example domains ``example.com|net|org`` (RFC 2606, RFC 6761) are never looked
   up: they are accepted, so that examples and tests run offline without a DNS
   wait. A delivery to them fails like any name that does not resolve.
5. Any other name is resolved (``getaddrinfo``, at most
   :data:`DNS_TIMEOUT_SECONDS`). If it resolves, every address must pass rule 2.
   If it does not resolve (the emulator usually runs offline), it is accepted:
   the check runs again before every delivery, and a delivery to a name that
   does not resolve fails and is retried.
"""

from __future__ import annotations

import asyncio
import socket
from ipaddress import IPv4Address, IPv6Address, ip_address
from urllib.parse import SplitResult, urlsplit

DNS_TIMEOUT_SECONDS = 1.0
"""Longest wait for a name lookup in the request path."""

IPAddress = IPv4Address | IPv6Address

METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(ip_address(a) for a in (
    "169.254.169.254",  # AWS, GCP, Azure, OpenStack
    "169.254.170.2",  # AWS ECS task metadata
    "fd00:ec2::254",  # AWS over IPv6
    "100.100.100.200",  # Alibaba Cloud
))
"""Cloud instance-metadata services: a receiver there would leak credentials."""

METADATA_NAMES = frozenset({
    "metadata", "metadata.google.internal", "metadata.goog", "instance-data",
    "instance-data.ec2.internal",
})
PRIVATE_SUFFIXES = (".internal", ".local", ".home.arpa")
RESERVED_NAMES = ("test", "example", "invalid", "example.com", "example.net", "example.org")
"""Names that are never looked up (see rule 4 of the module docstring)."""

ACCEPTED = frozenset({"public", "unresolved"})
"""Host kinds a receiver may have; ``loopback`` too when the server allows it."""


class UrlRefused(ValueError):
    """A webhook URL the service will not call; the message says why and what to send."""


def classify_address(address: IPAddress) -> str:
    """``cloud-metadata``, ``loopback``, ``link-local``, ``private`` or ``public``."""
    if isinstance(address, IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address in METADATA_ADDRESSES:
        return "cloud-metadata"
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link-local"
    if address.is_multicast or not address.is_global:
        return "private"
    return "public"


def _under(name: str, domains: tuple[str, ...]) -> bool:
    return any(name == d or name.endswith("." + d) for d in domains)


def _name_kind(name: str) -> str | None:
    """The kind of a host name decided without DNS, or ``None`` when it must be resolved."""
    name = name.rstrip(".")
    if name in METADATA_NAMES:
        return "cloud-metadata"
    if _under(name, ("localhost",)):
        return "loopback"
    if name.endswith(PRIVATE_SUFFIXES):
        return "private"
    if _under(name, RESERVED_NAMES):
        return "unresolved"
    return None


async def _resolve(name: str) -> list[IPAddress]:
    """The addresses of ``name``, or none when it cannot be resolved in time."""
    loop = asyncio.get_running_loop()
    try:
        infos = await asyncio.wait_for(
            loop.getaddrinfo(name, None, type=socket.SOCK_STREAM), DNS_TIMEOUT_SECONDS)
    except (OSError, TimeoutError, UnicodeError):
        return []
    return [ip_address(str(info[4][0])) for info in infos]


async def host_kinds(host: str) -> set[str]:
    """Every kind of address ``host`` stands for (one kind unless a name resolves to several)."""
    try:
        return {classify_address(ip_address(host))}
    except ValueError:
        pass
    named = _name_kind(host)
    if named is not None:
        return {named}
    return {classify_address(a) for a in await _resolve(host)} or {"unresolved"}


async def check_url(url: str, *, allow_loopback: bool) -> str:
    """The host of an acceptable receiver URL.

    Args:
        url: The URL as the client sent it.
        allow_loopback: The server's ``allow_loopback_webhooks`` setting.

    Raises:
        UrlRefused: The URL is not https, names no host, or leads to an address
            that is not public.
    """
    parts = _split(url)
    scheme, host = parts.scheme.lower(), parts.hostname
    if scheme not in ("https", "http") or not host:
        raise UrlRefused("The URL must be an https:// URL with a host name, e.g. "
                         "https://hooks.example.com/dialer.")
    kinds = await host_kinds(host)
    allowed = ACCEPTED | {"loopback"} if allow_loopback else ACCEPTED
    refused = sorted(kinds - allowed)
    if refused:
        raise UrlRefused(_refusal(host, refused[0]))
    if scheme == "http" and kinds != {"loopback"}:
        raise UrlRefused("Webhook URLs must use https://; plain http:// is accepted only for a "
                         "loopback receiver of a sandbox started with allow_loopback_webhooks.")
    return host


def _split(url: str) -> SplitResult:
    try:
        parts = urlsplit(url)
        _ = parts.port  # reading the port validates it
    except ValueError:
        raise UrlRefused("The URL's host or port is malformed; send e.g. "
                         "https://hooks.example.com/dialer.") from None
    return parts


def _refusal(host: str, kind: str) -> str:
    detail = (f"{host} is a {kind} address; webhooks are delivered only to public https "
              "receivers.")
    if kind == "loopback":
        detail += (" A local receiver is accepted when the sandbox runs with [server] "
                   "allow_loopback_webhooks = true.")
    return detail


def url_preview(url: str) -> str:
    """The URL with its path and query shortened: ``https://hooks.example.com/…``."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2].lower()
    rest = "/…" if parts.path not in ("", "/") or parts.query else "/"
    return f"{parts.scheme.lower()}://{netloc}{rest}"
